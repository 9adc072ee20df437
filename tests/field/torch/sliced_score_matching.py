"""Sliced score matching (Song et al., 2019), as ermongroup/sliced_score_matching's
``sliced_score_estimation_vr`` writes the loss: the score network's output dotted with random
projections, its gradient with respect to the (``requires_grad_``) samples by ``autograd.grad``
with ``create_graph=True``, and ``loss1 + loss2`` averaged, trained with Adam. Changed: fixed
projections, a linear-tanh score network with fixed weights, one step."""

import torch

score_net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
with torch.no_grad():
    score_net[0].weight.copy_(torch.tensor([[0.5, -0.5], [0.25, 0.75], [-1.0, 0.5]]))
    score_net[0].bias.copy_(torch.tensor([0.1, 0.0, -0.1]))
    score_net[2].weight.copy_(torch.tensor([[0.3, -0.6, 0.2], [0.4, 0.1, -0.3]]))
    score_net[2].bias.zero_()
optimizer = torch.optim.Adam(score_net.parameters(), lr=0.01)

samples = torch.tensor([[0.5, 1.0], [-1.0, 0.2], [0.3, -0.7]])
n_particles = 1
dup_samples = samples.unsqueeze(0).expand(n_particles, *samples.shape).contiguous()
dup_samples = dup_samples.view(-1, *samples.shape[1:])
dup_samples.requires_grad_(True)
vectors = torch.tensor([[1.0, -1.0], [0.5, 0.5], [-0.2, 1.0]])

grad1 = score_net(dup_samples)
gradv = torch.sum(grad1 * vectors)
loss1 = torch.sum(grad1 * vectors, dim=-1) ** 2 * 0.5
grad2 = torch.autograd.grad(gradv, dup_samples, create_graph=True)[0]
loss2 = torch.sum(vectors * grad2, dim=-1)
loss1 = loss1.view(n_particles, -1).mean(dim=0)
loss2 = loss2.view(n_particles, -1).mean(dim=0)
loss = (loss1 + loss2).mean()
optimizer.zero_grad()
loss.backward()
print("loss", loss)
print("grad2", grad2)
print("grads", [p.grad for p in score_net.parameters()])
optimizer.step()
print("after", score_net[2].weight)
