"""What one run of a case observed: an ordered list of JSON-ready observations.

An observation is a dict with ``step`` (the step's index, ``"3.1"`` inside a block) and
``kind``: ``tensor`` (dtype, shape, values, requires_grad, has_grad_fn), ``array`` (a gradient
handed out as a numpy array), ``equal`` (whether two tensors are equal), ``none``, ``flags``,
``list`` (the results of a grad step), ``error`` (class, normalised category, raw message),
``warning``, ``unsupported`` (the dialect has no such step), ``undefined`` (the framework's
own result is undefined behaviour; the reference refuses to guess) or ``state`` (after each
autograd step, at ``3.after``, and at the end, at ``N.end``: the named tensors whose
``STATE_FIELDS`` changed since the last state observation, each a list of those fields).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

import numpy as np

from reference_engine.rounding import NOISE_EPSILONS

# Error categories: a message pattern (either dialect) -> the neutral category compared.
ERROR_CATEGORIES: tuple[tuple[str, str], ...] = (
    (r"implicitly created only for", "implicit-seed"),
    (r"Mismatch in shape|Tensor shape not match", "seed-shape"),
    (r"got \d+ tensors and \d+ gradients|length of grad_(outputs|tensors) must be equal",
     "seed-count"),
    (r"gradients can be either Tensors or None|grad_outputs must be None|type of grad_tensor|"
     r"'grad_tensors' of paddle.autograd.backward is invalid|object is not iterable", "seed-type"),
    (r"backward through the graph a second time|TensorWrappers of .* do not exist", "freed-graph"),
    (r"appears to not have been used in the graph|input does not appear in the backward graph",
     "unused-input"),
    (r"differentiated Tensors does not require grad", "input-no-grad"),
    (r"does not require grad and does not have a grad_fn", "output-no-grad"),
    (r"duplicate", "duplicate"),
    (r"cannot be empty", "empty-list"),
    (r"only_inputs=False|only_inputs argument is deprecated", "only-inputs"),
    (r"materialize_grads=True", "materialize-conflict"),
    (r"modified by an inplace operation", "version-counter"),
    (r"leaf Variable that requires grad|Leaf (Var|Tensor) .* can't use inplace", "leaf-in-place"),
    (r"leaf variable has been moved into the graph interior", "leaf-moved-into-graph"),
    (r"register a hook|register hook", "hook-no-grad"),
    (r"retain_grad on Tensor", "retain-no-grad"),
    (r"floating point .*can require gradients", "integer-requires-grad"),
    (r"Gradient accumulation of data type", "integer-accumulation"),
    (r"doesn't have any grad op", "no-double-grad"),
    (r"change requires_grad flags", "non-leaf-flag"),
    (r"retain_graph must be", "argument-type"),
    (r"size of tensor|Broadcast dimension mismatch|shapes cannot be multiplied|size mismatch|"
     r"inconsistent tensor size|dimension of Input|is invalid for input|ReshapeOp|expanded size|"
     r"must match|Sizes of tensors|Input dimension size should be", "shape"),
    (r"There is no grad op for inputs", "input-no-grad"),
    (r"Unable to fill empty grad inputs", "internal-error"),
    (r"Dimension out of range|dim index", "dim-range"),
    (r"unexpected keyword argument", "unexpected-keyword"),
    (r"\.grad attribute of a Tensor that is not a leaf", "non-leaf-grad-access"),
    (r"must be Tensor, (not NoneType|but got None)|'NoneType' object has no attribute", "none-operand"),
    (r"view was created in no_grad mode", "no-grad-view-in-place"),
    (r"detach views in-place", "detach-view"),
    (r"is deprecated", "deprecated"),
    (r"is_batched=False", "functional-batched"),
    (r"written-to tensor refers to a single memory location", "overlapping-write"),
    (r"input tensor and the written-to tensor refer to a single memory", "partial-overlap-write"),
    (r"incorrect number of gradients|number of outputs of `PyLayer.backward`", "custom-gradient-count"),
    (r"backward function should (return None|not return empty)", "custom-gradient-none"),
    (r"Type promotion only support", "type-promotion"),
    (r"type of data we are trying to retrieve|to have the same dtype", "dtype-mismatch"),
    (r"saved tensor that has been detached in-place", "saved-detached"),
    (r"function that returns multiple views", "multi-view-in-place"),
    (r"must be a matrix", "not-a-matrix"),
    (r"size of Holder is not enough", "unpacked-view-layout"),
    (r"doesn't match the broadcast shape|The shape of broadcast output", "in-place-broadcast"),
)


@functools.lru_cache(maxsize=4096)
def categorize(message: str) -> str:
    """The category of an error or warning message (the same few hundred messages recur)."""
    for pattern, category in ERROR_CATEGORIES:
        if re.search(pattern, message):
            return category
    return "other"


# what a ``state`` observation holds of each named tensor, in this order
STATE_FIELDS = ("dtype", "shape", "requires_grad", "is_leaf", "has_grad_fn", "version", "has_grad")


def full_states(observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The observations with every ``state`` one holding every named tensor: a trace records
    only the tensors whose state changed since the last one (a run's traces stay small); this
    replays them."""
    state: dict[str, Any] = {}
    out = []
    for o in observations:
        if o["kind"] == "state":
            state = {**state, **o["tensors"]}
            o = {**o, "tensors": state}
        out.append(o)
    return out


def printed(observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The observations a program prints: without the ``state`` ones the interpreter adds after
    autograd steps and at the end (they judge a backend against its reference; torch and paddle
    keep different version counters and flags on purpose)."""
    return [o for o in observations if o["kind"] != "state"]


def recategorize(observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give stored error and warning observations the current categories (older runs too)."""
    for o in observations or []:
        if o.get("kind") in ("error", "warning"):
            o["category"] = categorize(o["message"])
        elif o.get("kind") == "list":
            recategorize(o["items"])
    return observations


_CPP_STACK = re.compile(r"^\s*-+\s*C\+\+ Traceback.*?Error Message Summary:\s*-+\s*", re.S)
_SUMMARY_CLASS = re.compile(r"^(\w+)Error: ")
_HINT = re.compile(r"\s*\[Hint: .*$", re.S)
_AT_FILE = re.compile(r"\s*\(at [^)]*:\d+\)")
_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*?\)", re.S)
_PY_FRAMES = re.compile(r"\n[ \t]*At:\n(?:[ \t]+[^\n]*\(\d+\): [^\n]*(?:\n|$))*")
_ADDRESS = re.compile(r"\(0x[0-9a-fA-F]+\)")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:/[\w.+-]+)+\.(?:py|pyx|cc|cpp|cu|cuh|h|hpp)(?::\d+)?")
_GENERATED_NAME = re.compile(r"\b(?:generated_tensor|eager_tmp|tmp)_\d+\b"
                             r"|\b(?:create_parameter|linear)_\d+\.[wb]_\d+\b")


def hide_paths(text: str) -> str:
    """``text`` with file paths (of this machine's install, of a build) written ``<path>``."""
    return _PATH.sub("<path>", text)


def clean_message(message: str) -> str:
    """An error or warning text with the parts that vary by build, run and stack level removed.

    Stripped: paddle's C++ stack (``FLAGS_call_stack_level`` 1 and 2 print it, with the message
    repeated as ``XxxError: …``, which becomes paddle's level-0 form ``(Xxx) …``), its
    ``[Hint: …]`` tail and ``(at file:line)`` parts, the Python frames (``At:``) and object
    addresses of the errors it passes on from a program's code, torch's ``(Triggered internally at …)``,
    file paths, and generated tensor and parameter names (replaced by ``NAME``). What remains is the text the
    reference engine promises verbatim.
    """
    text = str(message)
    stack = _CPP_STACK.match(text)
    if stack:
        text = _SUMMARY_CLASS.sub(r"(\1) ", text[stack.end():])
    text = _HINT.sub("", text)
    text = _PY_FRAMES.sub("\n", text)
    text = _ADDRESS.sub("", text)
    text = _AT_FILE.sub("", text)
    text = _TRIGGERED.sub("", text)
    text = hide_paths(text)
    return _GENERATED_NAME.sub("NAME", text).strip()


def array_to_json(values: np.ndarray) -> Any:
    """Values as JSON: NaN and infinities as strings, so the trace stays strict JSON."""
    def conv(v: Any) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        return v
    flat = [conv(v) for v in values.reshape(-1).tolist()]
    return np.array(flat, dtype=object).reshape(values.shape).tolist() if values.ndim else flat[0]


def json_to_array(values: Any, dtype: str) -> np.ndarray:
    """The inverse of :func:`array_to_json` (numpy reads the strings "nan", "inf", "-inf")."""
    return np.array(values, dtype=dtype)


# A value the reference computed by cancelling larger ones carries their scale
# (``rounding_scale``, see reference_engine.rounding): a framework that sums in another order holds
# other rounding noise of up to NOISE_EPSILONS epsilons of that scale.
EPSILON = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23,
           "float64": 2.0 ** -52}


def rounding_gap(a: np.ndarray, b: np.ndarray) -> Optional[float]:
    """How far apart two float tensors of one shape are, in epsilons of their dtype times their
    largest magnitude: an ``equal`` that is False by a few of them turns on rounding, which each
    framework's own kernels decide. None where that does not apply (shapes or dtypes differ, or
    not floats)."""
    if a.shape != b.shape or a.dtype != b.dtype or a.dtype.kind != "f" or a.dtype.name not in EPSILON:
        return None
    x, y = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(x) & np.isfinite(y)
    if not finite.all() and not np.array_equal(x[~finite], y[~finite], equal_nan=True):
        return None
    scale = max(float(np.abs(x[finite]).max(initial=0.0)), float(np.abs(y[finite]).max(initial=0.0)))
    if scale == 0.0:
        return None
    return float(np.abs(x[finite] - y[finite]).max(initial=0.0) / (EPSILON[a.dtype.name] * scale))


def rounding_noise(observed: dict[str, Any], dtypes: Iterable[str] = ()) -> float:
    """How far rounding may move each value of a tensor observation that cancelled larger ones:
    0 where it noted no ``rounding_scale``; in the least precise of its dtype and ``dtypes``."""
    scale = observed.get("rounding_scale", 0.0)
    if not scale:
        return 0.0
    epsilon = max([EPSILON.get(d, 0.0) for d in (observed.get("dtype", ""), *dtypes)])
    return NOISE_EPSILONS * epsilon * scale


@dataclass
class Trace:
    """The observations of one case on one backend."""

    case_id: str
    backend: str
    observations: list[dict[str, Any]] = field(default_factory=list)

    def add(self, step: str, kind: str, **fields: Any) -> None:
        self.observations.append({"step": step, "kind": kind, **fields})
