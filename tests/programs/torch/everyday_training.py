"""What everyday training loops call around their autograd: label smoothing, plateau schedules,
one-hot targets and checkpoints written and read back."""

from __future__ import annotations

import io

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def cross_entropy_with_label_smoothing(torch):
    """(1 - ε) nll + ε / C times minus the (weighted) sum of log-probabilities, ignored rows
    left out, in every reduction, with its gradient and node."""
    x = torch.tensor([[0.3, -1.2, 2.0, 0.1], [1.5, 0.2, -0.3, 0.8], [-0.7, 0.9, 0.4, -1.1]],
                     requires_grad=True)
    target = torch.tensor([2, -100, 1])
    weight = torch.tensor([1.0, 2.0, 0.5, 1.5])
    seen = []
    for reduction in ("mean", "sum", "none"):
        for w in (None, weight):
            loss = torch.nn.functional.cross_entropy(x, target, weight=w, reduction=reduction,
                                                     label_smoothing=0.2)
            g, = torch.autograd.grad(loss.sum(), x)
            seen += [loss, g, loss.grad_fn.name()]
    module = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
    return [*seen, module(x, target.clamp(min=0))]


@program
def reduce_lr_on_plateau_cuts_after_patience(torch):
    """Bad steps counted past the relative threshold, a cut by ``factor`` not below ``min_lr``,
    cooldown steps that count none, and the max mode with an absolute threshold."""
    p = torch.nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([p], lr=1.0)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.1)
    seen = []
    for value in [5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3]:
        plateau.step(value)
        seen.append([opt.param_groups[0]["lr"], plateau.get_last_lr(), plateau.num_bad_epochs])
    rising = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold=0.1, threshold_mode="abs",
                                                        patience=0)
    for value in [1.0, 1.05, 1.2, 1.2]:
        rising.step(torch.tensor(value))
        seen.append(opt.param_groups[0]["lr"])
    return [*seen, attempt(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0))]


@program
def one_hot_targets(torch):
    one_hot = torch.nn.functional.one_hot
    return [one_hot(torch.tensor([0, 2])), one_hot(torch.tensor([[1], [0]]), 4),
            attempt(lambda: one_hot(torch.tensor([0.0, 1.0]))),
            attempt(lambda: one_hot(torch.tensor([-1, 1]))),
            attempt(lambda: one_hot(torch.tensor([3]), 2))]


@program
def a_checkpoint_written_and_read_back(torch):
    """torch.save of a state dict (and of a dict holding one, with numbers) read back by
    torch.load into a fresh module, which then computes the same."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.ones(1, 2)).sum().backward()
    opt.step()
    buffer = io.BytesIO()
    torch.save({"model": net.state_dict(), "epoch": 3, "history": [0.5, 0.25]}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    fresh = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    fresh.load_state_dict(loaded["model"])
    x = torch.tensor([[0.5, -1.0]])
    return [loaded["epoch"], loaded["history"], list(loaded["model"].keys()), fresh(x), net(x),
            loaded["model"]["0.weight"].requires_grad]


@program
def one_cycle_lr_cycles_rate_and_momentum(torch):
    """Cosine and linear annealing, two and three phases, SGD's momentum and Adam's first beta
    cycled the other way, and the step past the last refused."""
    p = torch.nn.Parameter(torch.ones(1))
    seen = []
    for options in ({}, {"three_phase": True, "anneal_strategy": "linear"}):
        opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
        cycle = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, **options)
        for _ in range(10):
            opt.step()
            cycle.step()
            seen.append([cycle.get_last_lr(), opt.param_groups[0]["momentum"]])
    opt = torch.optim.Adam([p], lr=0.1)
    cycle = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.5], epochs=2, steps_per_epoch=3)
    for _ in range(6):
        opt.step()
        cycle.step()
        seen.append([cycle.get_last_lr(), opt.param_groups[0]["betas"]])
    return [*seen, attempt(lambda: cycle.step())]


@program
def warm_up_schedules_and_their_sequence(torch):
    """LinearLR and ConstantLR step by step, and SequentialLR handing over at its milestones,
    where the next schedule starts from epoch 0 in its closed form."""
    p = torch.nn.Parameter(torch.ones(1))
    lr = torch.optim.lr_scheduler
    seen = []
    for make in (lambda o: lr.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=4),
                 lambda o: lr.ConstantLR(o, factor=0.5, total_iters=3),
                 lambda o: lr.SequentialLR(o, [lr.LinearLR(o, start_factor=0.5, total_iters=2),
                                               lr.ExponentialLR(o, gamma=0.9)], milestones=[2]),
                 lambda o: lr.SequentialLR(o, [lr.ConstantLR(o, factor=0.1, total_iters=2),
                                               lr.CosineAnnealingLR(o, T_max=4), lr.StepLR(o, 2, 0.5),
                                               lr.MultiStepLR(o, [1, 2], 0.5)], milestones=[2, 5, 8])):
        opt = torch.optim.SGD([p], lr=0.1)
        schedule = make(opt)
        for _ in range(11):
            opt.step()
            schedule.step()
            seen.append(schedule.get_last_lr())
    opt = torch.optim.SGD([p], lr=0.1)
    return [*seen, attempt(lambda: lr.LinearLR(opt, start_factor=0.0)),
            attempt(lambda: lr.SequentialLR(opt, [lr.ConstantLR(opt)], milestones=[1]))]


@program
def repeat_interleave_random_fill_and_smooth_l1(torch):
    """repeat_interleave by a number (a view of an expanded copy), by a tensor of counts (an
    index_select) and of counts alone; the arc- names of the inverse trigonometric functions;
    random_ in its three forms for float and integer tensors; smooth_l1_loss for each beta
    (0: the L1 loss itself) and reduction, to second order."""
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    seen = []
    for repeats, dim in ((2, 0), (3, 1), (torch.tensor(2), None), (torch.tensor([1, 2]), 1)):
        y = torch.repeat_interleave(x, repeats, dim=dim)
        g, = torch.autograd.grad((y * torch.arange(y.numel()).reshape(y.shape)).sum(), x)
        seen += [y, y.grad_fn.name(), g]
    seen += [torch.repeat_interleave(torch.tensor([2, 1])), torch.arccos(torch.tensor(0.5)),
             torch.tensor(0.5, requires_grad=True).arcsin(), torch.arctan(torch.tensor([1.0]))]
    torch.manual_seed(0)
    seen += [torch.empty(4).random_(), torch.empty(3).random_(5), torch.empty(3).random_(2, 9),
             torch.empty(2, dtype=torch.float64).random_(), torch.empty(2, dtype=torch.int64).random_(0, 100)]
    target = torch.tensor([[0.0, 0.0], [0.0, 1.0]])
    for beta in (1.0, 2.5, 0.0):
        for reduction in ("mean", "sum", "none"):
            loss = torch.nn.functional.smooth_l1_loss(x, target, reduction=reduction, beta=beta)
            g, = torch.autograd.grad(loss.sum(), x, create_graph=True)
            seen += [loss, loss.grad_fn.name(), g]
    return [*seen, torch.nn.SmoothL1Loss(beta=0.5)(x, target)]


@program
def print_options_change_how_tensors_print(torch):
    """set_printoptions: precision, forced or automatic scientific notation, the short profile,
    summarising past a threshold with fewer edge items on narrower lines, then the default."""
    shown = []
    try:
        for options, values in (({"precision": 2}, torch.tensor([1.23456, 2.0])),
                                ({"sci_mode": False}, torch.tensor([1e-6, 3.0])),
                                ({"sci_mode": True, "precision": 3}, torch.tensor([2.0, 4.0])),
                                ({"profile": "short"}, torch.arange(20.0) / 7),
                                ({"threshold": 5, "edgeitems": 1, "linewidth": 30},
                                 torch.arange(12.0).reshape(3, 4) / 3)):
            torch.set_printoptions(**options)
            shown.append(repr(values))
    finally:
        torch.set_printoptions(profile="default", sci_mode=None)
    return [*shown, repr(torch.tensor([1e-6, 3.0]))]


@program
def round_to_decimals(torch):
    """round(decimals=d): to d places (tens, hundreds for a negative d), halves to even, as
    RoundBackward1 with a zero derivative."""
    x = torch.tensor([1.23456, -2.5, 0.5, 1234.5, 0.125], requires_grad=True)
    y = torch.round(x, decimals=2)
    y.sum().backward()
    return [y, y.grad_fn.name(), x.grad, x.round(decimals=-2), x.round(decimals=1), torch.round(x)]


@program
def pairwise_distances(torch):
    """cdist for each p (inf included), batched, with its derivative (0 at a zero distance),
    as one CdistBackward0; the matrix-product path for many rows is refused."""
    a = torch.tensor([[0.3, 0.4], [1.0, -2.0], [0.5, 0.5]], requires_grad=True)
    same = torch.cdist(a, a)
    same.sum().backward()
    torch.manual_seed(0)
    b = torch.randn(2, 3, 4, requires_grad=True)
    c = torch.randn(2, 5, 4, requires_grad=True)
    seen = [same, same.grad_fn.name(), a.grad]
    for p in (1.0, 2.0, 3.0, float("inf")):
        d = torch.cdist(b, c, p=p)
        seen += [d, torch.autograd.grad(d.sum(), [b, c])]
    return seen


@program
def constant_padding(torch):
    """F.pad from the last dimension back, with a value, a negative amount that crops, on
    several dimensions, with its gradient, as one ConstantPadNdBackward0."""
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    padded = torch.nn.functional.pad(x, (1, 2), value=0.5)
    (padded * torch.arange(10.0).reshape(2, 5)).sum().backward()
    first = x.grad.clone()
    cropped = torch.nn.functional.pad(x, (-1, 1))
    cropped.sum().backward()
    return [padded, padded.grad_fn.name(), first, cropped, x.grad, torch.nn.functional.pad(x, (1, 0, 0, 1)),
            torch.nn.functional.pad(torch.ones(1, 2, 3), (1, 1, 2, 0, 1, 1)).shape]


@program
def reinforce_with_a_categorical_policy(torch):
    """REINFORCE as the tutorials write it: a softmax policy, Categorical samples and their
    log-probabilities, normalised discounted returns, Adam."""
    torch.manual_seed(0)
    nn = torch.nn
    policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2), nn.Softmax(dim=-1))
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    seen = []
    for _ in range(3):
        log_probs, rewards = [], []
        state = torch.randn(4)
        for _ in range(10):
            m = torch.distributions.Categorical(policy(state))
            action = m.sample()
            log_probs.append(m.log_prob(action))
            rewards.append(1.0 if action.item() == 1 else 0.0)
            state = state + 0.1 * torch.randn(4)
        running, returns = 0.0, []
        for r in reversed(rewards):
            running = r + 0.99 * running
            returns.insert(0, running)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = torch.stack([-lp * ret for lp, ret in zip(log_probs, returns)]).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        seen.append([round(loss.item(), 4), sum(rewards)])
    return seen


@program
def a_seq2seq_decoder_with_teacher_forcing(torch):
    """A GRU encoder, a GRUCell decoder fed its own argmax or the target at random, cross
    entropy summed over the steps, gradient clipping and SGD with momentum."""
    import random

    random.seed(0)
    torch.manual_seed(0)
    nn = torch.nn
    embed_in, encoder = nn.Embedding(10, 8), nn.GRU(8, 16, batch_first=True)
    embed_out, cell, head = nn.Embedding(10, 8), nn.GRUCell(8, 16), nn.Linear(16, 10)
    params = [p for m in (embed_in, encoder, embed_out, cell, head) for p in m.parameters()]
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    src = torch.randint(1, 10, (4, 5))
    trg = torch.flip(src, dims=[1])
    seen = []
    for _ in range(3):
        hidden = encoder(embed_in(src))[1].squeeze(0)
        token, loss = torch.zeros(4, dtype=torch.long), 0
        for t in range(trg.size(1)):
            hidden = cell(embed_out(token), hidden)
            logits = head(hidden)
            loss = loss + nn.functional.cross_entropy(logits, trg[:, t])
            token = trg[:, t] if random.random() < 0.5 else logits.argmax(1)
        optimizer.zero_grad()
        loss.backward()
        seen.append(nn.utils.clip_grad_norm_(params, 1.0))
        optimizer.step()
        seen.append(loss.item() / trg.size(1))
    return seen


@program
def a_small_cnn_with_channel_dropout_and_a_schedule(torch):
    """Conv, BatchNorm, Dropout2d and adaptive pooling, Adadelta with a StepLR schedule, and
    evaluation accuracy as the MNIST example prints it."""
    torch.manual_seed(42)
    nn, F = torch.nn, torch.nn.functional
    conv1, bn1, conv2 = nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.Conv2d(4, 8, 3, stride=2)
    pool, drop, fc = nn.AdaptiveAvgPool2d((1, 1)), nn.Dropout2d(0.25), nn.Linear(8, 3)
    model = nn.Sequential(conv1, bn1, nn.ReLU(), conv2, nn.ReLU(), drop, pool, nn.Flatten(), fc,
                          nn.LogSoftmax(dim=1))
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    x, y = torch.randn(8, 1, 8, 8), torch.randint(0, 3, (8,))
    seen = []
    for _ in range(3):
        model.train()
        optimizer.zero_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        model.eval()
        with torch.no_grad():
            pred = model(x).argmax(dim=1, keepdim=True)
        seen.append([loss.item(), pred.eq(y.view_as(pred)).sum().item(), scheduler.get_last_lr()[0]])
    return seen + [sum(p.numel() for p in model.parameters() if p.requires_grad)]


@program
def packed_sequences_through_recurrent_layers(torch):
    """pack_padded_sequence (sorted or not) / pack_sequence / pad_packed_sequence, and LSTM,
    GRU and RNN layers run over packed batches: each sequence's state stops at its own end (the
    reverse direction starts there), final states in the sequences' order, gradients to the
    embeddings and weights."""
    rnn = torch.nn.utils.rnn
    torch.manual_seed(0)
    seen = []
    x = torch.arange(24.0).reshape(3, 4, 2).requires_grad_()
    packed = rnn.pack_padded_sequence(x, torch.tensor([4, 2, 3]), batch_first=True, enforce_sorted=False)
    padded, lengths = rnn.pad_packed_sequence(packed, batch_first=True, padding_value=-1.0, total_length=5)
    padded.sum().backward()
    seen += [packed.data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, padded, lengths,
             x.grad, rnn.pack_sequence([torch.ones(3, 2), torch.ones(1, 2)]).batch_sizes,
             attempt(lambda: rnn.pack_padded_sequence(x, [2, 4, 3], batch_first=True))]
    embedding = torch.nn.Embedding(20, 6, padding_idx=0)
    tokens = rnn.pad_sequence([torch.tensor([3, 4, 5, 6]), torch.tensor([7, 8]), torch.tensor([9, 10, 11])],
                              batch_first=True)
    for layer in (torch.nn.LSTM(6, 5, batch_first=True), torch.nn.GRU(6, 4, num_layers=2, bidirectional=True),
                  torch.nn.RNN(6, 3, batch_first=True)):
        embedded = embedding(tokens)
        inputs = embedded if layer.batch_first else embedded.transpose(0, 1)
        packed = rnn.pack_padded_sequence(inputs, [4, 2, 3], batch_first=layer.batch_first,
                                          enforce_sorted=False)
        out, state = layer(packed)
        final = state[0] if isinstance(state, tuple) else state
        unpacked, lengths = rnn.pad_packed_sequence(out, batch_first=layer.batch_first)
        (unpacked.pow(2).sum() + final.sum()).backward()
        seen += [type(out).__name__, unpacked, lengths, final, embedding.weight.grad.clone(),
                 next(layer.parameters()).grad]
        embedding.zero_grad()
    lstm = torch.nn.LSTM(2, 3)
    h0, c0 = torch.randn(1, 3, 3), torch.randn(1, 3, 3)
    sorted_pack = rnn.pack_padded_sequence(torch.randn(4, 3, 2), [4, 3, 1])
    out, (h, c) = lstm(sorted_pack, (h0, c0))
    return seen + [out.data, h, c]


@program
def pretrained_embeddings_keep_their_rows_and_draw_nothing(torch):
    """nn.Embedding.from_pretrained (frozen by default, or trained; its padding row kept, not
    zeroed) and an Embedding given _weight draw nothing from the generator; a negative
    padding_idx counts from the end, one out of range is refused."""
    torch.manual_seed(0)
    table = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    frozen = torch.nn.Embedding.from_pretrained(table)
    trained = torch.nn.Embedding.from_pretrained(table, freeze=False, padding_idx=-1)
    after = torch.rand(2)
    out = trained(torch.tensor([[0, 2], [1, 2]]))
    out.sum().backward()
    drawn = torch.nn.Embedding(3, 2, padding_idx=-2)
    return [frozen.weight.requires_grad, frozen(torch.tensor([2])), trained.padding_idx,
            trained.weight.grad, after, drawn.weight, drawn.padding_idx, repr(trained),
            attempt(lambda: torch.nn.Embedding(3, 2, padding_idx=3)),
            attempt(lambda: torch.nn.Embedding.from_pretrained(torch.ones(3)))]


@program
def gumbel_softmax_soft_and_straight_through(torch):
    """F.gumbel_softmax draws its Gumbel noise from the generator (exponential_): soft, and hard
    (one-hot forward, the soft values' gradient); its graph ends in softmax or in the add of
    the straight-through estimate."""
    torch.manual_seed(0)
    logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]], requires_grad=True)
    hard = torch.nn.functional.gumbel_softmax(logits, tau=0.5, hard=True)
    (hard * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    soft = torch.nn.functional.gumbel_softmax(logits, tau=2.0, dim=0)
    return [hard, logits.grad, soft, soft.grad_fn.name(), hard.grad_fn.name()]


@program
def thread_counts_set_and_read_back(torch):
    """torch.set_num_threads and get_num_threads (the count restored after: the test process's
    torch runs on); a count that is not a positive int is refused."""
    before = torch.get_num_threads()
    torch.set_num_threads(3)
    seen = [torch.get_num_threads(), attempt(lambda: torch.set_num_threads(0)),
            attempt(lambda: torch.set_num_threads("a")), attempt(lambda: torch.set_num_threads(2.0))]
    torch.set_num_threads(before)
    return seen


@program
def the_determinism_switch_set_and_read_back(torch):
    """torch.use_deterministic_algorithms and the debug mode that mirrors it (switched off
    after: the test process's torch runs on)."""
    seen = [torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode(),
            attempt(lambda: torch.use_deterministic_algorithms(1))]
    torch.use_deterministic_algorithms(True, warn_only=True)
    seen += [torch.are_deterministic_algorithms_enabled(),
             torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode()]
    torch.set_deterministic_debug_mode("error")
    seen += [torch.get_deterministic_debug_mode(), torch.is_deterministic_algorithms_warn_only_enabled(),
             attempt(lambda: torch.set_deterministic_debug_mode("x"))]
    torch.set_deterministic_debug_mode(0)
    return seen + [torch.are_deterministic_algorithms_enabled()]


@program
def weighted_random_sampling(torch):
    """WeightedRandomSampler: torch.multinomial's draws on the default generator or its own,
    with and without replacement, in a DataLoader; its argument checks."""
    sampler = torch.utils.data.WeightedRandomSampler
    torch.manual_seed(0)
    drawn = sampler([0.1, 0.9, 0.4, 0.7], 6)
    own = sampler([1, 2, 3], 2, replacement=False, generator=torch.Generator().manual_seed(3))
    data = torch.utils.data.TensorDataset(torch.arange(8.0))
    loader = torch.utils.data.DataLoader(data, batch_size=3,
                                         sampler=sampler(torch.tensor([1.0] * 4 + [5.0] * 4), 7))
    return [list(drawn), len(drawn), list(drawn), list(own), [b[0] for b in loader],
            attempt(lambda: sampler([[1.0, 2.0]], 3)), attempt(lambda: sampler([1.0, 2.0], 0)),
            attempt(lambda: sampler([1.0, 2.0], 3, 1))]


@program
def the_meta_device_holds_shapes_without_data(torch):
    """Tensors and modules on the meta device (the model-ensembling recipe: a module moved
    there only to give ``functional_call`` its structure): printed by size, no data to copy out,
    ops between meta and CPU tensors refused; and the recipe itself."""
    import copy
    meta, cpu = torch.ones(2, device="meta"), torch.ones(2)
    torch.manual_seed(0)
    models = [torch.nn.Linear(3, 2) for _ in range(4)]
    params, buffers = torch.func.stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    x = torch.randn(5, 3)

    def call(p, b, inputs):
        return torch.func.functional_call(base, (p, b), (inputs,))
    out = torch.func.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    # (a meta tensor's values cannot be observed: its printout stands for it)
    return [repr(meta), repr(meta.sum()), meta.is_meta, cpu.is_meta, str(meta.device), meta.shape,
            repr(torch.zeros(2, 3, dtype=torch.float64, device="meta")),
            repr(torch.ones(2, 2, device="meta", requires_grad=True) * 3), repr(base.weight),
            attempt(lambda: meta + cpu), attempt(lambda: cpu + meta), attempt(lambda: meta.item()),
            attempt(lambda: meta[0].item()), attempt(lambda: meta.cpu()), attempt(lambda: meta.tolist()),
            attempt(lambda: meta.numpy()), out.shape, torch.allclose(out[1], models[1](x), atol=1e-6)]


@program
def weight_norm_splits_a_parameter_into_norm_and_direction(torch):
    """torch.nn.utils.weight_norm (deprecated with a FutureWarning, common in TCN and WaveNet
    code): ``weight_g`` and ``weight_v`` registered last, the weight recomposed before every
    forward (WeightNormInterfaceBackward0), ``dim`` 1 and None; remove_weight_norm and the
    errors of a second apply or a second removal."""
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2)
    before = m.weight.detach().clone()
    same = torch.nn.utils.weight_norm(m) is m
    x = torch.ones(1, 3)
    m(x).sum().backward()
    out = [same, [n for n, _ in m.named_parameters()], m.weight_g, m.weight.grad_fn.name(),
           m.weight_g.grad, m.weight_v.grad, torch.allclose(m.weight, before)]
    with torch.no_grad():
        m.weight_g.mul_(2)
    out.append(m(x))
    whole = torch.nn.utils.weight_norm(torch.nn.Conv1d(2, 3, 2), dim=None)
    by_channel = torch.nn.utils.weight_norm(torch.nn.Conv1d(2, 3, 2), name="weight", dim=1)
    by_channel(torch.ones(1, 2, 4)).sum().backward()
    out += [whole.weight_g, by_channel.weight_g.shape, by_channel.weight_g.grad, by_channel.weight_v.grad]
    torch.nn.utils.remove_weight_norm(m)
    out += [[n for n, _ in m.named_parameters()], m.weight.grad_fn is None, m.weight,
            attempt(lambda: torch.nn.utils.remove_weight_norm(m))]
    torch.nn.utils.weight_norm(m)
    return out + [attempt(lambda: torch.nn.utils.weight_norm(m)), list(m.state_dict())]
