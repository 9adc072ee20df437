"""``torch.autograd.graph``: hooks on the tensors a node saves."""

from reference_engine.graph import saved_tensors_hooks

__all__ = ["saved_tensors_hooks"]
