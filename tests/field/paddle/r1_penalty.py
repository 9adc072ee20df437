"""StyleGAN2's R1 regulariser as PaddleGAN's StyleGAN2 model computes it (``r1_penalty`` in
``ppgan/models/styleganv2_model.py``): ``paddle.grad(outputs=real_pred.sum(),
inputs=real_img, create_graph=True)``, the squared gradient summed per sample and
``(grad_real ** 2).reshape([n, -1]).sum(1).mean()``, added to the discriminator loss. Changed:
a linear-softplus discriminator with fixed weights and fixed images."""

import paddle
import paddle.nn.functional as F

weight = paddle.to_tensor([[0.5, 0.3], [-0.25, 0.2], [0.125, -0.4], [1.0, 0.1]], stop_gradient=False)
real_img = paddle.to_tensor([[0.1, 0.2, 0.3, 0.4], [-0.5, 0.5, -0.5, 0.5], [1.0, 0.0, -1.0, 0.0]])
real_img.stop_gradient = False
real_pred = F.softplus(paddle.matmul(real_img, weight)).sum(axis=1, keepdim=True)
grad_real, = paddle.grad(outputs=real_pred.sum(), inputs=real_img, create_graph=True)
grad_penalty = grad_real.pow(2).reshape([grad_real.shape[0], -1]).sum(1).mean()
print("grad_real", grad_real)
print("penalty", grad_penalty)
d_loss = F.softplus(-real_pred).mean() + 10 / 2 * grad_penalty
d_loss.backward()
print("weight.grad", weight.grad)
print("real_img.grad", real_img.grad)
