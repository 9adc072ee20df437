"""What everyday training loops call around their autograd: metrics and checkpoints written
and read back."""

from __future__ import annotations

import io

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def accuracy_and_the_accuracy_metric(paddle):
    """paddle.metric.accuracy of an (N, 1) label at top 1 and 2 (an (N,) label refused), and
    Accuracy's compute / update / accumulate / name for one k and for several."""
    scores = paddle.to_tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4]])
    label = paddle.to_tensor([[1], [2], [2], [0]])
    seen = [paddle.metric.accuracy(scores, label), paddle.metric.accuracy(scores, label, k=2),
            attempt(lambda: paddle.metric.accuracy(scores, paddle.to_tensor([1, 2, 2, 0])))]
    for topk in ((1,), (1, 2)):
        metric = paddle.metric.Accuracy(topk=topk)
        hits = metric.compute(scores, label)
        seen += [hits, metric.update(hits), metric.update(metric.compute(scores[:2], label[:2])),
                 metric.accumulate(), metric.name()]
        metric.reset()
        seen.append(metric.accumulate())
    return seen


@program
def a_checkpoint_written_and_read_back(paddle):
    """paddle.save of a state dict (and of a dict holding one, with numbers) read back by
    paddle.load into a fresh layer, which then computes the same."""
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 1))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    net(paddle.ones([1, 2])).sum().backward()
    opt.step()
    buffer = io.BytesIO()
    paddle.save({"model": net.state_dict(), "epoch": 3}, buffer)
    buffer.seek(0)
    loaded = paddle.load(buffer)
    fresh = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 1))
    fresh.set_state_dict(loaded["model"])
    x = paddle.to_tensor([[0.5, -1.0]])
    return [loaded["epoch"], list(loaded["model"].keys()), fresh(x), net(x)]


@program
def linear_warmup_before_a_schedule(paddle):
    """A linear rise over the warm-up, then the wrapped schedule stepped to the epochs past it
    (the cosine one in its closed form), or a constant rate."""
    seen = []
    for after in (paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.05, T_max=6), 0.05):
        warm = paddle.optimizer.lr.LinearWarmup(after, warmup_steps=3, start_lr=0.0, end_lr=0.05)
        for _ in range(10):
            seen.append(warm())
            warm.step()
    return [*seen, attempt(lambda: paddle.optimizer.lr.LinearWarmup(0.1, 2, 0.5, 0.1))]


@program
def batch_norm_statistics_are_parameters_and_topk_names_its_results(paddle):
    """A BatchNorm layer lists its running mean and variance among its parameters (not
    trainable); topk returns a named tuple of values and indices."""
    paddle.seed(1)
    bn = paddle.nn.BatchNorm1D(3)
    bn(paddle.randn([4, 3]))
    found = paddle.topk(paddle.to_tensor([1.0, 3.0, 2.0]), k=2)
    return [[name for name, _ in bn.named_parameters()], [p.trainable for p in bn.parameters()],
            list(bn.state_dict().keys()), bn._mean, bn._variance, type(found).__name__, found.values,
            found.indices]


@program
def one_hot_and_label_smoothing(paddle):
    """one_hot's float32 rows (an index past the depth refused), and label_smooth with the
    uniform prior and a given one, recorded as LabelSmoothGradNode."""
    functional = paddle.nn.functional
    label = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0]], stop_gradient=False)
    smoothed = functional.label_smooth(label, epsilon=0.2)
    smoothed.sum().backward()
    return [functional.one_hot(paddle.to_tensor([0, 2]), 3),
            functional.one_hot(paddle.to_tensor([[1], [0]]), 2),
            attempt(lambda: functional.one_hot(paddle.to_tensor([3]), 2)), smoothed,
            smoothed.grad_fn.name(), label.grad,
            functional.label_smooth(label, prior_dist=paddle.to_tensor([[0.3, 0.7]]), epsilon=0.2)]


@program
def reduce_on_plateau_and_a_loader_called(paddle):
    """ReduceOnPlateau cuts after ``patience`` bad steps (cooldown steps not counted, the
    minimum kept), in both modes; ``loader()`` iterates as ``iter(loader)`` does."""
    seen = []
    for options, metrics in (({"factor": 0.5, "patience": 1, "cooldown": 1, "min_lr": 0.1},
                              [5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3]),
                             ({"mode": "max", "threshold": 0.1, "threshold_mode": "abs", "patience": 0},
                              [1.0, 1.05, 1.2, 1.2])):
        plateau = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, **options)
        for value in metrics:
            plateau.step(value)
            seen.append([plateau(), plateau.num_bad_epochs, plateau.cooldown_counter])
    data = paddle.io.TensorDataset([paddle.arange(6, dtype="float32")])
    loader = paddle.io.DataLoader(data, batch_size=4)
    return [*seen, [b for (b,) in loader()],
            attempt(lambda: paddle.optimizer.lr.ReduceOnPlateau(1.0, factor=1.5))]


@program
def round_to_decimals(paddle):
    """round(decimals=d) to d places (tens, hundreds for a negative d), as RoundGradNode with a
    zero derivative written in place."""
    x = paddle.to_tensor([1.23456, -2.5, 0.5, 1234.5, 0.125], stop_gradient=False)
    y = paddle.round(x, decimals=2)
    y.sum().backward()
    # its gradient kernel writes into the memory it was handed, as round's does: a reshape's
    # retained gradient above ends as the kernel's zeros
    z = paddle.round(x * 1.0, decimals=1).reshape([5])
    z.retain_grads()
    (z * paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
    return [y, y.grad_fn.name(), x.grad, paddle.round(x, decimals=-2), x.round(decimals=1), paddle.round(x),
            z.grad]
