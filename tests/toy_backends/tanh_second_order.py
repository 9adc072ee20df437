"""tanh's derivative rule reads its result as a constant: first derivatives are right, a
derivative of a derivative misses the term through the result."""

import dataclasses

from reference_engine import ops as F
from reference_engine import rules
from reference_engine.torch import *  # noqa: F403

rules.RULES["tanh"] = dataclasses.replace(
    rules.RULES["tanh"],
    vjps=(lambda g, result: F.fused_grad("tanh", g, F.constant_like(result, result._data)),))
