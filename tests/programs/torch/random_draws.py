"""Seeded draws: torch's CPU generator reproduced, so a seeded program draws torch's numbers."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def seeded_draws_are_torchs_own(torch):
    """rand, randn (fewer than 16 values, the cached second of a pair included, and 16 or more),
    randint, randperm, in-place normal_ and uniform_, both float dtypes, and a reseed that drops
    the cached normal."""
    torch.manual_seed(0)
    drawn = [torch.randn(3), torch.rand(2), torch.randint(0, 10, (3,)), torch.randint(-3, 5, (2, 2)),
             torch.randperm(7), torch.randn(37), torch.randn(2, 3, dtype=torch.float64),
             torch.rand(5, dtype=torch.float64), torch.empty(5).normal_(1.0, 2.0),
             torch.empty(20).normal_(-1.0, 0.5), torch.empty(3).uniform_(-2, 2),
             torch.rand_like(torch.zeros(2)), torch.randn_like(torch.zeros(2, dtype=torch.float64))]
    torch.manual_seed(0)
    drawn.append(torch.randn(1))
    torch.manual_seed(5)
    drawn.append(torch.randn(1))
    return [*drawn, torch.initial_seed()]


@program
def generator_objects_and_states_keep_their_own_streams(torch):
    """A Generator of its own leaves the default's stream alone; a saved state replays;
    fork_rng restores what the block drew."""
    torch.manual_seed(1)
    g = torch.Generator().manual_seed(42)
    drawn = [torch.randn(4, generator=g), torch.rand(2, generator=g), torch.randint(0, 9, (3,), generator=g),
             torch.randperm(5, generator=g), torch.rand(2), g.initial_seed()]
    state = torch.get_rng_state()
    first = torch.rand(3)
    torch.set_rng_state(state)
    drawn.append(torch.equal(first, torch.rand(3)))
    with torch.random.fork_rng():
        torch.rand(10)
    drawn.append(torch.rand(2))
    saved = g.get_state()
    again = torch.rand(2, generator=g)
    g.set_state(saved)
    drawn.append(torch.equal(again, torch.rand(2, generator=g)))
    return drawn


@program
def initial_weights_are_torchs_own(torch):
    """Layers' default initialisation and nn.init, in order: Linear, Conv2d, Embedding, LSTM,
    kaiming, xavier and both branches of trunc_normal_."""
    torch.manual_seed(3)
    linear, conv = torch.nn.Linear(3, 2), torch.nn.Conv2d(1, 2, 2)
    embedding, lstm = torch.nn.Embedding(4, 5), torch.nn.LSTM(2, 3)
    init = torch.nn.init
    return [linear.weight, linear.bias, conv.weight, conv.bias, embedding.weight, list(lstm.parameters()),
            init.kaiming_normal_(torch.empty(2, 3)), init.kaiming_uniform_(torch.empty(3, 2), a=0.1),
            init.xavier_uniform_(torch.empty(2, 3)), init.xavier_normal_(torch.empty(4, 5)),
            init.trunc_normal_(torch.empty(4), std=0.02),
            init.trunc_normal_(torch.empty(20), mean=0.0, std=1.0, a=-0.5, b=0.5),
            init.trunc_normal_(torch.empty(3, dtype=torch.float64), mean=1.0, std=0.1, a=0.9, b=0.95)]


@program
def dropout_bernoulli_and_sampling_draw_as_torch_does(torch):
    """Dropout's mask, bernoulli of a tensor of probabilities, normal with tensor arguments,
    multinomial with and without replacement."""
    torch.manual_seed(4)
    x = torch.ones(12, requires_grad=True)
    dropped = torch.nn.functional.dropout(x, 0.3)
    dropped.sum().backward()
    return [dropped, x.grad, torch.nn.Dropout(0.5)(torch.ones(3, 4)), torch.bernoulli(torch.full((6,), 0.5)),
            torch.bernoulli(torch.full((3,), 0.2, dtype=torch.float64)),
            torch.normal(0.0, 1.0, size=(3,)), torch.normal(torch.zeros(3), torch.ones(3) * 2),
            torch.normal(torch.arange(3.0), 0.5), torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 5, True),
            torch.multinomial(torch.tensor([[0.2, 0.3, 0.5, 0.1], [1.0, 0.0, 1.0, 1.0]]), 2)]


@program
def a_shuffled_loader_and_random_split_draw_as_torch_does(torch):
    """Each pass over a loader draws its base seed, then its sampler seeds a fresh generator;
    random_split permutes with the default generator."""
    torch.manual_seed(5)
    data = torch.utils.data.TensorDataset(torch.arange(10.0))
    loader = torch.utils.data.DataLoader(data, batch_size=4, shuffle=True)
    batches = [b for (b,) in loader] + [b for (b,) in loader]
    plain = [b for (b,) in torch.utils.data.DataLoader(data, batch_size=5)]
    first, second = torch.utils.data.random_split(range(10), [3, 7])
    own = torch.utils.data.DataLoader(data, batch_size=5, shuffle=True,
                                      generator=torch.Generator().manual_seed(9))
    return [*batches, *plain, list(first), list(second), [b for (b,) in own], torch.rand(2)]


@program
def orthogonal_initialisation(torch):
    """orthogonal_: the QR of standard normal draws (of the transpose when wider than tall),
    signs fixed by R's diagonal, times the gain; a tensor of fewer than 2 dimensions refused."""
    torch.manual_seed(0)
    seen = []
    for shape, gain in (((3, 5), 1.0), ((4, 2), 2.0), ((2, 3, 2), 1.0), ((0, 3), 1.0)):
        weight = torch.empty(*shape)
        torch.nn.init.orthogonal_(weight, gain)
        seen.append(weight)
    layer = torch.nn.Linear(3, 3)
    torch.nn.init.orthogonal_(layer.weight)
    product = layer.weight @ layer.weight.t()
    return seen + [layer.weight, product, layer.weight._version, torch.randn(2),
                   attempt(lambda: torch.nn.init.orthogonal_(torch.empty(3)))]
