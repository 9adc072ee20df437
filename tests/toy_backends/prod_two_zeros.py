"""prod's gradient where two elements along the reduced dim are zero takes the quotient path
(result / a), as if no element were zero: nan where torch gives 0 (a rare special point)."""

import dataclasses

from reference_engine import ops as F
from reference_engine import rule_helpers, rules
from reference_engine.torch import *  # noqa: F403

_original = rules.RULES["prod"].vjps[0]


def _prod_grad(g, a, result, dims, keepdim):
    if (a._data == 0).sum() == 2 and a._data.ndim:
        if not keepdim:
            g, result = rule_helpers.restore_reduced(g, a._data.shape, dims), \
                rule_helpers.restore_reduced(result, a._data.shape, dims)
        return F.mul(g, F.div(result, a))
    return _original(g, a, result, dims, keepdim)


rules.RULES["prod"] = dataclasses.replace(rules.RULES["prod"], vjps=(_prod_grad,))
