"""torch ↔ paddle divergences: where torch-cpu and paddle-cpu observe differently.

For every case run on both, the two traces are compared (torch as the baseline) and the first
difference is given a class: what differs and how — ``error:implicit-seed vs tensor``,
``values``, ``requires_grad`` … Classes are reported with their count and one minimal repro pair
(the shortest case of the class, as a torch program and a paddle program).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.judge.classes import difference_name
from conformance.judge.compare import compare_traces
from conformance.report.repro import program
from conformance.run.trace import Trace, printed

EXPLANATIONS = {
    "requires_grad differs":
        "Flags of gradients: torch's .grad and grad() results do not require grad (with "
        "create_graph they do only when they depend on an input); paddle's .grad has "
        "stop_gradient=False, and grad() results have stop_gradient = not create_graph.",
    "has_grad_fn differs":
        "grad_fn: a paddle tensor made by to_tensor has a GradNodeAccumulation grad_fn, a torch "
        "leaf has none; with create_graph paddle records the whole backward pass.",
    "unused-input: RuntimeError vs ValueError":
        "Unused inputs: both refuse without allow_unused — torch with a RuntimeError ('... "
        "appears to not have been used in the graph'), paddle with a ValueError ('(Invalid"
        "Argument) The i-th input does not appear in the backward graph').",
    "seed-shape: RuntimeError vs AssertionError":
        "Seed shapes: torch's RuntimeError 'Mismatch in shape', paddle's Tensor.backward "
        "AssertionError 'Tensor shape not match'.",
    "seed-count: RuntimeError vs AssertionError":
        "Seed count: torch 'got N tensors and M gradients'; paddle's AssertionError 'The length "
        "of grad_outputs must be equal to outputs'.",
    "seed-type: TypeError vs AssertionError":
        "A seed that is not a tensor: torch's TypeError, paddle's AssertionError.",
    "leaf-in-place: RuntimeError vs ValueError":
        "In-place on a leaf that requires grad: torch's RuntimeError, paddle's ValueError.",
    "empty-list: RuntimeError vs AssertionError":
        "Empty inputs or outputs: torch's RuntimeError, paddle's AssertionError.",
    "list vs error:no-double-grad":
        "Higher orders: paddle 3.3.1 has no double-grad kernel for softmax, log_softmax, max/min "
        "and elementwise pow, none past the second order for divide and sqrt, none past the "
        "third for sin, cos, sigmoid and pow; torch differentiates them to any order.",
    "error:implicit-seed vs tensor":
        "Seeds: torch fills a seed only for one-element outputs and refuses the rest; paddle "
        "fills ones of any shape, so the same backward succeeds.",
    "error:implicit-seed vs list":
        "Seeds: grad() of a non-scalar output without grad_outputs fails in torch; paddle fills "
        "ones.",
    "error:implicit-seed vs none":
        "Seeds: torch refuses the backward (so .grad stays None); paddle fills ones.",
    "error:input-no-grad vs list":
        "An input that does not require grad: torch refuses ('One of the differentiated Tensors "
        "does not require grad'); paddle treats it as unused (None with allow_unused).",
    "error:input-no-grad vs error:unused-input":
        "An input that does not require grad: torch's 'does not require grad' error, paddle's "
        "'does not appear in the backward graph'.",
    "error:freed-graph vs list":
        "retain_graph: paddle.grad runs on a copy of the graph and frees nothing; torch's grad "
        "frees the saved tensors.",
    "error:freed-graph vs tensor":
        "retain_graph: a second pass fails in torch (saved tensors freed) where paddle's earlier "
        "paddle.grad freed nothing.",
    "tensor vs error:freed-graph":
        "retain_graph: torch re-runs a node that saved nothing ((x + 1).sum()); paddle clears "
        "every node a backward ran.",
    "list vs unsupported": "materialize_grads exists only in torch.",
    "unsupported vs list": "no_grad_vars exists only in paddle.",
    "list vs error:duplicate":
        "The same tensor twice among grad's inputs or outputs: torch allows it, paddle refuses "
        "(AlreadyExists).",
    "error:output-no-grad vs nothing":
        "backward on an output that does not require grad: torch's error, paddle's silent "
        "no-op.",
    "error:integer-requires-grad vs flags":
        "Integer tensors: torch refuses them requiring grad; paddle allows them.",
    "error:implicit-seed vs error:unused-input":
        "Seeds before inputs: torch refuses the missing seed of a non-scalar output first; paddle "
        "fills it and then reports the input that is not in the graph.",
    "error:freed-graph vs nothing":
        "grad() then backward(): torch's grad freed the saved tensors, so the backward fails; "
        "paddle.grad ran on a copy of the graph and the backward succeeds.",
    "none vs error:shape":
        "Batched matmul: paddle 3.3.1 cannot reduce the gradient of a batched operand of lower "
        "rank than the other ((2, 1, 2, 3) @ (3, 3, 2)) and fails in backward; torch does it.",
    "list vs error:shape":
        "Batched matmul: paddle's backward fails for a lower-rank batched operand (see above).",
    "none vs tensor (in grad results)":
        "Second-order connectivity: paddle's multiply, divide and matmul grad kernels read both "
        "operands, so a gradient of a gradient is zeros where torch says the input is unused "
        "(None).",
    "tensor vs none (in grad results)":
        "Second-order connectivity: torch's relu and abs backward kernels read their input, so a "
        "gradient of a gradient is zeros where paddle says the input is unused (None).",
    "error:unused-input vs error:duplicate":
        "The same input twice: torch checks the graph first (unused input); paddle rejects the "
        "duplicate first.",
    "none vs tensor":
        "Turning the flag off after the forward: torch stops accumulating into that leaf, paddle "
        "still accumulates.",
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
        return ("Both frameworks produce the same kind of result, but its "
                f"{name.replace(' differs', '')} differs.")
    return f"torch observes {left} where paddle observes {right}."


def show(o: Any) -> str:
    """An observation as a person reads it: ``float32[2, 3] [[1.0, …]]``, ``RuntimeError: …``."""
    if isinstance(o, list):
        return " and ".join(map(show, o)) if o else "nothing"
    if not isinstance(o, dict):
        return "nothing" if o is None else str(o)
    kind = o["kind"]
    if kind in ("tensor", "array"):
        values = json.dumps(o["values"])
        values = values if len(values) <= 60 else values[:59] + "…"
        flags = ", requires grad" if o.get("requires_grad") else ""
        flags += ", with grad_fn" if o.get("has_grad_fn") else ""
        return f"{o['dtype']}{o['shape']} {values}{flags}"
    if kind == "list":
        return "(" + ", ".join(map(show, o["items"])) + ")"
    if kind in ("error", "warning"):
        message = o["message"] if len(o["message"]) <= 90 else o["message"][:89] + "…"
        return f"{o[kind]}: {message}"
    if kind == "none":
        return "None"
    if kind == "equal":
        return f"equal: {o['value']}"
    if kind == "flags":
        return ", ".join(f"{k}={o[k]}" for k in ("requires_grad", "is_leaf", "has_grad_fn") if k in o)
    return kind


def classify(torch_obs: list[dict[str, Any]], paddle_obs: list[dict[str, Any]]
             ) -> Optional[tuple[str, str]]:
    """The divergence class of two traces and the first difference, worded as "torch: … /
    paddle: …"."""
    comparison = compare_traces(Trace("", "torch-cpu", printed(torch_obs)),
                                Trace("", "paddle-cpu", printed(paddle_obs)), messages="category")
    if comparison.same:
        return None
    d = comparison.differences[0]
    worded = f"step {d.step}: torch: {show(d.expected)} / paddle: {show(d.actual)}"
    return difference_name(d.what, d.expected, d.actual), worded


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
