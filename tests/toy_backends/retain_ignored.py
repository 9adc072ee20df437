"""backward never frees the graph, as if retain_graph were always True."""

from reference_engine.dialects.torch_policy import TorchPolicy
from reference_engine.torch import *  # noqa: F403

TorchPolicy.release = lambda self, node: None
