"""paddle.distribution (Normal, Categorical, kl_divergence) and paddle.multinomial, drawing by
paddle's generator: a normal's sample carries gradients to loc and scale; a categorical
samples the softmax of its logits but normalises them by their sum for probs and log_prob."""

from __future__ import annotations

from tests.programs.registry import paddle_program as program


@program
def normal_and_categorical_draw_and_differentiate(paddle):
    D = paddle.distribution
    paddle.seed(0)
    loc = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    scale = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    n = D.Normal(loc, scale)
    s, r = n.sample([3]), n.rsample([2])
    (s.sum() + r.sum()).backward()
    value = paddle.to_tensor([0.5, 0.5])
    seen = [s, r, loc.grad, scale.grad, n.entropy(), n.log_prob(value), n.probs(value), n.mean, n.variance]
    standard = D.Normal(0.0, 1.0)
    seen += [standard.sample([3]), standard.sample().shape,
             n.kl_divergence(D.Normal(paddle.to_tensor([0.5, 0.0]), paddle.to_tensor([1.5, 1.0]))),
             D.kl_divergence(n, D.Normal(0.5, 1.5))]
    logits = paddle.to_tensor([0.2, 0.5, 0.3], stop_gradient=False)
    c = D.Categorical(logits)
    action = c.sample([4])
    log_p = c.log_prob(action)
    log_p.sum().backward()
    seen += [action, log_p, logits.grad, c.entropy(), c.probs(paddle.to_tensor([0, 2]))]
    batch = D.Categorical(paddle.to_tensor([[1.0, 2.0], [0.5, 3.0]]))
    other = D.Categorical(paddle.to_tensor([[1.0, 1.0], [2.0, 1.0]]))
    seen += [batch.sample([2]), batch.sample(), batch.log_prob(paddle.to_tensor([1, 0])),
             batch.kl_divergence(other)]
    weights = paddle.to_tensor([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]])
    return seen + [paddle.multinomial(weights, 3, True), paddle.multinomial(weights[0]), paddle.rand([2])]


@program
def uniform_distribution(paddle):
    """paddle.distribution.Uniform of numbers (samples reshaped to the sample shape), of tensors
    (gradients of entropy and log_prob to both bounds) and of lists: draws from paddle's
    generator, log_prob and probs inside and outside the interval, entropy."""
    uniform = paddle.distribution.Uniform
    paddle.seed(2)
    numbers = uniform(0.0, 2.0)
    seen = [numbers.sample([3]), numbers.log_prob(paddle.to_tensor([1.0, 3.0])),
            numbers.probs(paddle.to_tensor([1.0, -1.0])), numbers.entropy()]
    low = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    high = paddle.to_tensor([1.0, 4.0], stop_gradient=False)
    bounded = uniform(low, high)
    drawn = bounded.sample([2])
    (bounded.entropy().sum() + bounded.log_prob(paddle.to_tensor([0.5, 2.0])).sum()).backward()
    return seen + [drawn, drawn.stop_gradient, low.grad, high.grad, uniform(1, 3).sample([2]).shape,
                   uniform([0.0, 1.0], [2.0, 3.0]).sample([2]).shape]


@program
def bernoulli_distribution_as_paddle_composes_it(paddle):
    """Bernoulli: probabilities clipped into (eps, 1 - eps), logits, moments, log_prob and
    entropy (binary_cross_entropy_with_logits), cdf, prob, a relaxed rsample, sample and
    paddle.bernoulli by paddle's generator, and KL between two."""
    Bernoulli, kl_divergence = paddle.distribution.Bernoulli, paddle.distribution.kl_divergence
    paddle.seed(3)
    p = paddle.to_tensor([0.3, 0.9, 0.0, 1.0], stop_gradient=False)
    b = Bernoulli(p)
    value = paddle.to_tensor([1.0, 0.0, 1.0, 0.0])
    log_prob = b.log_prob(value)
    other = Bernoulli(paddle.to_tensor([0.5, 0.5, 0.5, 0.5]))
    kl = b.kl_divergence(other)
    (b.entropy().sum() + kl.sum()).backward()
    return [b.probs, b.logits, b.mean, b.variance, log_prob, log_prob.grad_fn.name(), b.prob(value),
            b.entropy(), b.cdf(paddle.to_tensor([-1.0, 0.5, 1.0, 2.0])), b.sample([2]),
            b.rsample([2], temperature=0.5), kl, kl_divergence(b, other), p.grad,
            Bernoulli(0.3).probs, Bernoulli(0.3).sample([3]),
            paddle.bernoulli(paddle.to_tensor([0.1, 0.5, 0.9], dtype="float64")),
            paddle.bernoulli(paddle.full([2, 3], 0.5))]
