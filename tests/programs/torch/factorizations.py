"""The factorizations: eigh / eigvalsh, svd / svdvals, qr, pinv and matrix_rank, their nodes,
values and (second) derivatives. An eigenvector's or a singular vector's sign is LAPACK's
choice, which differs between torch's library (MKL) and the reference's (numpy's OpenBLAS), so
the programs observe what does not depend on it: values, products that cancel the sign, and
gradients of losses invariant to it."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


def _symmetric(torch):
    return torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 1.0]], dtype=torch.float64,
                        requires_grad=True)


def _tall(torch):
    return torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype=torch.float64, requires_grad=True)


@program
def eigh_values_and_sign_free_vector_losses(torch):
    a = _symmetric(torch)
    values, vectors = torch.linalg.eigh(a)
    weights = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    loss = (values * weights).sum() + (vectors ** 4).sum() + (vectors[:, 0] * vectors[:, 1]).pow(2).sum()
    (grad,) = torch.autograd.grad(loss, a, create_graph=True)
    (second,) = torch.autograd.grad(grad.sum(), a)
    projector = vectors @ torch.diag(weights) @ vectors.T
    upper = torch.linalg.eigvalsh(a, UPLO="U")
    return [values, vectors.abs(), projector, values.grad_fn.name(), vectors.grad_fn.name(), grad, second,
            upper, torch.autograd.grad(upper.prod(), a)[0],
            torch.linalg.eigh(a.detach().float())[0], type(torch.linalg.eigh(a)).__name__]


@program
def svd_reduced_full_and_legacy(torch):
    tall = _tall(torch)
    u, s, vh = torch.linalg.svd(tall, full_matrices=False)
    loss = s.sum() + (u ** 4).sum() + (vh ** 4).sum() + s.prod()
    (grad,) = torch.autograd.grad(loss, tall, create_graph=True)
    (second,) = torch.autograd.grad(grad.sum(), tall)
    wide = tall.detach().T.clone().requires_grad_(True)
    full = torch.linalg.svd(wide)
    wide_grad = torch.autograd.grad((full.U ** 4).sum() + (full.Vh[:2] ** 4).sum() + full.S.sum(), wide)[0]
    values = torch.linalg.svdvals(wide)
    legacy = torch.svd(tall)
    return [s, u.abs(), vh.abs(), u @ torch.diag(s) @ vh, s.grad_fn.name(), grad, second,
            [t.shape for t in full], wide_grad, values, values.grad_fn.name(),
            torch.autograd.grad(values.prod(), wide)[0], legacy.V.grad_fn.name(), legacy.S,
            type(full).__name__, type(legacy).__name__]


@program
def qr_reduced_complete_and_refused(torch):
    tall = _tall(torch)
    q, r = torch.linalg.qr(tall)
    (grad,) = torch.autograd.grad(q.sum() + (r ** 2).sum(), tall, create_graph=True)
    (second,) = torch.autograd.grad(grad.sum(), tall)
    wide = tall.detach().T.clone().requires_grad_(True)
    q2, r2 = torch.linalg.qr(wide)
    square = _symmetric(torch)
    q3, r3 = torch.linalg.qr(square, mode="complete")
    complete_tall = torch.linalg.qr(tall, mode="complete")
    only_r = torch.linalg.qr(tall, mode="r")
    return [q, r, q.grad_fn.name(), grad, second, torch.autograd.grad((q2 ** 3).sum() + r2.sum(), wide)[0],
            torch.autograd.grad((q3 * r3).sum(), square)[0], complete_tall.Q.shape,
            attempt(lambda: complete_tall.Q.sum().backward()), only_r.Q, only_r.R,
            attempt(lambda: only_r.R.sum().backward())]


@program
def pinv_pinverse_and_matrix_rank(torch):
    tall = _tall(torch)
    inverse = torch.linalg.pinv(tall)
    (grad,) = torch.autograd.grad((inverse ** 2).sum(), tall, create_graph=True)
    wide = tall.detach().T.clone().requires_grad_(True)
    weights = torch.arange(6.0, dtype=torch.float64).reshape(3, 2)
    wide_grad = torch.autograd.grad((torch.linalg.pinv(wide) * weights).sum(), wide)[0]
    ranks = [torch.linalg.matrix_rank(m) for m in (tall, torch.ones(3, 3), torch.zeros(2, 2),
                                                    torch.eye(3), torch.ones(2, 4, 3))]
    return [inverse, inverse.grad_fn.name(), grad, torch.autograd.grad(grad.sum(), tall)[0], wide_grad,
            tall.pinverse(), torch.pinverse(wide).grad_fn.name(), ranks, [str(r.dtype) for r in ranks]]
