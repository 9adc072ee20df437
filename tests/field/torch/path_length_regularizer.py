"""StyleGAN2's path length regulariser (Karras et al., 2020), as ``training/loss.py`` of
NVlabs/stylegan2-ada-pytorch computes it: noise scaled by ``1/sqrt(H*W)``, ``autograd.grad`` of
``(img * noise).sum()`` with respect to the latents with ``create_graph=True`` and
``only_inputs=True``, path lengths ``grad.square().sum(2).mean(1).sqrt()``, a running mean
moved by ``lerp`` under ``no_grad``, and the penalty's backward into the generator. Changed: a
linear "generator" with fixed weights, fixed latents and noise instead of random ones, two steps."""

import numpy as np
import torch

W = torch.nn.Parameter(torch.tensor(np.linspace(-0.5, 0.5, 12, dtype=np.float32).reshape(3, 4)))
pl_mean = torch.zeros([])
pl_decay = 0.01
for step in range(2):
    ws = torch.tensor([[[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]], [[-0.7, 0.8, 0.9], [1.0, -1.1, 1.2]]],
                      requires_grad=True)
    img = torch.tanh(ws @ W).view(2, 1, 2, 4)
    pl_noise = torch.tensor(np.cos(np.arange(16.0)).reshape(2, 1, 2, 4), dtype=torch.float32) / np.sqrt(
        img.shape[2] * img.shape[3])
    pl_grads = torch.autograd.grad(outputs=[(img * pl_noise).sum()], inputs=[ws], create_graph=True,
                                   only_inputs=True)[0]
    pl_lengths = pl_grads.square().sum(2).mean(1).sqrt()
    pl_mean_new = pl_mean.lerp(pl_lengths.mean(), pl_decay)
    pl_mean.copy_(pl_mean_new.detach())
    pl_penalty = (pl_lengths - pl_mean).square()
    loss_Gpl = pl_penalty * 2.0
    loss_Gpl.mean().mul(4).backward()
    print(step, "lengths", pl_lengths, "mean", pl_mean)
    print(" W.grad", W.grad)
    W.grad = None
