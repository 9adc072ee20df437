"""torch.distributions (Categorical, Bernoulli, Normal, kl_divergence) drawing by torch's
generator, with log-probabilities, entropies and reparameterised gradients; multinomial's
fast path for one sample; finfo / iinfo; and torch.testing.assert_close's verdicts and
messages."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def distributions_draw_and_differentiate(torch):
    D = torch.distributions
    torch.manual_seed(0)
    seen = []
    c = D.Categorical(probs=torch.tensor([0.2, 0.5, 0.3]))
    seen += [repr(c), c.sample(), c.sample((2,)), c.log_prob(torch.tensor(1)), c.entropy(), c.batch_shape,
             repr(c)]
    logits = torch.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
    c2 = D.Categorical(logits=logits)
    action = c2.sample()
    log_p = c2.log_prob(action)
    log_p.sum().backward()
    seen += [repr(c2), action, log_p, c2.probs, logits.grad, c2.entropy()]
    loc = torch.tensor([0.0, 1.0], requires_grad=True)
    scale = torch.tensor([1.0, 2.0], requires_grad=True)
    n = D.Normal(loc, scale)
    r = n.rsample((2,))
    r.sum().backward()
    seen += [repr(n), n.sample(), r, loc.grad, scale.grad, n.log_prob(torch.tensor([0.5, 0.5])), n.entropy(),
             n.mean, n.stddev, n.variance]
    standard = D.Normal(0.0, 1.0)
    b = D.Bernoulli(probs=torch.tensor([0.3, 0.9]))
    seen += [repr(standard), standard.sample(), standard.sample((3,)), repr(b), b.sample(),
             b.log_prob(torch.tensor([1.0, 0.0])), b.entropy(), repr(b),
             D.kl_divergence(n, D.Normal(torch.tensor([0.5, 0.0]), torch.tensor([1.5, 1.0]))),
             attempt(lambda: D.Normal(torch.tensor([0.0]), torch.tensor([-1.0])))]
    return seen


@program
def multinomial_draws_one_sample_by_exponentials(torch):
    """One sample (with replacement or not) takes torch's fast path, an exponential draw per
    weight; more samples with replacement a uniform each: the draws after them tell."""
    seen = []
    for weights, count in ((torch.tensor([[0.2, 0.5, 0.3]]), 1), (torch.tensor([[0.2, 0.5, 0.3]]), 2),
                           (torch.tensor([[0.3, 0.7], [0.8, 0.2]]), 1), (torch.tensor([0.2, 0.5, 0.3]), 1)):
        torch.manual_seed(0)
        seen += [torch.multinomial(weights, count, True), torch.randn(2)]
    torch.manual_seed(1)
    x = torch.ones(3, requires_grad=True) * 1.0
    return seen + [torch.empty(5).exponential_(), torch.empty(2, 2, dtype=torch.float64).exponential_(2.0),
                   torch.empty(3, 2).t().exponential_(), x.exponential_(), x.grad_fn.name(),
                   repr(torch.finfo(torch.float32)), torch.finfo().eps, torch.finfo(torch.float64).min,
                   torch.iinfo(torch.int64).max]


@program
def assert_close_verdicts_and_messages(torch):
    close = torch.testing.assert_close
    pairs = [(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.1, 3.0]), {}),
             (torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.0, 2.5], [3.2, 4.0]]), {}),
             (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]), {}),
             (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64), {}),
             (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.000001]), {}),
             (torch.tensor([1, 2]), torch.tensor([1, 3]), {}), (1.0, 1.1, {}),
             (torch.tensor(1.0), torch.tensor(1.5), {}),
             (torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), {}),
             (torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), {"equal_nan": True}),
             (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.2]), {"rtol": 0.2, "atol": 0}),
             (torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0]), {}),
             ([torch.tensor(1.0), torch.tensor(2.0)], [torch.tensor(1.0), torch.tensor(2.5)], {}),
             (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.2]), {"msg": "custom"}),
             (torch.tensor([0.0, 2.0]), torch.tensor([0.5, 2.0]), {}),
             (torch.tensor([3, 2]), torch.tensor([0, 2]), {})]
    return [attempt(lambda a=a, e=e, o=o: close(a, e, **o)) for a, e, o in pairs]


@program
def deprecated_spellings_still_in_use(torch):
    """torch.testing.assert_allclose (assert_close with its older tolerances, NaNs equal, lists
    taken as tensors; a FutureWarning each call), torch.cuda.amp.GradScaler (a FutureWarning,
    then torch.amp.GradScaler on "cuda"), torch.version.cuda on a CPU build."""
    checks = [attempt(lambda: torch.testing.assert_allclose(torch.tensor([1.0]), torch.tensor([1.00005]))),
              attempt(lambda: torch.testing.assert_allclose([1.0, 2.0], [1.0, 2.0])),
              attempt(lambda: torch.testing.assert_allclose(torch.tensor([1.0]), [1.1])),
              attempt(lambda: torch.testing.assert_allclose(torch.tensor([1.0, float("nan")]),
                                                            torch.tensor([1.0, float("nan")])))]
    scaler = torch.cuda.amp.GradScaler(enabled=False)
    return checks + [scaler.is_enabled(), torch.version.cuda]


@program
def uniform_exponential_and_laplace(torch):
    """Uniform, Exponential and Laplace: reparameterised draws from the default generator as
    torch makes them (rand, exponential_, uniform_ in [eps - 1, 1)), their gradients to the
    parameters, log_prob, entropy, cdf, moments, plain samples and printouts."""
    D = torch.distributions
    torch.manual_seed(0)
    lo, hi = torch.tensor([0.0, -1.0], requires_grad=True), torch.tensor([2.0, 3.0], requires_grad=True)
    rate = torch.tensor([0.5, 2.0], requires_grad=True)
    loc, scale = torch.tensor([0.0, 1.0], requires_grad=True), torch.tensor([1.0, 0.5], requires_grad=True)
    seen = []
    parameters = [lo, hi, rate, loc, scale]
    made = ((D.Uniform(lo, hi), (3,)), (D.Exponential(rate), (2,)), (D.Laplace(loc, scale), (4,)))
    for dist, shape in made:
        draw = dist.rsample(shape)
        seen += [repr(dist), draw, dist.log_prob(draw.detach()), dist.entropy(), dist.mean, dist.stddev,
                 dist.variance, torch.autograd.grad(draw.sum(), parameters, allow_unused=True)]
    return seen + [D.Uniform(lo, hi).cdf(torch.tensor([1.0, 2.5])),
                   D.Exponential(rate).cdf(torch.tensor([1.0, 1.0])),
                   D.Uniform(0.0, 1.0).sample((2,)), D.Exponential(3.0).sample(),
                   D.Laplace(0.0, 2.0).sample((2,))]


@program
def independent_and_multivariate_normals(torch):
    """Independent(Normal, 1) (a diagonal Gaussian policy) and MultivariateNormal from a
    covariance, a scale_tril (batched loc) and a precision matrix: reparameterised draws from
    torch's generator, log_prob, entropy, the moments, gradients to loc, scale and covariance;
    Bernoulli's and Categorical's mean, mode and variance; a missing matrix refused."""
    D = torch.distributions
    torch.manual_seed(0)
    mu = torch.tensor([0.5, -1.0], requires_grad=True)
    std = torch.tensor([1.0, 0.5], requires_grad=True)
    diagonal = D.Independent(D.Normal(mu, std), 1)
    action = diagonal.rsample()
    seen = [repr(diagonal), diagonal.batch_shape, diagonal.event_shape, action, diagonal.log_prob(action),
            diagonal.entropy(), diagonal.mean, diagonal.variance]
    cov = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
    full = D.MultivariateNormal(mu, covariance_matrix=cov)
    draws = full.rsample((3,))
    log_prob = full.log_prob(draws)
    seen += [repr(full), draws, log_prob, full.entropy(), full.variance, full.scale_tril]
    (log_prob.sum() + diagonal.log_prob(action) + diagonal.entropy() + full.entropy()).backward()
    batched = D.MultivariateNormal(torch.zeros(3, 2), scale_tril=torch.diag(torch.tensor([1.0, 2.0])))
    precise = D.MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
    seen += [mu.grad, std.grad, cov.grad, batched.batch_shape, batched.log_prob(torch.ones(3, 2)),
             batched.entropy(), batched.sample().shape, batched.covariance_matrix.shape, precise.scale_tril,
             precise.log_prob(torch.tensor([0.3, -0.2])), attempt(lambda: D.MultivariateNormal(mu))]
    coin = D.Bernoulli(probs=torch.tensor([0.3, 0.5, 0.9]))
    dice = D.Categorical(logits=torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.1, 3.0]]))
    return seen + [coin.mean, coin.mode, coin.variance, coin.stddev, dice.mean, dice.mode, dice.variance]


@program
def gamma_dirichlet_beta_poisson_lognormal_one_hot(torch):
    """The exponential families torch composes in Python: log_prob, moments, entropy and their
    gradients, a log-normal's and a one-hot categorical's draws (through the normal and the
    categorical), and KL between two of one kind; the gamma family's own sampling kernels are
    left out (the reference refuses them by name)."""
    D = torch.distributions
    torch.manual_seed(0)
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([1.5, 0.5], requires_grad=True)
    beta = D.Beta(a, b)
    log_prob = beta.log_prob(torch.tensor([0.3, 0.7]))
    log_prob.sum().backward()
    c = torch.tensor([2.0], requires_grad=True)
    gamma = D.Gamma(c, torch.tensor([3.0]))
    dirichlet = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
    poisson = D.Poisson(torch.tensor([4.0, 1.5]))
    log_normal = D.LogNormal(torch.tensor([0.0]), torch.tensor([1.0]))
    one_hot = D.OneHotCategorical(probs=torch.tensor([0.2, 0.3, 0.5]))
    kl_gamma = D.kl_divergence(gamma, D.Gamma(torch.tensor([1.0]), torch.tensor([1.0])))
    kl_gamma.sum().backward()
    return [log_prob, beta.mean, beta.variance, beta.entropy(), repr(beta), a.grad, b.grad,
            gamma.log_prob(torch.tensor([0.5])), gamma.mean, gamma.variance, gamma.entropy(),
            repr(D.Gamma(2.0, 3.0)), dirichlet.log_prob(torch.tensor([0.2, 0.3, 0.5])), dirichlet.mean,
            dirichlet.variance, dirichlet.entropy(), repr(dirichlet),
            poisson.log_prob(torch.tensor([3.0, 0.0])), poisson.mode, repr(poisson),
            log_normal.log_prob(torch.tensor([1.5])), log_normal.mean, log_normal.variance,
            log_normal.entropy(), log_normal.sample((2,)), repr(log_normal),
            one_hot.log_prob(torch.tensor([0.0, 1.0, 0.0])), one_hot.entropy(), one_hot.sample((3,)),
            repr(one_hot), kl_gamma, c.grad,
            D.kl_divergence(D.Beta(torch.tensor([2.0]), torch.tensor([3.0])),
                            D.Beta(torch.tensor([1.0]), torch.tensor([1.0]))),
            D.kl_divergence(poisson, D.Poisson(torch.tensor([2.0, 2.0]))),
            D.kl_divergence(dirichlet, D.Dirichlet(torch.tensor([1.0, 1.0, 1.0]))),
            D.Beta(2.0, 3.0).log_prob(torch.tensor(0.4)), D.Beta(2.0, 3.0).concentration1]
