"""WGAN-GP's gradient penalty (Gulrajani et al., 2017), as PyTorch-GAN's ``wgan_gp.py``
(eriklindernoren/PyTorch-GAN) and many critics compute it: interpolate real and fake samples,
differentiate the critic at the interpolates with ``create_graph=True`` and penalise the
gradient norm's distance from 1. Changed: a small critic with fixed weights, fixed samples and
interpolation weights instead of random ones, one critic step."""

import torch
import torch.nn as nn
from torch import autograd

critic = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1))
with torch.no_grad():
    critic[0].weight.copy_(torch.linspace(-0.6, 0.6, 12).view(4, 3))
    critic[0].bias.fill_(0.05)
    critic[2].weight.copy_(torch.tensor([[0.3, -0.2, 0.5, 0.1]]))
    critic[2].bias.zero_()

real = torch.tensor([[1.0, 0.5, -0.5], [0.2, -1.0, 0.7]])
fake = torch.tensor([[-0.3, 0.8, 0.1], [0.9, 0.4, -0.6]])
alpha = torch.tensor([[0.25], [0.75]])
interpolates = (alpha * real + ((1 - alpha) * fake)).requires_grad_(True)
d_interpolates = critic(interpolates)
fake_out = torch.ones(real.shape[0], 1).fill_(1.0)
gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake_out,
                          create_graph=True, retain_graph=True, only_inputs=True)[0]
gradients = gradients.view(gradients.size(0), -1)
gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
print("gradients", gradients)
print("penalty", gradient_penalty)

optimizer = torch.optim.Adam(critic.parameters(), lr=0.01, betas=(0.5, 0.9))
optimizer.zero_grad()
d_loss = -torch.mean(critic(real)) + torch.mean(critic(fake)) + 10 * gradient_penalty
d_loss.backward()
for name, p in critic.named_parameters():
    print(name, p.grad)
optimizer.step()
print("after step", critic[0].weight)
print("interpolates.grad", interpolates.grad)
