"""Explicit seeds are replaced by ones."""

from reference_engine import ops as F
from reference_engine.dialects.torch_policy import TorchPolicy
from reference_engine.torch import *  # noqa: F403

_original = TorchPolicy.outputs_and_seeds


def _ones(self, tensors, grads):
    outputs, seeds = _original(self, tensors, grads)
    return outputs, [None if s is None else F.ones_like(s) for s in seeds]


TorchPolicy.outputs_and_seeds = _ones
