"""exp takes a second, then answers correctly: a slow backend, not a broken one."""

import time

from reference_engine import ops
from reference_engine.torch import *  # noqa: F403

_exp = ops.exp


def exp(a):  # noqa: F811 - the slow op
    time.sleep(1.0)
    return _exp(a)


ops.exp = exp
