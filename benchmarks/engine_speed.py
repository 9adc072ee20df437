"""Reference engine vs torch CPU eager vs paddle eager, side by side in one run.

    python benchmarks/engine_speed.py [--quick]

Prints microseconds per iteration (best of several repeats) and the engine's ratio to each
framework, for: ``(x*y).sum().backward()`` on 4x4 float32; a 50-op elementwise chain forward
and backward; a 1024x1024 matmul forward and backward; and the number of saved arrays the engine
still holds after ``backward(retain_graph=False)`` on a 1,000-op chain. A framework that is not
installed is shown as ``-``.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any, Callable, Optional

import numpy as np


def _best_time(fn: Callable[[], Any], repeats: int, number: int) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1e6


class Torchish:
    """Creates leaves on a torch-shaped module (reference engine or torch)."""

    def __init__(self, module: Any) -> None:
        self.m = module

    def leaf(self, array: np.ndarray) -> Any:
        return self.m.tensor(array, requires_grad=True)

    def const(self, array: np.ndarray) -> Any:
        return self.m.tensor(array)


class Paddleish:
    def __init__(self, module: Any) -> None:
        self.m = module

    def leaf(self, array: np.ndarray) -> Any:
        return self.m.to_tensor(array, stop_gradient=False)

    def const(self, array: np.ndarray) -> Any:
        return self.m.to_tensor(array)


def tiny_graph(api: Any) -> Callable[[], None]:
    x = api.leaf(np.full((4, 4), 0.5, np.float32))
    y = api.const(np.full((4, 4), 1.5, np.float32))

    def step() -> None:
        (x * y).sum().backward()

    return step


def chain(api: Any, length: int = 50) -> Callable[[], None]:
    x = api.leaf(np.linspace(0.1, 0.9, 16, dtype=np.float32).reshape(4, 4))

    def step() -> None:
        h = x
        for i in range(length):
            h = h.sin() if i % 3 == 0 else (h * 1.01 if i % 3 == 1 else h + 0.1)
        h.sum().backward()

    return step


def big_matmul(api: Any) -> Callable[[], None]:
    rng = np.random.default_rng(0)
    a = api.leaf(rng.standard_normal((1024, 1024), dtype=np.float32))
    b = api.leaf(rng.standard_normal((1024, 1024), dtype=np.float32))

    def step() -> None:
        (a @ b).sum().backward()

    return step


def saved_arrays_after_backward(length: int = 1000) -> int:
    import reference_engine.torch as torch
    from reference_engine.engine import topological_order

    x = torch.tensor([0.5, 1.5], requires_grad=True)
    h = x
    for _ in range(length):
        h = (h * 1.0001).sin()
    loss = h.sum()
    loss.backward()
    return sum(len(node.saved) for node in topological_order([loss.grad_fn]))


# the engine's speed goals: its time over torch's on these workloads, at most
GOALS = {tiny_graph: 1.0, chain: 1.0}


def _load(name: str) -> Optional[Any]:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (smoke run)")
    args = parser.parse_args()
    repeats = 2 if args.quick else 7

    backends: list[tuple[str, Any]] = []
    backends.append(("reference-torch", Torchish(importlib.import_module("reference_engine.torch"))))
    ref_paddle = _load("reference_engine.paddle")
    if ref_paddle is not None:
        backends.append(("reference-paddle", Paddleish(ref_paddle)))
    torch = _load("torch")
    if torch is not None:
        torch.set_num_threads(2)
        backends.append(("torch-cpu", Torchish(torch)))
    paddle = _load("paddle")
    if paddle is not None:
        paddle.set_device("cpu")
        backends.append(("paddle-cpu", Paddleish(paddle)))

    workloads = [("(x*y).sum().backward() 4x4", tiny_graph, 2000),
                 ("50-op elementwise chain fwd+bwd", chain, 100),
                 ("1024x1024 matmul fwd+bwd", big_matmul, 3)]
    names = [name for name, _ in backends]
    print(f"{'workload':34s}" + "".join(f"{n:>18s}" for n in names) + "   ratios")
    goals = []
    for title, make, number in workloads:
        times = {name: _best_time(make(api), repeats, max(1, number // (4 if args.quick else 1)))
                 for name, api in backends}
        if make in GOALS and "torch-cpu" in times:
            ratio = times["reference-torch"] / times["torch-cpu"]
            goals.append(f"  {title}: reference-torch / torch-cpu {ratio:.2f} (goal <= "
                         f"{GOALS[make]:.1f}: {'met' if ratio <= GOALS[make] else 'not met'})")
        ratios = []
        for ref, real in (("reference-torch", "torch-cpu"), ("reference-torch", "paddle-cpu"),
                          ("reference-paddle", "paddle-cpu")):
            if ref in times and real in times:
                ratios.append(f"{ref}/{real} {times[ref] / times[real]:.2f}x")
        print(f"{title:34s}" + "".join(f"{times[n]:>15.1f} us" for n in names)
              + "   " + ", ".join(ratios))
    print(f"{'saved arrays held after backward':34s}{saved_arrays_after_backward():>15d}"
          "      (1,000-op chain, retain_graph=False)")
    if goals:
        print("goals:")
        print("\n".join(goals))


if __name__ == "__main__":
    main()
