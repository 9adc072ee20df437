"""Arguments each framework refuses, with its exception type and words."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def register_buffer_refusals(paddle):
    """register_buffer's checks, in paddle's order and words: a dotted name, an empty one, a
    name an attribute holds, a value that is no tensor."""
    m = paddle.nn.Layer()
    m.weight_like = 3
    return [attempt(lambda: m.register_buffer("a.b", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("weight_like", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("b", [1.0])),
            list(m.state_dict().keys())]


@program
def optimizer_and_lr_scheduler_arguments_are_refused_as_paddle_does(paddle):
    """The argument errors of paddle.optimizer.lr's schedulers and of minimize, with paddle's
    types and texts (ExponentialDecay's gamma is an assertion that shows no value)."""
    lr = paddle.optimizer.lr

    def minimize():
        leaf = paddle.to_tensor([1.0], stop_gradient=False)
        return paddle.optimizer.SGD(0.1, parameters=[leaf]).minimize(3)

    return [attempt(f) for f in (
        lambda: lr.StepDecay("a", 2), lambda: lr.StepDecay(0.1, 2.0),
        lambda: lr.StepDecay(0.1, 2, gamma=1.5), lambda: lr.MultiStepDecay(0.1, [3, 2]),
        lambda: lr.MultiStepDecay(0.1, [2, 3], gamma=1.5), lambda: lr.ExponentialDecay(0.1, gamma=1.5),
        lambda: lr.ExponentialDecay(0.1, gamma=0.0), lambda: lr.LambdaDecay(0.1, 3),
        lambda: lr.CosineAnnealingDecay(0.1, 2.5), minimize)]


@program
def jacobian_hessian_and_layer_arguments_are_refused_as_paddle_does(paddle):
    """The argument errors of paddle.autograd.jacobian / hessian, of the losses' reduction, of
    dropout's mode, of set_default_dtype and of a batch norm's input rank."""
    F = paddle.nn.functional

    def leaf(rows=None):
        return paddle.to_tensor([[1.0, 2.0, 3.0]] if rows else [1.0, 2.0, 3.0], stop_gradient=False)

    def hessian(ys_of, rows=None, **kwargs):
        x = leaf(rows)
        return paddle.autograd.hessian(ys_of(x), x, **kwargs)

    return [attempt(f) for f in (
        lambda: paddle.autograd.jacobian(leaf() * 2, leaf(), batch_axis=1),
        lambda: hessian(lambda x: x * 2), lambda: hessian(lambda x: (x * x).sum(), batch_axis="a"),
        lambda: hessian(lambda x: (x * x).sum(1), rows=1, batch_axis=1),
        lambda: hessian(lambda x: x * x, rows=1, batch_axis=0),
        lambda: F.l1_loss(leaf(), leaf(), reduction="avg"),
        lambda: F.binary_cross_entropy_with_logits(leaf(), leaf(), reduction="avg"),
        lambda: F.nll_loss(leaf(1), paddle.to_tensor([0]), reduction="avg"),
        lambda: F.dropout(leaf(), 0.5, mode="x"), lambda: paddle.set_default_dtype("int32"),
        lambda: paddle.nn.BatchNorm1D(3)(paddle.ones([1, 3, 2, 2])))]


@program
def concat_stack_and_add_n_of_no_tensors_are_refused(paddle):
    """An empty list: paddle's InvalidArgument naming the function and its argument."""
    return [attempt(lambda: paddle.concat([])), attempt(lambda: paddle.stack([])),
            attempt(lambda: paddle.add_n([])), paddle.concat([paddle.ones([1])])]


@program
def tensor_dropout_einsum_and_device_arguments_are_refused_as_paddle_does(paddle):
    """len() of a 0-D tensor, dropout's p outside [0, 1], einsum with more or fewer operands
    than the equation names, grad of None, set_value of another shape and a CUDA device on a
    CPU build: each in paddle's type and words, which differ from torch's."""
    x = paddle.ones([2, 3])
    x.stop_gradient = False
    return [attempt(lambda: len(paddle.to_tensor(1.0))),
            attempt(lambda: paddle.nn.functional.dropout(x, p=1.5)),
            attempt(lambda: paddle.nn.Dropout(p=-0.5)(x)),
            attempt(lambda: paddle.einsum("ij,jk", x)),
            attempt(lambda: paddle.einsum("ij", x, x)),
            attempt(lambda: paddle.grad(None, x)),
            attempt(lambda: paddle.grad(x.sum(), None)),
            attempt(lambda: paddle.create_parameter(
                [2, 2], "float32", default_initializer=paddle.nn.initializer.Constant(1.0)
            ).set_value(paddle.ones([3]).numpy())),
            attempt(lambda: paddle.set_device("gpu")),
            len(x)]


@program
def functional_arithmetic_takes_tensors_only(paddle):
    """paddle.add / subtract / multiply / divide / maximum / minimum / matmul refuse a number in
    either place (x + 1 takes one, add(x, 1) does not), naming the argument and the type (None
    as None); pow takes a number exponent only, and names elementwise_pow for a tensor one; an
    operator refuses an operand that is no number in its own TypeError, naming paddle's method
    (__div__ for /)."""
    p = paddle.ones([2])
    made = [paddle.pow(p, 2), paddle.add(x=p, y=p), p + 1, 2.0 * p]
    refused = [lambda: paddle.add(p, 2), lambda: paddle.add(None, p), lambda: paddle.add(p, "a"),
               lambda: paddle.multiply(2.0, p), lambda: paddle.divide(p, 2), lambda: paddle.subtract(1, 2),
               lambda: paddle.pow(2.0, p), lambda: paddle.pow(2, 3), lambda: paddle.maximum(1, 2),
               lambda: paddle.minimum(p, None), lambda: paddle.matmul(p, 2), lambda: paddle.matmul(1, 2),
               lambda: paddle.exp(None), lambda: paddle.exp([1.0]), lambda: paddle.sum(2),
               lambda: p * None, lambda: p + [1.0, 2.0], lambda: None + p, lambda: None - p,
               lambda: p / None, lambda: None / p, lambda: p ** None, lambda: None ** p,
               lambda: p @ None, lambda: p + {}]
    return [(m, str(m.dtype)) for m in made] + [attempt(f) for f in refused]


@program
def slicing_and_writing_a_tensor_of_rank_seven_are_refused(paddle):
    """paddle's slice and set_value kernels take rank 6 at most: reads through integers and
    slices, and writes through any index but lists alone, are refused at rank 7 (an index out
    of range first); a read that selects everything, or only adds dims, runs no kernel."""
    x = paddle.zeros([2] * 7)
    reads = [0, slice(0, 1), (slice(None), 0), [0, 0], None, (Ellipsis, 0), -1, slice(None),
             ([0, 1], 0), 5]
    seen = [attempt(lambda i=i: x[i].shape) for i in reads]
    for i in reads:
        seen.append(attempt(lambda i=i: x.__setitem__(i, 1.0)))
        seen.append(x.inplace_version)
    seen.append(attempt(lambda: x.__setitem__(0, paddle.ones([2] * 6))))
    six = paddle.zeros([2] * 6)
    seen += [six[None, 0].shape, attempt(lambda: six.__setitem__((None, 0), 2.0)), six.sum()]
    y = paddle.zeros([2] * 7)
    y.stop_gradient = False
    seen.append(attempt(lambda: y.__setitem__(0, 1.0)))  # the leaf's error first
    return seen
