"""Small training programs as users write them: modules, optimizers, schedulers and loops."""

from __future__ import annotations

import uuid

import numpy as np

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def what_real_programs_need_on_the_way(paddle):
    """Device boilerplate, the .grad setter, Tensor.gradient() and paddle.base.dygraph.grad."""
    place = paddle.set_device("cpu")
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = x.gradient()
    held = paddle.to_tensor([5.0, 5.0])
    x.grad = held
    held.scale_(2.0)
    assigned = x.grad
    (x * x).sum().backward()
    z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (z * z).sum().backward()
    z.grad = paddle.to_tensor([7.0, 8.0])
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [assigned, z.grad, repr(place), paddle.is_compiled_with_cuda(), paddle.device.get_device(),
            attempt(lambda: paddle.set_device("gpu")), before, x.grad, x.gradient(), held,
            paddle.base.dygraph.grad((y * y).sum(), [y])]


@program
def a_training_loop_with_layers_and_sgd(paddle):
    """Layer / Linear / mse_loss / SGD: gradients accumulate per step and clear_grad zeroes
    them; the weights are set to equal values first."""
    import numpy as np

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = paddle.nn.Linear(3, 2)
            self.fc2 = paddle.nn.Linear(2, 1)

        def forward(self, x):
            return self.fc2(paddle.tanh(self.fc1(x)))

    net = Net()
    for p in net.parameters():
        size = int(np.prod(p.shape))
        p.set_value(paddle.to_tensor(np.linspace(-0.5, 0.5, size).reshape(p.shape)
                                     .astype("float32")))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    target = paddle.to_tensor([[1.0], [0.0]])
    seen = [[name for name, _ in net.named_parameters()], net.fc1.bias.stop_gradient]
    for _ in range(3):
        loss = paddle.nn.functional.mse_loss(net(x), target)
        loss.backward()
        opt.step()
        seen += [loss, net.fc1.weight.grad]
        opt.clear_grad()
    net.clear_gradients()
    return seen + [net.fc2.weight, net.fc2.bias.grad, loss.grad_fn.name()]


@program
def sequential_models_and_random_shapes(paddle):
    """nn.Sequential with activation layers (weights set to equal values), and what random
    tensors share with paddle's: shapes, dtypes and flags (not values)."""
    import numpy as np

    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 1),
                               paddle.nn.Tanh())
    for p in net.parameters():
        size = int(np.prod(p.shape))
        p.set_value(paddle.to_tensor(np.linspace(-0.7, 0.9, size).reshape(p.shape)
                                     .astype("float32")))
    x = paddle.to_tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]])
    net(x).sum().backward()
    noise = paddle.randn([2, 3])
    return [[name for name, _ in net.named_parameters()], len(net), type(net[1]).__name__,
            net[0].weight.grad, net[2].bias.grad, noise.shape, str(noise.dtype),
            noise.stop_gradient, paddle.rand([4]).shape]


@program
def a_regression_with_adam(paddle):
    """paddle.optimizer.Adam over a few steps (paddle's bias correction and epsilon)."""
    w = paddle.to_tensor([[0.2, -0.4], [0.1, 0.5], [0.3, -0.2]], stop_gradient=False)
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=[w])
    x = paddle.to_tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]])
    target = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    seen = []
    for _ in range(4):
        loss = paddle.nn.functional.mse_loss(paddle.matmul(x, w), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        seen += [loss, paddle.to_tensor(w.numpy())]
    return seen


@program
def classification_losses_and_linear(paddle):
    """nn.functional.cross_entropy / linear, the CrossEntropyLoss and MSELoss layers, and
    optimizer.minimize after a backward."""
    x = paddle.to_tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], stop_gradient=False)
    label = paddle.to_tensor([1, 2])
    loss = paddle.nn.functional.cross_entropy(x, label)
    loss.backward()
    w = paddle.to_tensor([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]], stop_gradient=False)
    out = paddle.nn.functional.linear(x, w, paddle.to_tensor([0.1, 0.2]))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w])
    mse = paddle.nn.MSELoss()(out, out.detach() * 0)
    mse.backward()
    refused = attempt(lambda: opt.minimize(None))
    opt.minimize(mse)
    return [loss, x.grad, paddle.nn.CrossEntropyLoss()(x, paddle.to_tensor([[1], [2]])),
            paddle.nn.functional.cross_entropy(x, label, reduction="sum"),
            paddle.nn.functional.cross_entropy(x, label, reduction="none"),
            paddle.nn.functional.cross_entropy(x, paddle.to_tensor([[0], [1]]), reduction="none"),
            out, w, refused]


@program
def momentum_carries_the_first_gradient_into_later_steps(paddle):
    """paddle.optimizer.Momentum, plain and Nesterov: the velocity starts at the first gradient;
    the updates do not bump the parameter's inplace version."""
    seen = []
    for nesterov in (False, True):
        p = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
        opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[p],
                                        use_nesterov=nesterov)
        for scale in (1.0, 2.0, 3.0):
            (p * p * scale).sum().backward()
            opt.step()
            opt.clear_grad()
            seen.append(p.numpy().tolist())
        seen.append(p.inplace_version)
    return seen


@program
def optimizers_over_several_steps(paddle):
    """SGD, Momentum (and Nesterov), Adam (float32 beta powers) and AdamW (decoupled decay)
    over six steps of one loss."""
    import numpy as np

    seen = []
    for name, settings in (("SGD", {"learning_rate": 0.1}),
                           ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
                           ("Momentum", {"learning_rate": 0.05, "momentum": 0.9,
                                         "use_nesterov": True}),
                           ("Adam", {"learning_rate": 0.1}),
                           ("Adam", {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.99}),
                           ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.1}),
                           ("AdamW", {"learning_rate": 0.1})):
        w = paddle.create_parameter([4], "float32", default_initializer=paddle.nn.initializer.Assign(
            np.array([0.5, -1.25, 2.0, 0.3], np.float32)))
        optimizer = getattr(paddle.optimizer, name)(parameters=[w], **settings)
        for _ in range(6):
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
            optimizer.clear_grad()
        seen.append(w.detach())
    return seen


@program
def optimizers_read_the_learning_rate_in_the_first_parameters_dtype(paddle):
    """Adam, AdamW and Momentum read the learning rate as a tensor of the first parameter's
    dtype (whether it has a gradient or not): a parameter of another dtype is refused when its
    turn comes, after those before it were updated. SGD takes a number. Every kernel refuses
    a gradient of another dtype than its parameter's."""
    seen = []
    for name in ("Adam", "AdamW", "Momentum", "SGD"):
        for order in ("wide first", "narrow first"):
            for wide_has_grad in (True, False):
                wide = paddle.to_tensor([[1.0, 2.0]], dtype="float64", stop_gradient=False)
                narrow = paddle.to_tensor([[0.5]], stop_gradient=False)
                loss = (narrow * 2).sum() + ((wide * 3).sum() if wide_has_grad else 0.0)
                loss.backward()
                params = [wide, narrow] if order == "wide first" else [narrow, wide]
                optimizer = getattr(paddle.optimizer, name)(learning_rate=0.5, parameters=params)
                seen.append([name, order, wide_has_grad, attempt(optimizer.step), wide, narrow])
    for name in ("SGD", "Momentum", "Adam"):  # a .grad in its float64 seed's dtype
        param = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
        paddle.autograd.backward([param], [paddle.to_tensor([[1.0, 1.0, 1.0]], dtype="float64")])
        optimizer = getattr(paddle.optimizer, name)(learning_rate=0.5, parameters=[param])
        seen.append([name, str(param.grad.dtype), attempt(optimizer.step), param])
    return seen


@program
def weight_decay_rmsprop_and_parameter_attributes(paddle):
    """An optimizer's weight_decay (a number is an L2Decay; L1Decay; applied after clipping),
    RMSProp (plain, with momentum, centred), a parameter's ParamAttr (its initializer, name,
    trainable flag, its own regularizer over the optimizer's, its learning-rate factor),
    PiecewiseDecay with get_lr, Layer.zero_grad and load_state_dict; the random initializers'
    shapes and dtypes."""
    start = np.array([0.5, -1.25, 2.0, 0.3], "float32")

    def trained(make, attr=None, steps=3):
        w = paddle.create_parameter([4], "float32", attr=attr,
                                    default_initializer=paddle.nn.initializer.Assign(start))
        optimizer = make([w])
        rates = []
        for _ in range(steps):
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
            optimizer.clear_grad()
            rates.append(optimizer.get_lr())
        return [w.numpy(), rates]

    seen = [trained(lambda p: paddle.optimizer.SGD(0.01, parameters=p, weight_decay=0.1)),
            trained(lambda p: paddle.optimizer.SGD(0.01, parameters=p,
                                                   weight_decay=paddle.regularizer.L1Decay(0.1))),
            trained(lambda p: paddle.optimizer.Momentum(0.01, parameters=p, weight_decay=0.1)),
            trained(lambda p: paddle.optimizer.Adam(0.01, parameters=p, weight_decay=0.1)),
            trained(lambda p: paddle.optimizer.SGD(0.01, parameters=p, weight_decay=0.1,
                                                   grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))),
            trained(lambda p: paddle.optimizer.RMSProp(0.01, parameters=p)),
            trained(lambda p: paddle.optimizer.RMSProp(0.01, momentum=0.9, centered=True, rho=0.9,
                                                       epsilon=1e-6, parameters=p, weight_decay=0.05)),
            trained(lambda p: paddle.optimizer.SGD(0.01, parameters=p, weight_decay=0.1),
                    paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(0.5), learning_rate=2.0)),
            trained(lambda p: paddle.optimizer.SGD(
                paddle.optimizer.lr.PiecewiseDecay([1, 2], [0.02, 0.01, 0.001]), parameters=p), steps=4)]
    chosen = f"w_{uuid.uuid4().hex}"  # paddle refuses a parameter name a process used before
    layer = paddle.nn.Linear(2, 3, weight_attr=paddle.ParamAttr(
        name=chosen, initializer=paddle.nn.initializer.Constant(0.5), trainable=False),
        bias_attr=paddle.framework.ParamAttr(initializer=paddle.nn.initializer.Assign([1.0, 2.0, 3.0])))
    out = layer(paddle.to_tensor([[1.0, 2.0]]))
    out.sum().backward()
    seen += [layer.weight.name == chosen, layer.weight.stop_gradient, layer.weight.numpy(),
             layer.bias.numpy(),
             layer.bias.grad, layer.weight.grad]
    layer.zero_grad()
    seen.append(layer.bias.grad)
    layer(paddle.to_tensor([[1.0, 2.0]])).sum().backward()
    layer.zero_grad(set_to_none=False)
    seen.append(layer.bias.grad)
    other = paddle.nn.Linear(2, 3)
    other.load_state_dict(layer.state_dict())
    seen.append(other.bias.numpy())
    for init in (paddle.nn.initializer.Normal(0.0, 0.02), paddle.nn.initializer.Uniform(-0.1, 0.1),
                 paddle.nn.initializer.KaimingNormal(), paddle.nn.initializer.XavierUniform(),
                 paddle.nn.initializer.TruncatedNormal(std=0.1)):
        made = paddle.create_parameter([3, 4], "float64", default_initializer=init)
        seen += [made.shape, str(made.dtype), made.stop_gradient]
    return seen


@program
def namespaces_samplers_and_regularizers(paddle):
    """paddle.tensor's defining modules, amp.auto_cast off, Layer.create_parameter, the L2 and
    L1 regularizers, the samplers (RandomSampler draws numpy's global order) and dtype
    printouts (a dtype's repr is its DataType member)."""
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.tensor.math.add(x, x)
    joined = paddle.tensor.concat([x, y])
    with paddle.amp.auto_cast(enable=False):
        kind = (x * 2).dtype
    weight = paddle.nn.Linear(2, 2).create_parameter([3], is_bias=True)
    optimizer = paddle.optimizer.SGD(0.1, parameters=[x], weight_decay=paddle.regularizer.L2Decay(0.5))
    (x * x).sum().backward()
    optimizer.step()
    after_l2 = x.numpy().copy()
    optimizer = paddle.optimizer.SGD(0.1, parameters=[x], weight_decay=paddle.regularizer.L1Decay(0.5))
    x.clear_gradient()
    (x * x).sum().backward()
    optimizer.step()
    np.random.seed(3)
    data = paddle.io.TensorDataset([paddle.arange(5.0)])
    return [y, joined, joined.grad_fn.name(), str(kind), repr(kind), repr([paddle.int64, paddle.bool]),
            weight, after_l2, x, list(paddle.io.RandomSampler(data)), list(paddle.io.SequenceSampler(data)),
            len(paddle.io.RandomSampler(data))]
