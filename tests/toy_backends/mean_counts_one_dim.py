"""mean over several dims with keepdim=True divides its gradient by the size of the first of
them only (right for a mean over one dim, over all elements, or without keepdim): a bug the
default corpus reaches rarely."""

import dataclasses
import math

from reference_engine import ops as F
from reference_engine import rule_helpers, rules
from reference_engine.torch import *  # noqa: F403


def _mean_grad(g, in_shape, dims):
    kept = len(g._data.shape) == len(in_shape)
    count = in_shape[dims[0]] if kept and len(dims) > 1 else math.prod(in_shape[d] for d in dims)
    return F.div_number(F.expand(rule_helpers.restore_reduced(g, in_shape, dims), in_shape), count)


rules.RULES["mean"] = dataclasses.replace(rules.RULES["mean"], vjps=(_mean_grad,))
