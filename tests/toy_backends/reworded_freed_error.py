"""The freed-graph error is reworded but stays in its category ("backward through the graph a
second time")."""

from reference_engine import messages
from reference_engine.torch import *  # noqa: F403

_cls, _text = messages.TORCH_ERRORS["freed"]
messages.TORCH_ERRORS["freed"] = (_cls, _text.replace("Specify retain_graph=True",
                                                      "Pass retain_graph=True"))
