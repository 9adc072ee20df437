"""Dtypes: what stays float32 or float64, promotion, numpy operands, integer tensors refused."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def integer_tensors_refused(torch):
    def setter():
        t = torch.tensor([1, 2])
        t.requires_grad = True
    return [attempt(lambda: torch.tensor([1, 2], requires_grad=True)),
            attempt(lambda: torch.tensor([1, 2]).requires_grad_()), attempt(setter)]


@program
def float64_stays_float64(torch):
    x = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
    y = (x.exp() * 3 + x.sin()).sum()
    y.backward()
    mixed = torch.tensor([1.0, 2.0], requires_grad=True) * torch.tensor(2.0, dtype=torch.float64)
    return [y, x.grad, mixed, torch.tensor([1, 2]) * 1.5, torch.tensor([1, 2]) / 2]


@program
def numpy_scalars_on_the_left_keep_autograd(torch):
    """``np.float64(2.0) * t`` is a tensor of t's dtype that requires grad, as a Python number
    on the left would give; a numpy array on the left is refused."""
    import numpy as np

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    made = [np.float64(2.0) * x, np.float32(1.5) + x, np.int64(3) - x, np.float64(2.0) / x,
            np.float64(2.0) ** x]
    sum(m.sum() for m in made).backward()
    refused = [attempt(lambda: np.array([2.0, 3.0]) * x), attempt(lambda: np.array([2.0, 3.0]) - x)]
    return [*made, x.grad, refused]


@program
def constructors_take_numpy_scalars_arrays_and_tensors(torch):
    """torch.tensor of numpy scalars, a list of numpy arrays or of tensors: each element's own
    dtype counts (a Python float is the default float); ``to(other)`` takes other's dtype and
    records the cast."""
    import numpy as np

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    moved = x.to(torch.tensor([1, 2], dtype=torch.float64))
    moved.sum().backward()
    return [torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
            torch.tensor([np.float32(1.0), np.float64(2.0)]), torch.tensor([1.0, np.float32(2.0)]),
            torch.tensor([np.int32(1), 2]), torch.tensor(np.float64(2.5)),
            torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]), moved, x.grad,
            x.to(torch.tensor(1.0)) is x]


@program
def float32_stays_float32(torch):
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = (x.exp() / 3).sum()
    y.backward()
    return [y, x.grad]


@program
def a_matrix_product_of_two_dtypes_is_refused(torch):
    """matmul, mm, mv, dot and bmm refuse operands of different dtypes, with the message of the
    kernel the form runs (dot's before its sizes are checked, the others' after)."""
    def ones(*shape, dtype=torch.float32):
        return torch.ones(*shape, dtype=dtype)
    f64, i64 = torch.float64, torch.int64
    return [attempt(fn) for fn in (
        lambda: torch.mm(ones(2, 3), ones(3, 2, dtype=f64)),
        lambda: ones(3) @ ones(3, 2, dtype=f64),
        lambda: torch.matmul(ones(2, 3, dtype=f64), ones(3)),
        lambda: torch.mv(ones(2, 3), ones(3, dtype=f64)),
        lambda: torch.dot(ones(3, dtype=f64), ones(2)),
        lambda: torch.matmul(ones(3), ones(2, 3, 2, dtype=f64)),
        lambda: torch.matmul(ones(2, 2, 3), ones(3, dtype=f64)),
        lambda: torch.matmul(ones(2, 2, 3, dtype=f64), ones(3, 2)),
        lambda: torch.matmul(ones(2, 1, 2, 3), ones(3, 3, 2, dtype=f64)),
        lambda: torch.bmm(ones(1, 2, 3, dtype=f64), ones(1, 3, 2)),
        lambda: torch.mm(ones(2, 3, dtype=i64), ones(3, 2)),
        lambda: torch.mm(ones(2, 3), ones(2, 2, dtype=f64)),
        lambda: torch.matmul(ones(2, 3, dtype=i64), ones(3, dtype=i64)))]


@program
def a_float64_default_dtype(torch):
    """``set_default_dtype(torch.float64)``: Python floats, float constructors, integer true
    division and a float number times an integer tensor make float64; a float32 tensor stays
    float32; only float dtypes may be the default."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        made = [str(torch.get_default_dtype()), x, x.grad, torch.ones(2), torch.zeros(2, 3),
                torch.arange(3.0), torch.arange(3), torch.linspace(0, 1, 3), torch.tensor(1),
                torch.Tensor([1, 2]), torch.tensor([1, 2]) / torch.tensor([2, 2]),
                torch.tensor([1, 2]) * 1.5, torch.tensor([1.0], dtype=torch.float32) * 1.5,
                str(torch.empty(2).dtype), attempt(lambda: torch.set_default_dtype(torch.int64))]
    finally:
        torch.set_default_dtype(before)
    return made + [str(torch.get_default_dtype()), torch.tensor([1.0])]


@program
def narrow_integer_dtypes(torch):
    """torch.uint8, int8 and int16 (and short / char / byte): printing, promotion with each
    other, with numbers and with floats, sums and products as int64, wraparound of arithmetic
    and of numbers beyond the range, casts from floats (truncated), and a uint8 index read as
    a mask with its deprecation warning."""
    import warnings

    a = torch.tensor([1, 2, 250], dtype=torch.uint8)
    b = torch.tensor([-1, 2, 3], dtype=torch.int8)
    c = torch.tensor([100, 200, 300], dtype=torch.int16)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        masked = torch.tensor([1.0, 2.0, 3.0])[torch.tensor([1, 0, 1], dtype=torch.uint8)]
    return [repr(a), repr(b), repr(c), a + 10, a + b, a * 1.5, b + c, a.sum(), b.prod(), c.max(),
            a > 5, a // 7, a % 7, a - 250, a * a, torch.ones(2, dtype=torch.int16) * 40000,
            torch.arange(5).byte(), torch.arange(5).char(), torch.arange(5).short(),
            torch.tensor([1.7, -2.5]).to(torch.int8), a.float(), str(torch.short), masked,
            [str(w.message).split(" (Triggered")[0] for w in caught]]


@program
def kernels_without_a_bool_version_refuse_bool_tensors(torch):
    """argmax / argmin, abs and topk have no bool kernel in torch: each refuses a bool tensor
    with its own error; max and sort take one."""

    t = torch.tensor([True, False, True])
    return [attempt(lambda: torch.argmax(t)), attempt(lambda: t.argmin(0)), attempt(lambda: t.abs()),
            attempt(lambda: abs(t)), attempt(lambda: torch.topk(t, 1)), t.max(0), torch.sort(t)]


@program
def a_number_beyond_an_integer_dtype_wraps_around(torch):
    """A Python int beyond an integer tensor's range in an operation wraps around in torch;
    beyond what a 64-bit integer holds it is refused."""
    a = torch.tensor([1, 2], dtype=torch.int32)
    return [a + 2 ** 40, a * 3000000000, torch.tensor([1]) + 2 ** 63, attempt(lambda: a + 2 ** 70)]


@program
def a_promoted_expanded_operand_keeps_its_layout(torch):
    """The fuzz-found program (seed 933532639548370881): float64 times an expanded float32
    operand is laid out from the operands' strides as they are (the expansion's zero strides
    included), so the product is contiguous and its reshape under no_grad is a view that
    requires grad, as torch's."""
    x = torch.tensor([[[0.5, 1.0, 2.0]]], requires_grad=True)
    expanded = x.expand(2, 3, 3)
    product = x.to(torch.float64) * expanded
    with torch.no_grad():
        viewed = product.reshape(18, 1)
    mixed = torch.ones(1, 1, 3, dtype=torch.float64) * torch.ones(1, 1, 3).expand(2, 3, 3)
    return [product.stride(), product.is_contiguous(), viewed.requires_grad, viewed.is_leaf,
            viewed._base is product, mixed.stride()]
