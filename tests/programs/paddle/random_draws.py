"""Seeded draws: paddle's CPU generator reproduced, so a seeded program draws paddle's numbers."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def seeded_draws_are_paddles_own(paddle):
    """rand, randn (an odd count drops the polar method's spare value), uniform (in [0, 1) by
    default), normal,
    randint (a range past 2^20 included), randperm of an even and an odd length, both float
    dtypes, and a reseed."""
    paddle.seed(0)
    drawn = [paddle.randn([3]), paddle.rand([2]), paddle.randint(0, 10, [3]),
             paddle.randint(-5, 1000003, [4]), paddle.randperm(6), paddle.randperm(7), paddle.randn([37]),
             paddle.randn([2, 3], dtype="float64"), paddle.rand([5], dtype="float64"),
             paddle.uniform([3], min=-2.0, max=2.0), paddle.uniform([3]), paddle.normal(1.0, 2.0, [5])]
    paddle.seed(0)
    drawn.append(paddle.randn([1]))
    paddle.seed(12345)
    drawn.append(paddle.rand([3]))
    return drawn


@program
def initial_weights_are_paddles_own(paddle):
    """Layers' default initialisation and the initializers, in order: Linear (Xavier uniform),
    Conv2D (normal), Embedding, LSTM, Kaiming and Xavier normal, Normal, Uniform and truncated
    normal (a uniform draw through the inverse distribution between its bounds)."""
    paddle.seed(3)
    linear, conv = paddle.nn.Linear(3, 2), paddle.nn.Conv2D(1, 2, 2)
    embedding, lstm = paddle.nn.Embedding(4, 5), paddle.nn.LSTM(2, 3)
    init = paddle.nn.initializer
    made = [paddle.create_parameter([2, 3], "float32", default_initializer=scheme)
            for scheme in (init.KaimingNormal(), init.XavierNormal(), init.Normal(0.0, 0.5),
                           init.Uniform(-0.5, 0.5), init.KaimingUniform(), init.TruncatedNormal(0.0, 0.5),
                           init.TruncatedNormal(1.0, 2.0, a=-1.0, b=2.5))]
    return [linear.weight, linear.bias, conv.weight, conv.bias, embedding.weight, list(lstm.parameters()),
            *made]


@program
def dropout_and_loaders_draw_as_paddle_does(paddle):
    """Dropout's mask (and its gradient); a shuffled loader's order comes from numpy's global
    generator, random_split's from paddle's randperm."""
    import numpy as np

    paddle.seed(4)
    x = paddle.ones([12])
    x.stop_gradient = False
    dropped = paddle.nn.functional.dropout(x, 0.3)
    dropped.sum().backward()
    np.random.seed(3)
    data = paddle.io.TensorDataset([paddle.arange(10, dtype="float32")])
    batches = [b for (b,) in paddle.io.DataLoader(data, batch_size=4, shuffle=True)]
    first, second = paddle.io.random_split(range(10), [3, 7])
    return [dropped, x.grad, paddle.nn.Dropout(0.5)(paddle.ones([3, 4])), *batches, list(first), list(second),
            paddle.rand([2])]


@program
def an_initializer_given_by_param_attr_draws_instead_of_the_default(paddle):
    """A layer whose weight attribute names an initializer draws only that initializer's
    numbers (the default's are never drawn): the draws after the layers show it; Orthogonal
    is the QR of normal draws, signs fixed by R's diagonal."""
    paddle.seed(0)
    init = paddle.nn.initializer
    seen = []
    for shape, gain in (([3, 5], 1.0), ([4, 2], 2.0), ([2, 3, 2], 1.0)):
        seen.append(paddle.create_parameter(shape, "float32", default_initializer=init.Orthogonal(gain)))
    layers = [paddle.nn.Linear(4, 3, weight_attr=paddle.ParamAttr(initializer=init.Orthogonal())),
              paddle.nn.Linear(2, 2, weight_attr=init.Normal(0.0, 0.5), bias_attr=init.Uniform(-0.1, 0.1)),
              paddle.nn.Conv1D(2, 2, 2, weight_attr=init.Constant(0.5)),
              paddle.nn.Embedding(3, 2, weight_attr=init.Normal(0.0, 2.0)),
              paddle.nn.LSTMCell(2, 2, weight_ih_attr=init.Constant(0.1)),
              paddle.nn.GRU(2, 2, weight_hh_attr=init.Normal(0.0, 0.1))]
    seen += [[p for p in layer.parameters()] for layer in layers]
    seen.append(paddle.create_parameter([2], "float32", attr=paddle.ParamAttr(initializer=init.Normal())))
    return seen + [paddle.rand([3]), init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("tanh"),
                   attempt(lambda: init.calculate_gain("swish"))]


@program
def nn_init_writes_paddles_draws_in_place(paddle):
    """paddle.nn.init's functions write their initializer's values into a parameter or a plain
    tensor in place and return None: constants, normal, uniform, truncated normal, He's and
    Glorot's schemes (fans of a matrix and of a convolution's weight, both modes, the gains of
    calculate_gain) and orthogonal, drawn by paddle's seeded generator; numpy() copies."""
    paddle.seed(3)
    init = paddle.nn.init
    linear, conv = paddle.nn.Linear(3, 4), paddle.nn.Conv2D(2, 3, 2)
    seen = []
    for weight in (linear.weight, conv.weight):
        for name, args in (("zeros_", ()), ("ones_", ()), ("constant_", (0.5,)), ("normal_", (0.0, 2.0)),
                           ("uniform_", (-1.0, 1.0)), ("kaiming_normal_", ()),
                           ("kaiming_normal_", (0.0, "fan_out", "tanh")),
                           ("kaiming_uniform_", (0.1, "fan_out", "relu")), ("xavier_uniform_", ()),
                           ("xavier_normal_", (2.0,)), ("xavier_uniform_", (1.0, 5.0, 7.0)),
                           ("trunc_normal_", (0.0, 0.5)), ("trunc_normal_", (1.0, 2.0, 0.0, 1.5)),
                           ("orthogonal_", (0.5,))):
            seen += [getattr(init, name)(weight, *args), weight.numpy()]
    plain = paddle.ones([2, 3])
    seen += [init.zeros_(plain), plain, init.calculate_gain("tanh"), init.calculate_gain("leaky_relu", 0.2)]
    values = plain.numpy()  # a copy: neither a write to the tensor nor one to the array reaches the other
    plain.add_(paddle.ones([2, 3]))
    values[0, 0] = 5.0
    return seen + [values, plain]
