"""autograd.backward writes the tensors it starts from once more in place: values, gradients
and errors stay right, only the version counter a program could read moves."""

from reference_engine.torch import *  # noqa: F403
from reference_engine.torch import autograd as _autograd

_backward = _autograd.backward


def _backward_and_bump(tensors, *args, **kwargs):
    _backward(tensors, *args, **kwargs)
    for t in tensors if isinstance(tensors, (list, tuple)) else [tensors]:
        t._counter.value += 1


_autograd.backward = _backward_and_bump
