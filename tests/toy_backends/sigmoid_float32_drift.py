"""sigmoid's derivative in float32 is off by one part in a million: below float32's tolerance
alone, seen only where it compounds (a bug the default corpus reaches rarely)."""

import dataclasses

import numpy as np

from reference_engine import ops as F
from reference_engine import rules
from reference_engine.torch import *  # noqa: F403


def _drifting(g, result):
    grad = F.fused_grad("sigmoid", g, result)
    return F.mul(grad, 1.000001) if grad._data.dtype == np.float32 else grad


rules.RULES["sigmoid"] = dataclasses.replace(rules.RULES["sigmoid"], vjps=(_drifting,))
