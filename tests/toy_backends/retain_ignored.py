"""backward never frees the graph, as if retain_graph were always True."""

from reference_engine.torch import *  # noqa: F403
from reference_engine.torch_policy import TorchPolicy

TorchPolicy.release = lambda self, node: None
