"""Tensors made from Python data and dtype arguments: the dtype torch infers, and the errors of
each step it refuses data at (sizes, dtype inference, store)."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


class _Opaque:
    """An object of a class defined in Python: torch names it by its bare class name."""


@program
def data_torch_tensor_cannot_infer_a_dtype_for(torch):
    """torch.tensor infers a dtype from every element: an object, None or a dict anywhere is a
    RuntimeError naming its type, a string anywhere a TypeError (a string first in a list never
    ends as a sequence: "too many dimensions")."""
    import numpy as np

    bad = [object(), [1.0, object()], [[1.0], [object()]], None, [None], {}, [[1.0], None],
           _Opaque(), [np.float64(1), object()], "a", "", ["a"], [1.0, "a"], [[1.0], "ab"]]
    return [attempt(lambda data=data: torch.tensor(data)) for data in bad]


@program
def data_stored_against_the_sizes_of_the_first_elements(torch):
    """Sizes come from the first element at each depth; every other element is checked against
    them when stored: a shorter or longer list, a number where a list belongs ("not a
    sequence"), a list where a number belongs, a tensor of several elements where a number
    belongs. An empty result is not stored, so it takes any later elements."""
    import numpy as np

    bad = [[[1.0], [2.0, 3.0]], [[1.0], 2.0], [1.0, [2.0]], [[1.0], []], [[1.0], [2.0], 3.0],
           [torch.ones(2), torch.ones(2)], [torch.ones(2), torch.ones(3)], [[1.0, 2.0], np.ones(3)]]
    made = [torch.tensor([[], [], [1.0]]), torch.tensor([[], []]), torch.tensor(()),
            torch.tensor([[1.0, 2.0], torch.ones(2)]), torch.tensor([torch.ones(()), 2.0]),
            torch.tensor(range(3)), torch.tensor((1, 2.0)), torch.tensor([1, np.float32(2)]),
            torch.tensor([1, 2.5, True])]
    return [attempt(lambda data=data: torch.tensor(data)) for data in bad] + \
        [(t, str(t.dtype), tuple(t.shape)) for t in made]


@program
def data_with_a_dtype_is_stored_without_inference(torch):
    """torch.tensor with a dtype skips inference: an element that is no number is refused
    where it is stored, as a real number for float dtypes and as an integer for the others."""
    return [attempt(lambda: torch.tensor([1.0, object()], dtype=torch.float32)),
            attempt(lambda: torch.tensor([1, object()], dtype=torch.int64)),
            attempt(lambda: torch.tensor([True, object()], dtype=torch.bool)),
            attempt(lambda: torch.tensor(object(), dtype=torch.float32)),
            torch.tensor([1, 2.5], dtype=torch.int64)]


@program
def data_the_tensor_class_takes(torch):
    """torch.Tensor(data) wants a sequence (a number, None or an object is refused naming its
    type; an int is a size), stores without inferring (so an object inside a list is "must be
    real number") and always makes the default float."""
    import numpy as np

    bad = [object(), None, 2.0, True, _Opaque(), np.float64(2.0), "a", [1.0, object()], [1, None],
           (1, "a"), [[1.0], [2.0], 3.0], [[1.0], []], [[1.0], [2.0, 3.0]]]
    made = [torch.Tensor(range(3)), torch.Tensor([[1], [2]]),
            torch.Tensor(np.ones(2)), torch.Tensor([True, 2])]
    sized = torch.Tensor(1, 2)  # uninitialised values: only its shape and dtype are torch's
    return [attempt(lambda data=data: torch.Tensor(data)) for data in bad] + \
        [(t, str(t.dtype), tuple(t.shape)) for t in made] + [str(sized.dtype), tuple(sized.shape)]


@program
def dtype_arguments_python_types_and_refusals(torch):
    """A dtype argument takes a torch dtype or a Python type standing for one (float is
    float64); a string or a numpy type is refused in the argument parser's words, naming the
    function. set_default_dtype takes float dtypes only, and says so differently for an object
    that is no dtype at all."""
    import numpy as np

    x = torch.ones(2)
    made = [torch.ones(2, dtype=float), torch.ones(2, dtype=bool), torch.zeros(2, dtype=int),
            torch.tensor([1.5], dtype=int), x.to(int), x.to(float), torch.full((2,), 1, dtype=float)]
    refused = [lambda: torch.ones(2, dtype="float32"), lambda: torch.zeros(2, dtype=np.float32),
               lambda: torch.tensor([1.0], dtype=3), lambda: torch.full((2,), 1.0, dtype="float32"),
               lambda: torch.empty(2, dtype="x"), lambda: torch.ones_like(x, dtype="x"),
               lambda: torch.zeros_like(x, dtype="x"),
               lambda: torch.set_default_dtype(torch.int64), lambda: torch.set_default_dtype("x"),
               lambda: torch.set_default_dtype(float)]
    return [(t, str(t.dtype)) for t in made] + [attempt(f) for f in refused] + [len(x),
            attempt(lambda: len(torch.tensor(1.0))), attempt(lambda: torch.mm(x, torch.ones(2, 2))),
            attempt(lambda: torch.mm(torch.ones(2, 2), x)),
            attempt(lambda: torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2)))]
@program
def legacy_tensor_types(torch):
    """torch.FloatTensor / LongTensor / ... from data, from sizes and empty; isinstance asks
    for the dtype; Tensor.type casts to one (by the class or its name) and names the type."""
    x = torch.tensor([[1.5, -2.0], [3.0, 4.0]], requires_grad=True)
    made = [torch.FloatTensor([1, 2]), torch.LongTensor([1.7, 2]), torch.DoubleTensor((2, 3)),
            torch.IntTensor([1.5]), torch.BoolTensor([1, 0]), torch.FloatTensor(2, 3).shape,
            torch.FloatTensor(torch.Size([2])).shape, torch.FloatTensor().shape]
    checks = [isinstance(x, torch.FloatTensor), isinstance(x, torch.DoubleTensor),
              isinstance(torch.ones(1, dtype=torch.long), torch.LongTensor), repr(torch.FloatTensor)]
    cast = [x.type(torch.FloatTensor) is x, x.type(torch.DoubleTensor), x.type("torch.DoubleTensor"),
            x.type(torch.LongTensor), x.type(), x.type(torch.DoubleTensor).type()]
    (x.type(torch.DoubleTensor) * 2).sum().backward()
    return made + checks + cast + [x.grad]


@program
def backend_flags(torch):
    """torch.backends' flags keep what a program sets (their values before depend on what ran
    in the process: torch's own test helpers set some); no cuDNN nor Apple GPU on a CPU build."""
    before = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    seen = []
    for value in (True, False):
        torch.backends.cudnn.deterministic = value
        torch.backends.cudnn.benchmark = not value
        seen += [torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark]
    torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = before
    return seen + [torch.backends.cudnn.is_available(), torch.backends.mps.is_available()]


@program
def unique_values_inverse_and_counts(torch):
    """torch.unique / Tensor.unique: sorted values (sorted=False sorts too on the CPU), the
    inverse and counts, along a dim; recorded, but its derivative raises."""
    x = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 1.0]], requires_grad=True)
    u = torch.unique(x, dim=0)
    v = x.unique()
    return [u, u.grad_fn.name(), v, v.grad_fn.name(),
            torch.unique(x, return_inverse=True, return_counts=True),
            torch.unique(x, return_inverse=True, dim=0),
            torch.unique(torch.tensor([3, 1, 2, 3]), sorted=False),
            torch.unique(torch.tensor(3.0)), torch.unique(torch.tensor([True, False, True])),
            attempt(lambda: u.sum().backward()), attempt(lambda: v.sum().backward())]


@program
def random_fills_in_place(torch):
    """normal_ / uniform_ write in place (NormalBackward0 / UniformBackward0, no gradient to
    what was there), refuse a leaf that requires grad; multinomial draws indices. Values differ
    between generators: shapes, dtypes and nodes are compared."""
    y = torch.ones(2, 3, requires_grad=True) * 1
    z = torch.ones(3, requires_grad=True) * 1
    y.normal_(2.0, 0.5)
    z.uniform_(-1.0, 1.0)
    (y.sum() + z.sum()).backward()
    drawn = torch.multinomial(torch.tensor([[0.2, 0.8], [0.5, 0.5]]), 4, replacement=True)
    fresh = torch.zeros(4).uniform_(2.0, 3.0)
    return [y.shape, y.grad_fn.name(), z.grad_fn.name(), str(y.dtype),
            bool(((fresh >= 2) & (fresh < 3)).all()), drawn.shape, str(drawn.dtype),
            bool(((drawn == 0) | (drawn == 1)).all()), ~torch.tensor([True, False]),
            torch.tensor([1, 6]) ^ torch.tensor([3, 3]), attempt(lambda: torch.ones(1) & torch.ones(1)),
            attempt(lambda: torch.ones(2, requires_grad=True).normal_()),
            attempt(lambda: torch.multinomial(torch.tensor([0.2, 0.8]), 3))]
