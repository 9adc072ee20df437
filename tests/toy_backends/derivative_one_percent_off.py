"""exp's derivative rule is 1% too large: close, but beyond the finite-difference tolerance."""

import dataclasses

from reference_engine import ops as F
from reference_engine import rules
from reference_engine.torch import *  # noqa: F403

rules.RULES["exp"] = dataclasses.replace(
    rules.RULES["exp"], vjps=(lambda g, result: F.mul(F.mul(g, result), 1.01),))
