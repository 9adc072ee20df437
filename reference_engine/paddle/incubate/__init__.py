"""``paddle.incubate``: its ``autograd`` namespace (the functional vjp, jvp, Jacobian and
Hessian of a function)."""

from reference_engine.paddle.incubate import autograd

__all__ = ["autograd"]
