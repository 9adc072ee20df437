"""The divergence, similarity and margin losses (kl_div with torch's warning for "mean",
cosine_similarity, huber, margin ranking, softmin), Unflatten, and the parameter containers
(ParameterList, ParameterDict): values, gradients, node names, registration and printouts."""

from __future__ import annotations

import warnings

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def kl_divergence_and_similarity_losses(torch):
    F = torch.nn.functional
    x = torch.tensor([[-1.0, -2.0, -0.5], [-0.3, -1.2, -2.2]], requires_grad=True)
    t = torch.tensor([[0.2, 0.0, 0.8], [0.5, 0.25, 0.25]], requires_grad=True)
    seen = []
    for reduction in ("batchmean", "sum", "none", "mean"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = F.kl_div(x, t, reduction=reduction)
        seen += [y, y.grad_fn.name(), torch.autograd.grad(y.sum(), [x, t]), [str(w.message) for w in caught]]
    y = F.kl_div(x, t, reduction="sum", log_target=True)
    seen += [y, torch.autograd.grad(y, [x, t]), repr(torch.nn.KLDivLoss(reduction="batchmean"))]
    a = torch.tensor([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
    b = torch.tensor([[2.0, -1.0, 1.0], [1.0, 1.0, 0.0]], requires_grad=True)
    c = F.cosine_similarity(a, b)
    seen += [c, c.grad_fn.name(), torch.autograd.grad(c.sum(), [a, b]),
             torch.nn.CosineSimilarity(dim=0)(a, b[0:1])]
    h = F.huber_loss(a, b, delta=0.5, reduction="none")
    seen += [h, F.huber_loss(a, b).grad_fn.name(),
             torch.autograd.grad(torch.nn.HuberLoss(delta=1.0)(a, b), a)]
    m = F.margin_ranking_loss(a[0], b[0], torch.tensor([1.0, -1.0, 1.0]), margin=0.5)
    seen += [m, torch.autograd.grad(m, a),
             torch.nn.MarginRankingLoss(0.2, reduction="sum")(a[1], b[1], -torch.ones(3))]
    s = F.softmin(a, 1)
    return seen + [s, s.grad_fn.name(), torch.nn.Softmin(dim=0)(a), repr(torch.nn.Softmin(1))]


@program
def unflatten_and_parameter_containers(torch):
    a = torch.arange(6.0, requires_grad=True)
    u = torch.nn.Unflatten(0, (2, 3))(a)
    plist = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2, 3)), torch.ones(3)])
    plist.append(torch.zeros(1))
    pdict = torch.nn.ParameterDict({"a": torch.nn.Parameter(torch.ones(2)), "b": torch.zeros(1)})
    pdict["c"] = torch.full((2,), 3.0)

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weights = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(1))])
            self.scales = torch.nn.ParameterDict({"x": torch.nn.Parameter(torch.full((1,), 2.0))})

        def forward(self, x):
            return x * self.weights[0] * self.scales["x"]

    model = Model()
    model(torch.tensor([3.0])).sum().backward()
    return [u, u.grad_fn.name(), repr(torch.nn.Unflatten(1, (2, 3))), repr(plist), len(plist),
            [type(p).__name__ for p in plist], [n for n, _ in plist.named_parameters()], repr(pdict),
            list(pdict.keys()), "c" in pdict, repr(model), [(n, p.grad) for n, p in model.named_parameters()]]


@program
def layer_classes_by_their_module_paths(torch):
    """torch.nn.modules.<file>.<Class> is the class torch.nn names (isinstance checks, imports
    by path), and a custom loss subclasses torch.nn.modules.loss._Loss: its reduction, the
    legacy size_average / reduce flags folded in with torch's warning, _WeightedLoss's buffer."""
    paths = torch.nn.modules
    same = [paths.linear.Linear is torch.nn.Linear, paths.conv.Conv2d is torch.nn.Conv2d,
            paths.container.Sequential is torch.nn.Sequential, paths.activation.ReLU is torch.nn.ReLU,
            paths.loss.MSELoss is torch.nn.MSELoss, paths.rnn.LSTM is torch.nn.LSTM,
            isinstance(torch.nn.Linear(2, 2), paths.module.Module)]

    class Squared(paths.loss._Loss):
        def forward(self, a, b):
            error = (a - b) ** 2
            return error.mean() if self.reduction == "mean" else error.sum()

    a, b = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([0.5, 3.0])
    loss = Squared(reduce=True, size_average=False)
    value = loss(a, b)
    value.backward()
    weighted = paths.loss._WeightedLoss(torch.tensor([2.0, 1.0]))
    return same + [loss.reduction, value, a.grad, repr(Squared()), weighted.weight,
                   list(dict(weighted.named_buffers())), weighted.reduction]


@program
def composite_losses_rms_norm_and_celu(torch):
    """RMSNorm (its default eps the dtype's epsilon, a weight of ones) to second order, CELU,
    and the soft-margin, hinge-embedding, Poisson and Gaussian NLL, multi-label soft-margin and
    multi-margin losses as modules (settings, weights, reductions, printouts): values, node
    names and gradients, and the refusals."""
    nn = torch.nn
    x = torch.tensor([[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, -2.0], [3.0, 1.0, -2.0, 0.5]],
                     requires_grad=True)
    signs = torch.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0]])
    counts = torch.tensor([[0.0, 1.0, 3.0, 2.0], [1.0, 0.0, 2.0, 5.0], [4.0, 1.0, 0.0, 1.0]])
    norm = nn.RMSNorm(4)
    y = norm(x)
    g, = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
    seen = [y, y.grad_fn.name(), g, torch.autograd.grad(g.sum(), [x, norm.weight]),
            nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False)(x), nn.CELU(0.5)(x), repr(norm)]
    losses = [nn.SoftMarginLoss(), nn.SoftMarginLoss(reduction="sum"), nn.HingeEmbeddingLoss(margin=1.5),
              nn.HingeEmbeddingLoss(reduction="none"), nn.PoissonNLLLoss(),
              nn.PoissonNLLLoss(log_input=False, full=True),
              nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0])), nn.MultiMarginLoss(),
              nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1.0, 0.5, 2.0, 1.0]),
                                 reduction="none")]
    targets = [signs, signs, signs, signs, counts, counts + 0.5, (signs > 0).float(), torch.tensor([0, 3, 1]),
               torch.tensor([2, 2, 0])]
    for loss, target in zip(losses, targets):
        value = loss(x.exp() if isinstance(loss, nn.PoissonNLLLoss) and not loss.log_input else x, target)
        seen += [value, value.grad_fn.name(), torch.autograd.grad(value.sum(), x), repr(loss)]
    gaussian = nn.GaussianNLLLoss(full=True)
    variance = torch.tensor([[0.5], [1e-9], [2.0]], requires_grad=True)
    value = gaussian(x, counts, variance)
    seen += [value, torch.autograd.grad(value, [x, variance]), nn.GaussianNLLLoss()(x, counts, 0.5),
             attempt(lambda: gaussian(x, counts, torch.ones(2))), attempt(lambda: nn.MultiMarginLoss(p=3))]
    return seen
