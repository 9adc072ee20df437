"""Every torch op the facade provides, checked on torch's own sample inputs (the OpInfo
database torch's tests use: broadcasting, negative dims, empty and 0-d tensors, keyword forms).

For each sample the framework runs: the facade gives the same values and dtype, the same node
name, and the same first derivative (a vector-Jacobian product with a fixed cotangent); a sample
the framework refuses is refused with the same error class. A call form the facade refuses by
name (``NotModelledError``, or "does not model ...") is not compared: that is a stated gap, not
a wrong answer. An op listed in ``GAPS`` is a known wrong answer of the reference, kept failing
(strict xfail) until it is fixed.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest", reason="torch's OpInfo database needs expecttest (the test extra)")
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

# torch's test helpers freeze torch.backends' flags when imported (``disable_global_flags``);
# the other tests of this process set them as programs do, so they are thawed again (the flag
# lives in the namespace of torch.backends' functions)
torch.backends.flags_frozen.__globals__["__allow_nonbracketed_mutation_flag"] = True

import reference_engine.torch as ref  # noqa: E402
from reference_engine.messages import NotModelledError  # noqa: E402

# ops the reference answers wrongly on some of torch's samples, and how (fix them, then take
# them out: the strict xfail fails once an op agrees)
GAPS: dict[str, str] = {
    "cat": "a 1-d empty tensor among tensors of higher rank (torch's legacy skip) is refused",
    "gather": "an index of another rank than the input, and an empty input, fail in numpy",
    "index_select": "selecting from an empty dimension fails (a modulo by zero)",
    "masked_select": "a mask of more dimensions than the input (broadcast both ways) fails",
    "matmul": "products with an empty inner dimension fail to reshape",
    "nn.functional.batch_norm": "an input without spatial dims and no running statistics fails",
}
SAMPLES_PER_OP = 24


def _facade_call(op: Any) -> Any:
    """How to call ``op`` on the facade: its function (``torch.<name>``) where the OpInfo calls
    the function, else its method; None where the OpInfo wraps it in a lambda of its own."""
    function = op.op
    if isinstance(function, types.FunctionType) and function.__name__ == "<lambda>":
        if op.method_variant is None:
            return None
        name = op.name.split(".")[-1]
        return lambda x, *args, **kwargs: getattr(x, name)(*args, **kwargs)
    owner = ref
    for part in op.name.split("."):
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return owner


OPS = [op for op in op_db if not op.variant_test_name and op.supports_autograd]
PROVIDED = {op.name: (op, call) for op in OPS if (call := _facade_call(op)) is not None}


def _to_facade(value: Any) -> Any:
    if isinstance(value, torch.Tensor) and value.dtype == torch.bfloat16:  # numpy has none of torch's
        values = value.detach().float().numpy()
        return ref.tensor(values, dtype=ref.bfloat16, requires_grad=value.requires_grad)
    if isinstance(value, torch.Tensor):
        return ref.tensor(value.detach().numpy().copy(), requires_grad=value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_to_facade(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_facade(v) for k, v in value.items()}
    if isinstance(value, torch.dtype):
        return getattr(ref, str(value).split(".")[-1])
    return value


def _refused_by_name(error: Exception) -> bool:
    return isinstance(error, NotModelledError) or (
        isinstance(error, NotImplementedError) and "does not model" in str(error))


def _values(t: Any) -> np.ndarray:
    """The values in float64 (numpy has no bfloat16 of torch's)."""
    if isinstance(t, torch.Tensor):
        return t.detach().to(torch.float64).numpy(force=True)
    return np.asarray(t.detach().numpy(force=True)).astype(np.float64)


def _compare(op: Any, call: Any, sample: Any) -> str:
    """What differs for one sample ("" when nothing does)."""
    args = (sample.input, *sample.args)
    try:
        expected = op.op(*args, **sample.kwargs)
    except Exception as error:  # noqa: BLE001 - the framework's refusal is what is compared
        try:
            call(*_to_facade(args), **_to_facade(sample.kwargs))
        except Exception as ours:  # noqa: BLE001
            if _refused_by_name(ours) or type(ours).__name__ == type(error).__name__:
                return ""
            return f"error: torch {type(error).__name__}, reference {type(ours).__name__}: {ours}"
        return f"torch refuses ({type(error).__name__}: {error}), the reference does not"
    if not isinstance(expected, torch.Tensor):
        return ""
    inputs = _to_facade(args)
    try:
        got = call(*inputs, **_to_facade(sample.kwargs))
    except Exception as error:  # noqa: BLE001
        return "" if _refused_by_name(error) else f"error: {type(error).__name__}: {error}"
    if str(got.dtype).split(".")[-1] != str(expected.dtype).split(".")[-1]:
        return f"dtype {got.dtype} vs {expected.dtype}"
    if got.shape != expected.shape or not np.allclose(_values(got), _values(expected), rtol=1e-7, atol=1e-7,
                                                      equal_nan=True):
        return f"values (shape {tuple(got.shape)} vs {tuple(expected.shape)})"
    if expected.grad_fn is not None and got.grad_fn is not None and \
            expected.grad_fn.name() != got.grad_fn.name():
        return f"node {got.grad_fn.name()} vs {expected.grad_fn.name()}"
    # the first derivative in the sample's input (some samples make another operand the one
    # that requires grad)
    differentiable = isinstance(sample.input, torch.Tensor) and sample.input.requires_grad and \
        expected.requires_grad
    if not differentiable or not expected.numel():
        return ""
    cotangent = torch.linspace(-1.0, 1.0, expected.numel(), dtype=expected.dtype).reshape(expected.shape)
    theirs = torch.autograd.grad(expected, sample.input, cotangent, allow_unused=True)[0]
    try:
        ours = ref.autograd.grad(got, inputs[0], _to_facade(cotangent), allow_unused=True)[0]
    except Exception as error:  # noqa: BLE001
        return "" if _refused_by_name(error) else f"gradient error: {type(error).__name__}: {error}"
    if (theirs is None) != (ours is None) or (theirs is not None and not np.allclose(
            _values(ours), _values(theirs), rtol=1e-6, atol=1e-7, equal_nan=True)):
        return "first derivative"
    return ""


@pytest.mark.parametrize("name", sorted(PROVIDED))
def test_the_facade_agrees_with_torch_on_its_own_samples(name, request):
    if name in GAPS:
        request.applymarker(pytest.mark.xfail(reason=GAPS[name], strict=True))
    op, call = PROVIDED[name]
    differences = []
    for index, sample in enumerate(op.sample_inputs("cpu", torch.float64, requires_grad=True)):
        if index >= SAMPLES_PER_OP:
            break
        difference = _compare(op, call, sample)
        if difference:
            differences.append(f"sample {index} ({sample.summary() if hasattr(sample, 'summary') else ''}): "
                               f"{difference}")
    assert differences == []


def test_the_database_reaches_most_of_the_facade():
    """The check means something only while it reaches ops: most of torch's OpInfo ops that the
    facade has are checked (a lambda-only form without a method is the one reason to skip)."""
    assert len(PROVIDED) >= 120
