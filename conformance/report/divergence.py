"""torch ↔ paddle divergences: where torch-cpu and paddle-cpu observe differently.

For every case run on both, the two traces are compared (torch as the baseline) and the first
difference is given a class: what differs and how — ``error:implicit-seed vs tensor``,
``values``, ``requires_grad`` … Classes are reported with their count and one minimal repro pair
(the shortest case of the class, as a torch program and a paddle program).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from conformance.case import Case
from conformance.compare import compare_traces
from conformance.repro import program
from conformance.trace import Trace

EXPLANATIONS = {
    "error:implicit-seed vs tensor":
        "Seeds: torch fills a seed only for one-element outputs and refuses the rest; paddle "
        "fills ones of any shape, so the same call succeeds.",
    "error:implicit-seed vs list":
        "Seeds: grad() of a non-scalar output without grad_outputs fails in torch; paddle fills "
        "ones.",
    "error:freed-graph vs tensor":
        "retain_graph: torch frees only the saved tensors, paddle.grad runs on a copy of the "
        "graph, so a second pass works in one framework and not in the other.",
    "error:freed-graph vs list":
        "retain_graph: paddle.grad frees nothing (it runs on a copy of the graph); torch's grad "
        "frees the saved tensors.",
    "tensor vs error:freed-graph":
        "retain_graph: torch re-runs a node that saved nothing ((x + 1).sum()); paddle clears "
        "every node a backward ran.",
    "list vs error:freed-graph":
        "retain_graph: torch re-runs a graph whose nodes saved nothing; paddle clears every node.",
    "list vs unsupported": "An argument one framework lacks (materialize_grads in paddle).",
    "unsupported vs list": "An argument one framework lacks (no_grad_vars in torch).",
    "error:integer-requires-grad vs flags":
        "dtypes: torch refuses integer tensors that require grad; paddle allows them.",
}


@dataclass
class DivergenceClass:
    name: str
    cases: list[str] = field(default_factory=list)
    example: Optional[str] = None
    example_steps: int = 10 ** 9
    torch_program: str = ""
    paddle_program: str = ""
    difference: str = ""

    @property
    def explanation(self) -> str:
        return EXPLANATIONS.get(self.name, _generic(self.name))


def _generic(name: str) -> str:
    left, _, right = name.partition(" vs ")
    if not right:
        return f"The frameworks agree on the outcome but differ in {name}."
    return f"torch observes {left} where paddle observes {right}."


def _side(o: Optional[dict[str, Any]]) -> str:
    if o is None:
        return "nothing"
    if o["kind"] in ("error", "warning"):
        return f"{o['kind']}:{o['category']}"
    return o["kind"]


def classify(torch_obs: list[dict[str, Any]], paddle_obs: list[dict[str, Any]]
             ) -> Optional[tuple[str, str]]:
    """The divergence class of two traces and a description of the first difference, if any."""
    comparison = compare_traces(Trace("", "torch-cpu", torch_obs), Trace("", "paddle-cpu", paddle_obs))
    if comparison.same:
        return None
    d = comparison.differences[0]
    if d.what in ("kind", "step", "missing or extra observation") or d.what.endswith("kind"):
        name = f"{_side(d.expected)} vs {_side(d.actual)}"
    elif "category" in d.what or "class" in d.what:
        name = f"{_side(d.expected)} vs {_side(d.actual)}"
    else:
        name = d.what.split()[-1] if d.what.startswith("item") else d.what
    return name, d.describe()


def torch_paddle_divergences(results: list[dict[str, Any]], cases: dict[str, Case]
                             ) -> list[DivergenceClass]:
    by_case: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        if r["backend"] in ("torch-cpu", "paddle-cpu") and r.get("observations") is not None:
            by_case.setdefault(r["case"], {})[r["backend"]] = r
    classes: dict[str, DivergenceClass] = {}
    for case_id, pair in sorted(by_case.items()):
        if len(pair) != 2:
            continue
        found = classify(pair["torch-cpu"]["observations"], pair["paddle-cpu"]["observations"])
        if found is None:
            continue
        name, difference = found
        cls = classes.setdefault(name, DivergenceClass(name))
        cls.cases.append(case_id)
        case = cases.get(case_id)
        if case is not None and len(case.steps) < cls.example_steps:
            cls.example, cls.example_steps, cls.difference = case_id, len(case.steps), difference
            cls.torch_program = program(case, "torch")
            cls.paddle_program = program(case, "paddle")
    return sorted(classes.values(), key=lambda c: (-len(c.cases), c.name))
