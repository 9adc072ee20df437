"""sin's derivative rule gives NaN where calculus gives cos(x): finite differences skip a
non-finite gradient (both frameworks give NaN at 0 · inf), so the frameworks catch it."""

import dataclasses

from reference_engine import ops as F
from reference_engine import rules
from reference_engine.torch import *  # noqa: F403

rules.RULES["sin"] = dataclasses.replace(
    rules.RULES["sin"], vjps=(lambda g, a: F.mul(F.mul(g, F.cos(a)), float("nan")),))
