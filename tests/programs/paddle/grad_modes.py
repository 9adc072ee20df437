"""Grad modes: no-grad, enable-grad, inference mode, detach and anomaly detection."""

from __future__ import annotations

from tests.programs.registry import paddle_program as program


@program
def grad_modes(paddle):
    k = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        a = k * 2
        with paddle.enable_grad():
            b = k * 2
    with paddle.set_grad_enabled(False):
        c = k * 2
    return [a.stop_gradient, b.stop_gradient, c.stop_gradient, paddle.is_grad_enabled(),
            (k * 2).detach().stop_gradient]
