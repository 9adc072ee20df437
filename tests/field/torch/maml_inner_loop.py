"""MAML's inner loop (Finn et al., 2017) as dragen1860/MAML-Pytorch's ``meta.py`` writes it: the
learner runs with an explicit list of fast weights, ``autograd.grad`` of the support loss gives
their gradients, the fast weights are ``w - lr * g`` (kept in the graph), and the query loss
differentiated back to the initial weights is the meta-gradient. Changed: a one-layer learner,
two tasks with fixed data, two inner steps, SGD as the meta-optimizer."""

import torch
import torch.nn.functional as F

w = torch.nn.Parameter(torch.tensor([[0.2, -0.1], [0.4, 0.3], [-0.2, 0.5]]))
b = torch.nn.Parameter(torch.zeros(3))
meta_optim = torch.optim.SGD([w, b], lr=0.1)

tasks = [
    (torch.tensor([[1.0, 0.0], [0.0, 1.0]]), torch.tensor([0, 2]),
     torch.tensor([[0.5, 0.5], [1.0, -1.0]]), torch.tensor([1, 0])),
    (torch.tensor([[0.3, 0.7], [-0.4, 0.2]]), torch.tensor([1, 1]),
     torch.tensor([[0.1, -0.9], [0.6, 0.6]]), torch.tensor([2, 1])),
]


def learner(x, vars):
    return F.linear(x, vars[0], vars[1])


losses_q = 0
for x_spt, y_spt, x_qry, y_qry in tasks:
    logits = learner(x_spt, [w, b])
    loss = F.cross_entropy(logits, y_spt)
    grad = torch.autograd.grad(loss, [w, b], create_graph=True)
    fast_weights = list(map(lambda p: p[1] - 0.4 * p[0], zip(grad, [w, b])))
    for _ in range(1):
        loss = F.cross_entropy(learner(x_spt, fast_weights), y_spt)
        grad = torch.autograd.grad(loss, fast_weights, create_graph=True)
        fast_weights = list(map(lambda p: p[1] - 0.4 * p[0], zip(grad, fast_weights)))
    loss_q = F.cross_entropy(learner(x_qry, fast_weights), y_qry)
    losses_q = losses_q + loss_q
    with torch.no_grad():
        pred_q = F.softmax(learner(x_qry, fast_weights), dim=1).argmax(dim=1)
        print("correct", torch.eq(pred_q, y_qry).sum().item())

loss_q = losses_q / len(tasks)
meta_optim.zero_grad()
loss_q.backward()
print("meta loss", round(loss_q.item(), 5))
print("w.grad", w.grad)
print("b.grad", b.grad)
meta_optim.step()
print("w", w)
