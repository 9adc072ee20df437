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
def binary_precision_and_recall(paddle):
    """paddle.metric.Precision / Recall over numpy arrays and tensors (a probability of 0.5
    rounds up for precision, to even for recall), reset, a list refused; and argsort's indices,
    an output of a recorded node (ArgsortGradNode)."""
    import numpy as np

    seen = []
    for cls in (paddle.metric.Precision, paddle.metric.Recall):
        metric = cls()
        metric.update(np.array([0.1, 0.7, 0.8, 0.3, 0.5]), np.array([0, 1, 0, 1, 1]))
        metric.update(paddle.to_tensor([[0.5], [0.9]]), paddle.to_tensor([[0], [1]]))
        seen += [metric.name(), metric.accumulate()]
        metric.reset()
        seen += [metric.accumulate(), attempt(lambda: metric.update([0.1], [1]))]
    x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], stop_gradient=False)
    order = paddle.argsort(x, axis=1, descending=True)
    return seen + [order, order.stop_gradient, paddle.argsort(x.detach()).stop_gradient]


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


@program
def a_small_gan_training_step(paddle):
    """A generator and a discriminator (Dropout inside), BCELoss against ones and zeros, two
    Adam optimizers, the fake batch detached for the discriminator's step."""
    paddle.seed(1)
    nn = paddle.nn
    generator = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 8), nn.Tanh())
    critic = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Dropout(0.3), nn.Linear(16, 1),
                           nn.Sigmoid())
    opt_g = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.5, parameters=generator.parameters())
    opt_d = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.5, parameters=critic.parameters())
    criterion = nn.BCELoss()
    real = paddle.randn([32, 8]) * 0.5 + 1.0
    seen = [repr(criterion), repr(nn.BCEWithLogitsLoss()), repr(nn.NLLLoss())]
    for _ in range(4):
        fake = generator(paddle.randn([32, 4]))
        d_real, d_fake = critic(real), critic(fake.detach())
        loss_d = criterion(d_real, paddle.ones_like(d_real)) + criterion(d_fake, paddle.zeros_like(d_fake))
        opt_d.clear_grad()
        loss_d.backward()
        opt_d.step()
        loss_g = criterion(critic(fake), paddle.ones_like(d_fake))
        opt_g.clear_grad()
        loss_g.backward()
        opt_g.step()
        seen.append([loss_d.item(), loss_g.item()])
    return seen + [fake.mean(axis=0)[:3], fake.numel(), paddle.numel(fake)]


@program
def reinforce_with_a_categorical_policy(paddle):
    """REINFORCE with paddle.distribution.Categorical over a policy's raw outputs, as paddle's
    examples write it (its probs normalise the logits by their sum: NaN losses follow)."""
    paddle.seed(0)
    nn = paddle.nn
    policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = paddle.optimizer.Adam(learning_rate=1e-2, parameters=policy.parameters())
    seen = []
    for _ in range(3):
        log_probs, rewards = [], []
        state = paddle.randn([4])
        for _ in range(10):
            m = paddle.distribution.Categorical(policy(state))
            action = m.sample([1])
            log_probs.append(m.log_prob(action))
            rewards.append(1.0 if action.item() == 1 else 0.0)
            state = state + 0.1 * paddle.randn([4])
        returns = paddle.to_tensor(rewards)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = paddle.stack([-lp.sum() * ret for lp, ret in zip(log_probs, returns)]).sum()
        optimizer.clear_grad()
        loss.backward()
        optimizer.step()
        seen.append([round(loss.item(), 4), sum(rewards)])
    return seen


@program
def a_small_cnn_with_channel_dropout_and_a_schedule(paddle):
    """Conv2D, BatchNorm2D, Dropout2D and adaptive pooling, Adadelta with a StepDecay schedule,
    evaluation accuracy and the count of trainable elements."""
    paddle.seed(42)
    nn, F = paddle.nn, paddle.nn.functional
    model = nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(),
                          nn.Conv2D(4, 8, 3, stride=2), nn.ReLU(), nn.Dropout2D(0.25),
                          nn.AdaptiveAvgPool2D((1, 1)), nn.Flatten(), nn.Linear(8, 3), nn.LogSoftmax(axis=1))
    scheduler = paddle.optimizer.lr.StepDecay(learning_rate=1.0, step_size=1, gamma=0.7)
    optimizer = paddle.optimizer.Adadelta(learning_rate=scheduler, parameters=model.parameters())
    x, y = paddle.randn([8, 1, 8, 8]), paddle.randint(0, 3, [8])
    seen = []
    for step in range(3):
        model.train()
        # (the older spelling, an alias each optimizer carries)
        optimizer.clear_gradients() if step else optimizer.clear_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        model.eval()
        with paddle.no_grad():
            pred = model(x).argmax(axis=1, keepdim=True)
        correct = (pred == y.reshape(pred.shape)).astype("int64").sum().item()
        seen.append([loss.item(), correct, scheduler.get_lr()])
    return seen + [sum(p.numel().item() for p in model.parameters() if not p.stop_gradient)]


@program
def the_high_level_model_fits_evaluates_and_predicts(paddle):
    """paddle.Model: fit over a Dataset (batched by a DistributedBatchSampler shuffled by epoch,
    a scheduler stepped after every batch), with evaluation data, a callback that records the
    logs, early stopping; evaluate's result (the last batch's loss, the metrics over all
    batches); predict, stacked and not; the one-batch steps."""
    import numpy as np

    paddle.seed(3)
    rng = np.random.RandomState(3)

    class Data(paddle.io.Dataset):
        def __init__(self, n):
            self.x = rng.randn(n, 4).astype("float32")
            self.y = (self.x[:, :1] > 0).astype("int64")

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return len(self.x)

    class Recorder(paddle.callbacks.Callback):
        seen = []

        def on_epoch_end(self, epoch, logs=None):
            self.seen.append([epoch, logs["loss"], logs["acc_top1"], logs["acc_top2"], logs["step"],
                              logs["batch_size"]])

        def on_eval_end(self, logs=None):
            self.seen.append(["eval", logs["loss"], logs["acc_top1"]])

    model = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(4, 3)))
    schedule = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=3, gamma=0.5)
    optimizer = paddle.optimizer.SGD(learning_rate=schedule, parameters=model.parameters())
    model.prepare(optimizer, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
    model.fit(Data(50), Data(20), epochs=2, batch_size=8, verbose=0, callbacks=[Recorder()])
    evaluated = model.evaluate(Data(20), batch_size=7, verbose=0)
    stacked = model.predict(Data(5), batch_size=2, stack_outputs=True, verbose=0)
    listed = model.predict(Data(5), batch_size=2, verbose=0)
    one = np.ones((2, 4), "float32"), np.zeros((2, 1), "int64")
    trained, checked = model.train_batch([one[0]], [one[1]]), model.eval_batch([one[0]], [one[1]])
    stopper = paddle.callbacks.EarlyStopping(monitor="acc_top1", patience=0, verbose=0,
                                             save_best_model=False)
    model.fit(Data(16), Data(8), epochs=5, batch_size=8, verbose=0, callbacks=[stopper, Recorder()])
    return [Recorder.seen, evaluated, optimizer.get_lr(), stacked, [len(listed), len(listed[0])],
            listed[0][0], trained, checked, len(model.parameters())]


@program
def distributed_batch_sampler_batches_by_epoch(paddle):
    """paddle.io.DistributedBatchSampler: in order, or shuffled by numpy's RandomState(epoch)
    with the epoch counted on each pass (set_epoch sets it); the share of one of two replicas,
    padded to equal shares; its length with and without drop_last; a DataLoader over it."""
    data = paddle.io.TensorDataset([paddle.arange(11, dtype="float32")])
    plain = paddle.io.DistributedBatchSampler(data, batch_size=4)
    shuffled = paddle.io.DistributedBatchSampler(data, batch_size=4, shuffle=True, drop_last=True)
    passes = [list(shuffled), list(shuffled)]
    shuffled.set_epoch(0)
    replica = paddle.io.DistributedBatchSampler(data, batch_size=2, num_replicas=2, rank=1)
    loader = paddle.io.DataLoader(data, batch_sampler=plain)
    return [list(plain), len(plain), passes, list(shuffled), len(shuffled), list(replica),
            len(replica), [batch[0] for batch in loader]]


@program
def cyclic_learning_rates(paddle):
    """optimizer.lr.CyclicLR: triangular, triangular2, exp_range and a scale_fn over iterations,
    unequal steps up and down, inside an optimizer; the arguments it refuses."""
    lr = paddle.optimizer.lr
    seen = []
    for options in ({}, {"mode": "triangular2", "step_size_down": 3}, {"mode": "exp_range", "exp_gamma": 0.9},
                    {"scale_fn": lambda x: 0.5 ** x, "scale_mode": "iterations"}):
        schedule = lr.CyclicLR(0.01, 0.1, 2, **options)
        rates = []
        for _ in range(8):
            rates.append(schedule())
            schedule.step()
        seen.append(rates)
    schedule = lr.CyclicLR(0.01, 0.1, 2)
    weight = paddle.create_parameter([1], "float32")
    optimizer = paddle.optimizer.SGD(learning_rate=schedule, parameters=[weight])
    schedule.step()
    seen.append(optimizer.get_lr())
    seen += [attempt(lambda: lr.CyclicLR(0.01, "a", 2)), attempt(lambda: lr.CyclicLR(0.01, 0.1, 0)),
             attempt(lambda: lr.CyclicLR(0.01, 0.1, 2, exp_gamma=1)),
             attempt(lambda: lr.CyclicLR(0.01, 0.1, 2, mode="saw")),
             attempt(lambda: lr.CyclicLR(0.01, 0.1, 2, scale_mode="epochs"))]
    return seen
