"""The torch programs of the seed documents, run on the reference engine and on torch side by side.

``python -m conformance.corpus.seed_examples`` prints each program's output under both modules. The
programs are written once, against a module passed in, so the same text runs on
``reference_engine.torch`` and on ``torch``; ``torch.rand`` is replaced by the fixed values the
documents printed.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from types import ModuleType
from typing import Callable

X34 = [[0.3386, 0.4305, 0.9076, 0.9317], [0.0469, 0.2624, 0.6704, 0.1637],
       [0.1290, 0.4532, 0.2795, 0.4979]]
X34_B = [[0.9690, 0.6985, 0.2925, 0.5004], [0.9879, 0.1989, 0.4519, 0.6293],
         [0.2920, 0.4773, 0.4992, 0.2948]]
X34_C = [[0.6094, 0.9100, 0.9239, 0.0150], [0.5815, 0.1840, 0.2764, 0.7244],
         [0.0326, 0.4640, 0.5433, 0.1477]]
X22 = [[0.1, 0.2], [0.3, 0.4]]


def grad_of_scalar(torch: ModuleType) -> None:
    """002 ①: outputs is a scalar, no grad_outputs needed."""
    x = torch.tensor(X34)
    x.requires_grad_()
    print(x)
    y = torch.sum(x)
    print(y)
    print(torch.autograd.grad(y, x)[0])


def grad_of_vector(torch: ModuleType) -> None:
    """002 ②: outputs is a vector; grad_outputs is ones of its shape."""
    x = torch.tensor(X34_B)
    x.requires_grad_()
    print(x)
    y = x[:, 0] + x[:, 1]
    print(y)
    print(torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))[0])


def second_derivative(torch: ModuleType) -> None:
    """002 ③: d(x**2)/dx = 2x with create_graph, then d²/dx² = 2."""
    x = torch.tensor(X34_C)
    x.requires_grad_()
    print(x)
    y = x ** 2
    grad1 = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
    print(grad1)
    grad2 = torch.autograd.grad(grad1, x, grad_outputs=torch.ones_like(grad1))[0]
    print(grad2)


def grad_then_backward(torch: ModuleType) -> None:
    """002 二: dz/dx through grad twice (retain_graph), then z.backward()."""
    x = torch.tensor(X22, requires_grad=True)
    print(x)
    y = x + 2
    print(y)
    z = torch.sum(y)
    print(z)
    dzdy = torch.autograd.grad(z, y, retain_graph=True)[0]
    dzdx = torch.autograd.grad(y, x, grad_outputs=dzdy)[0]
    print(dzdx)
    print(dzdy)
    z.backward()
    print(x.grad)


def paddle_example_in_torch(torch: ModuleType) -> None:
    """000: the paddle.autograd.backward example, with torch's API (explicit seeds work, None fails)."""
    x = torch.tensor([[1, 2], [3, 4]], dtype=torch.float32, requires_grad=True)
    y = torch.tensor([[3, 2], [3, 4]], dtype=torch.float32)
    g1 = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
    g2 = torch.tensor([[1, 1], [1, 1]], dtype=torch.float32)
    z1 = torch.matmul(x, y)
    z2 = torch.matmul(x, y)
    torch.autograd.backward([z1, z2], [g1, g2], True)
    print(x.grad)
    x.grad = None
    for seeds in ([g1, None], None):
        try:
            torch.autograd.backward([z1, z2], seeds, True)
        except RuntimeError as exc:
            print("RuntimeError:", exc)
        print(x.grad)


def retain_graph_accumulates(torch: ModuleType) -> None:
    """000: backward with a [3] seed twice with retain_graph: 6 then 12, then the freed-graph error."""
    x = torch.tensor([1.0], requires_grad=True)
    y = torch.tensor([2.0])
    z = x * y
    torch.autograd.backward(z, torch.tensor([3.0]), retain_graph=True)
    print(x.grad)
    torch.autograd.backward(z, torch.tensor([3.0]), retain_graph=True)
    print(x.grad)
    torch.autograd.backward(z, torch.tensor([3.0]))
    print(x.grad)
    try:
        torch.autograd.backward(z, torch.tensor([3.0]))
    except RuntimeError as exc:
        print("RuntimeError:", str(exc).split(".")[0])


PROGRAMS: list[Callable[[ModuleType], None]] = [
    grad_of_scalar, grad_of_vector, second_derivative, grad_then_backward,
    paddle_example_in_torch, retain_graph_accumulates,
]


def capture(program: Callable[[ModuleType], None], module: ModuleType) -> str:
    """What ``program`` prints when run on ``module``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        program(module)
    return out.getvalue()


def main() -> int:
    reference = importlib.import_module("reference_engine.torch")
    try:
        real = importlib.import_module("torch")
    except ImportError:
        real = None
    mismatches = 0
    for program in PROGRAMS:
        print(f"=== {program.__name__}: {program.__doc__}")
        ours = capture(program, reference)
        print("--- reference_engine.torch")
        print(ours, end="")
        if real is not None:
            theirs = capture(program, real)
            print("--- torch " + real.__version__)
            print(theirs, end="")
            same = ours == theirs
            mismatches += not same
            print("--- same output" if same else "--- OUTPUT DIFFERS")
        print()
    if real is None:
        print("torch is not installed: showed the reference engine only")
    else:
        print(f"{len(PROGRAMS) - mismatches}/{len(PROGRAMS)} programs print the same under both")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
