"""StyleGAN2's R1 regulariser (Mescheder et al., 2018), as ``training/loss.py`` of
NVlabs/stylegan2-ada-pytorch computes it: the squared gradient of the discriminator's logits
with respect to the real images, ``requires_grad_`` on a detached copy, ``autograd.grad`` with
``create_graph=True`` and ``only_inputs=True``, summed over all but the batch dimension. Changed:
a tiny linear-softplus discriminator with fixed weights and fixed images."""

import torch

weight = torch.tensor([[0.5, -0.25, 0.125, 1.0], [0.3, 0.2, -0.4, 0.1]], requires_grad=True)
real_img = torch.tensor([[0.1, 0.2, 0.3, 0.4], [-0.5, 0.5, -0.5, 0.5], [1.0, 0.0, -1.0, 0.0]])

real_img_tmp = real_img.detach().requires_grad_(True)
real_logits = torch.nn.functional.softplus(real_img_tmp @ weight.t()).sum(dim=1, keepdim=True)
loss_Dreal = torch.nn.functional.softplus(-real_logits)
r1_grads = torch.autograd.grad(outputs=[real_logits.sum()], inputs=[real_img_tmp],
                               create_graph=True, only_inputs=True)[0]
r1_penalty = r1_grads.square().sum([1])
loss_Dr1 = r1_penalty * (10.0 / 2)
print("r1 grads", r1_grads)
print("penalty", r1_penalty)
(loss_Dreal + loss_Dr1).mean().mul(1.0).backward()
print("weight.grad", weight.grad)
print("real_img_tmp.grad", real_img_tmp.grad)
