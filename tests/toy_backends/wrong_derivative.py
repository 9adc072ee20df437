"""sin's derivative rule returns sin instead of cos."""

import dataclasses

from reference_engine import ops as F
from reference_engine import rules
from reference_engine.torch import *  # noqa: F403

rules.RULES["sin"] = dataclasses.replace(rules.RULES["sin"],
                                         vjps=(lambda g, a: F.mul(g, F.sin(a)),))
