"""Each op of the case vocabulary as the call a dialect makes, written once and read two ways.

An op's spelling builds a small expression: a function of the framework module
(``torch.amax(x, ())``), a method of an operand (``x.reshape(2, 3)``), an operator (``a + b``),
an index, an attribute read after a call (``.values``) or a helper the repro program defines
(paddle's ``swap_dims``). The adapters ``evaluate`` it on the module that runs, real framework
or reference facade; the repro writer ``render``s the same expression as program text. So the
program a report shows is the call that ran by construction, for every op: the op registry's
entries (``conformance.corpus.op_registry``) and the ops that came before it alike.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Any, Callable, Optional

from conformance.corpus.field_types import NUMBER_OR_NAME
from conformance.corpus.op_registry import REGISTERED, RegisteredOp
from conformance.corpus.vocabulary import OPS


class Unsupported(Exception):  # noqa: N818 - an outcome, not an error of the program
    """The dialect has no API for this step (e.g. paddle's no_grad_vars in torch)."""


@dataclass(frozen=True)
class Ref:
    """An operand as program text: a name, or a number as the case writes it."""

    text: str


@dataclass(frozen=True)
class Function:
    """``module.path(*args, **keywords)``; ``path`` may be dotted (``nn.functional.softmax``)."""

    path: str
    args: tuple[Any, ...]
    keywords: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Method:
    """``target.name(*args, **keywords)``."""

    target: Any
    name: str
    args: tuple[Any, ...] = ()
    keywords: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Operator:
    """A Python operator on one or two operands (``-a``, ``a + b``)."""

    symbol: str
    operands: tuple[Any, ...]


@dataclass(frozen=True)
class Item:
    """``target[index]``, the index in the case's neutral form."""

    target: Any
    index: list[Any]


@dataclass(frozen=True)
class Attribute:
    """``target.name`` (torch's ``max(x, dim).values``)."""

    target: Any
    name: str


@dataclass(frozen=True)
class ModuleAttribute:
    """``module.name`` (a dtype: ``torch.float64``)."""

    name: str


@dataclass(frozen=True)
class Helper:
    """A function the repro program defines for itself, run by the adapter as written here."""

    name: str
    args: tuple[Any, ...]


def _swap_dims(module: Any, t: Any, a: int, b: int) -> Any:
    perm = list(range(len(t.shape)))
    perm[a], perm[b] = perm[b], perm[a]
    return module.transpose(t, perm)


HELPERS: dict[str, Callable[..., Any]] = {"swap_dims": _swap_dims}
_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "**": operator.pow, ">": operator.gt, "<": operator.lt}


# --- reading an expression -----------------------------------------------------------------

def evaluate(expr: Any, module: Any) -> Any:
    """Make the call ``expr`` describes on ``module``; anything else is a value as it is."""
    if isinstance(expr, list):
        return [evaluate(e, module) for e in expr]
    if isinstance(expr, Function):
        fn = functools.reduce(getattr, expr.path.split("."), module)
        return fn(*_values(expr.args, module), **_keyword_values(expr.keywords, module))
    if isinstance(expr, Method):
        target = evaluate(expr.target, module)
        return getattr(target, expr.name)(*_values(expr.args, module),
                                          **_keyword_values(expr.keywords, module))
    if isinstance(expr, Operator):
        operands = _values(expr.operands, module)
        return -operands[0] if len(operands) == 1 else _BINARY[expr.symbol](*operands)
    if isinstance(expr, Item):
        return evaluate(expr.target, module)[to_index(expr.index)]
    if isinstance(expr, Attribute):
        return getattr(evaluate(expr.target, module), expr.name)
    if isinstance(expr, ModuleAttribute):
        return getattr(module, expr.name)
    if isinstance(expr, Helper):
        return HELPERS[expr.name](module, *_values(expr.args, module))
    return expr


def _values(args: tuple[Any, ...], module: Any) -> list[Any]:
    return [evaluate(a, module) for a in args]


def _keyword_values(keywords: tuple[tuple[str, Any], ...], module: Any) -> dict[str, Any]:
    return {k: evaluate(v, module) for k, v in keywords}


def render(expr: Any, module: str, helpers: Optional[set[str]] = None) -> str:
    """``expr`` as program text, the framework module named ``module``; the helpers it uses
    are added to ``helpers``."""
    def text(e: Any) -> str:
        return render(e, module, helpers)

    if isinstance(expr, Ref):
        return expr.text
    if isinstance(expr, list):
        return "[" + ", ".join(text(e) for e in expr) + "]"
    if isinstance(expr, tuple):
        return "(" + ", ".join(text(e) for e in expr) + ("," if len(expr) == 1 else "") + ")"
    if isinstance(expr, Function):
        return f"{module}.{expr.path}({_arguments(expr.args, expr.keywords, text)})"
    if isinstance(expr, Method):
        return f"{text(expr.target)}.{expr.name}({_arguments(expr.args, expr.keywords, text)})"
    if isinstance(expr, Operator):
        if len(expr.operands) == 1:
            return f"{expr.symbol}{text(expr.operands[0])}"
        return f" {expr.symbol} ".join(text(o) for o in expr.operands)
    if isinstance(expr, Item):
        return f"{text(expr.target)}[{index_text(expr.index)}]"
    if isinstance(expr, Attribute):
        return f"{text(expr.target)}.{expr.name}"
    if isinstance(expr, ModuleAttribute):
        return f"{module}.{expr.name}"
    if isinstance(expr, Helper):
        if helpers is not None:
            helpers.add(expr.name)
        return f"{expr.name}({', '.join(text(a) for a in expr.args)})"
    return repr(expr)


def _arguments(args: tuple[Any, ...], keywords: tuple[tuple[str, Any], ...],
               text: Callable[[Any], str]) -> str:
    return ", ".join([text(a) for a in args] + [f"{k}={text(v)}" for k, v in keywords])


def to_index(spec: list[Any]) -> tuple[Any, ...]:
    """A neutral index (list of entries) as a Python index tuple."""
    out: list[Any] = []
    for entry in spec:
        if entry == "...":
            out.append(Ellipsis)
        elif isinstance(entry, dict):
            out.append(slice(*entry["slice"]))
        else:
            out.append(entry)
    return tuple(out)


def index_text(spec: list[Any]) -> str:
    """An index of a case (``[0, {"slice": [1, null]}, "..."]``) as Python's subscript."""
    parts = []
    for e in spec:
        if e == "...":
            parts.append("...")
        elif e is None:
            parts.append("None")
        elif isinstance(e, dict):
            a = [("" if x is None else str(x)) for x in e["slice"]]
            parts.append(":".join(a) if len(a) > 1 else a[0] + ":")
        else:
            parts.append(repr(e))
    return ", ".join(parts)


# --- the spellings -------------------------------------------------------------------------

Spelling = Callable[..., Any]


def _dims(dim: Any) -> Any:
    return tuple(dim) if isinstance(dim, list) else dim


def _given(**keywords: Any) -> tuple[tuple[str, Any], ...]:
    """The keywords a step gives (None: not given), in order."""
    return tuple((k, v) for k, v in keywords.items() if v is not None)


def _function(path: str) -> Spelling:
    return lambda *args: Function(path, args)


def _operator(symbol: str) -> Spelling:
    return lambda *operands: Operator(symbol, operands)


_SHARED: dict[str, Spelling] = {
    **{name: _operator(symbol) for name, symbol in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("pow", "**"), ("neg", "-"),
        ("gt", ">"), ("lt", "<"))},
    **{name: _function(name) for name in ("matmul", "mm", "exp", "log", "sqrt", "abs", "sin",
                                          "cos", "tanh", "maximum", "minimum", "where")},
    "clone": lambda a: Method(a, "clone"), "detach": lambda a: Method(a, "detach"),
    "getitem": lambda a, index: Item(a, index),
}


def _torch_reduce(name: str, all_dims: Any = None) -> Spelling:
    def spell(a: Any, dim: Any = None, keepdim: Any = None) -> Any:
        if dim is None:
            return Function(name, (a,) if all_dims is None else (a, all_dims))
        return Function(name, (a,), _given(dim=_dims(dim), keepdim=keepdim))
    return spell


def _torch_extremum(name: str) -> Spelling:
    def spell(a: Any, dim: Any = None, keepdim: Any = None) -> Any:
        if dim is None:
            return Function(name, (a,))
        return Attribute(Function(name, (a, dim), _given(keepdim=keepdim)), "values")
    return spell


def _torch_split(a: Any, sections: Any = None, chunks: Any = None, size: Any = None,
                 dim: Any = None) -> Any:
    if chunks is not None:
        return Function("chunk", (a, chunks), _given(dim=dim))
    return Function("split", (a, sections if sections is not None else size), _given(dim=dim))


TORCH: dict[str, Spelling] = {
    **_SHARED,
    "sigmoid": _function("sigmoid"), "relu": _function("relu"),
    "sum": _torch_reduce("sum"), "mean": _torch_reduce("mean"), "prod": _torch_reduce("prod"),
    "amax": _torch_reduce("amax", ()), "amin": _torch_reduce("amin", ()),
    "max": _torch_extremum("max"), "min": _torch_extremum("min"),
    "clamp": lambda a, min=None, max=None: Function(  # noqa: A006 - the frameworks' names
        "clamp", (a,), _given(min=min, max=max)),
    "softmax": lambda a, dim: Function("softmax", (a,), (("dim", dim),)),
    "log_softmax": lambda a, dim: Function("log_softmax", (a,), (("dim", dim),)),
    "reshape": lambda a, shape: Method(a, "reshape", tuple(shape)),
    "expand": lambda a, shape: Method(a, "expand", tuple(shape)),
    "transpose": lambda a, dim0, dim1: Function("transpose", (a,), (("dim0", dim0), ("dim1", dim1))),
    "permute": lambda a, dims: Function("permute", (a,), (("dims", tuple(dims)),)),
    "squeeze": lambda a, dim=None: Function("squeeze", (a,), _given(dim=_dims(dim))),
    "unsqueeze": lambda a, dim: Function("unsqueeze", (a,), (("dim", dim),)),
    "cat": lambda tensors, dim=None: Function("cat", (tensors,), _given(dim=dim)),
    "stack": lambda tensors, dim=None: Function("stack", (tensors,), _given(dim=dim)),
    "cast": lambda a, dtype: Method(a, "to", (ModuleAttribute(dtype),)),
    "split": _torch_split,
    "unbind": lambda a, dim=None: Function("unbind", (a,), _given(dim=dim)),
}


def _paddle_axis(name: str) -> Spelling:
    """A paddle function of one tensor whose ``dim`` is ``axis``."""
    def spell(a: Any, dim: Any = None, keepdim: Any = None) -> Any:
        return Function(name, (a,), _given(axis=dim, keepdim=keepdim))
    return spell


def _paddle_split(a: Any, sections: Any = None, chunks: Any = None, size: Any = None,
                  dim: Any = None) -> Any:
    if size is not None:
        raise Unsupported("split by piece size (paddle's split takes a number of pieces)")
    if chunks is not None:
        return Function("chunk", (a, chunks), _given(axis=dim))
    return Function("split", (a, sections), _given(axis=dim))


PADDLE: dict[str, Spelling] = {
    **_SHARED,
    "sigmoid": _function("nn.functional.sigmoid"), "relu": _function("nn.functional.relu"),
    **{name: _paddle_axis(name) for name in ("sum", "mean", "prod", "max", "min", "amax", "amin",
                                              "squeeze", "unsqueeze")},
    "clamp": lambda a, min=None, max=None: Function(  # noqa: A006
        "clip", (a,), _given(min=min, max=max)),
    "softmax": lambda a, dim: Function("nn.functional.softmax", (a,), (("axis", dim),)),
    "log_softmax": lambda a, dim: Function("nn.functional.log_softmax", (a,), (("axis", dim),)),
    "reshape": lambda a, shape: Function("reshape", (a,), (("shape", list(shape)),)),
    "expand": lambda a, shape: Function("expand", (a,), (("shape", list(shape)),)),
    "transpose": lambda a, dim0, dim1: Helper("swap_dims", (a, dim0, dim1)),
    "permute": lambda a, dims: Function("transpose", (a, list(dims))),
    "cat": lambda tensors, dim=None: Function("concat", (tensors,), _given(axis=dim)),
    "stack": lambda tensors, dim=None: Function("stack", (tensors,), _given(axis=dim)),
    "cast": lambda a, dtype: Function("cast", (a, dtype)),
    "split": _paddle_split,
    "unbind": lambda a, dim=None: Function("unbind", (a,), _given(axis=dim)),
}
SPELLINGS = {"torch": TORCH, "paddle": PADDLE}


def _registered(op: RegisteredOp, dialect: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    call = op.call(dialect)
    if call is None:
        raise Unsupported(f"{dialect} has no {op.name}")
    named = tuple((call.keyword(k), v) for k, v in kwargs.items())
    if call.is_method:
        return Method(args[0], call.path[1:], tuple(args[1:]), named)
    return Function(call.path, tuple(args), named)


def spell(dialect: str, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """The expression of op ``name`` in ``dialect`` on ``args`` (values, or ``Ref``s for text)."""
    registered = REGISTERED.get(name)
    if registered is not None:
        return _registered(registered, dialect, args, kwargs)
    return SPELLINGS[dialect][name](*args, **kwargs)


def spell_text(dialect: str, step: dict[str, Any]) -> Any:
    """The expression of a ``let`` step's op for the repro program: the operands and the
    keywords that name tensors as ``Ref``s, the other keywords as the case gives them."""
    def ref(v: Any) -> Any:
        if isinstance(v, list):
            return [ref(x) for x in v]
        return Ref(v if isinstance(v, str) else repr(v))
    spec = OPS[step["op"]]
    kwargs = {k: Ref(v) if spec.kwargs.get(k) == NUMBER_OR_NAME and isinstance(v, str) else v
              for k, v in step.get("kwargs", {}).items()}
    return spell(dialect, step["op"], [ref(a) for a in step["args"]], kwargs)
