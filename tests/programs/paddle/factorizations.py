"""The factorizations: cholesky, eigh / eigvalsh, svd, qr, pinv and matrix_rank, their nodes,
values and derivatives, and the double grads paddle 3.3.1 lacks (qr's gradient crashes when a
pass records: ``tests/test_paddle_undefined.py``)."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


def _symmetric(paddle):
    return paddle.to_tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 1.0]], dtype="float64",
                            stop_gradient=False)


def _tall(paddle):
    return paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype="float64", stop_gradient=False)


@program
def eigh_and_eigvalsh(paddle):
    a = _symmetric(paddle)
    values, vectors = paddle.linalg.eigh(a)
    weights = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    only = paddle.linalg.eigvalsh(a, UPLO="U")
    single = paddle.to_tensor([[2.0, 1.0], [1.0, 3.0]], stop_gradient=False)
    single_values, single_vectors = paddle.linalg.eigh(single)

    def second(loss):
        return lambda: paddle.grad(paddle.grad(loss, a, create_graph=True)[0].sum(), a)

    return [values, vectors, values.grad_fn.name(), vectors.grad_fn.name(), only, only.grad_fn.name(),
            paddle.grad((values * weights).sum() + (vectors ** 3).sum(), a)[0],
            paddle.grad(only.prod(), a)[0], single_values, single_vectors,
            paddle.grad((single_values ** 2).sum(), single)[0],
            attempt(second((values * weights).sum())), attempt(second((only * only).sum()))]


@program
def svd_reduced_and_full(paddle):
    tall = _tall(paddle)
    u, s, vh = paddle.linalg.svd(tall)
    wide = _tall(paddle).T
    u2, s2, v2 = paddle.linalg.svd(wide)
    full = paddle.linalg.svd(tall, full_matrices=True)
    return [u, s, vh, u.grad_fn.name(), paddle.grad(s.sum(), tall)[0],
            paddle.grad((u ** 3).sum() + (vh ** 3).sum() + s.prod(), tall)[0],
            paddle.grad((u2 ** 3).sum() + (v2 ** 3).sum() + s2.prod(), wide)[0],
            [t.shape for t in full], paddle.grad(full[1].sum(), tall)[0],
            attempt(lambda: paddle.grad(paddle.grad(s.sum(), tall, create_graph=True)[0].sum(), tall))]


@program
def qr_and_its_refusals(paddle):
    tall = _tall(paddle)
    q, r = paddle.linalg.qr(tall)
    wide = _tall(paddle).T
    q2, r2 = paddle.linalg.qr(wide)
    only_r = paddle.linalg.qr(tall, mode="r")
    complete = paddle.linalg.qr(tall, mode="complete")
    return [q, r, q.grad_fn.name(), paddle.grad((q ** 3).sum() + (r * r).sum(), tall)[0],
            paddle.grad((q2 ** 3).sum() + (r2 ** 3).sum(), wide)[0], only_r, only_r.grad_fn.name(),
            attempt(lambda: paddle.grad(only_r.sum(), tall)), [t.shape for t in complete],
            attempt(lambda: paddle.grad(complete[1].sum(), tall))]


@program
def cholesky_pinv_and_matrix_rank(paddle):
    a = _symmetric(paddle)
    lower = paddle.linalg.cholesky(a)
    upper = paddle.linalg.cholesky(a, upper=True)
    tall = _tall(paddle)
    inverse = paddle.linalg.pinv(tall)
    return [lower, lower.grad_fn.name(), paddle.grad(lower.sum(), a)[0], upper, upper.grad_fn.name(),
            paddle.grad((upper ** 3).sum(), a)[0], a.cholesky().grad_fn.name(), paddle.cholesky(a),
            attempt(lambda: paddle.grad(paddle.grad(lower.sum(), a, create_graph=True)[0].sum(), a)),
            inverse, inverse.grad_fn.name(), paddle.grad((inverse * inverse).sum(), tall)[0],
            paddle.linalg.matrix_rank(tall), paddle.linalg.matrix_rank(paddle.ones([3, 3])),
            paddle.linalg.matrix_rank(paddle.ones([2, 4, 3]))]
