"""WGAN-GP's gradient penalty as PaddleGAN writes it (``ppgan/models/criterions/gan_loss.py``,
``GANLoss``'s gradient penalty for the ``wgangp`` mode): interpolate real and fake samples,
``paddle.grad`` of the critic's output at the interpolates with ``create_graph=True`` and
``retain_graph=True``, the L2 norm of each row's gradient, ``((norm - 1) ** 2).mean()``, then
the critic step. Changed: a small critic with fixed weights, fixed samples and weights."""

import paddle
import paddle.nn as nn

critic = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1))
critic[0].weight.set_value(paddle.linspace(-0.6, 0.6, 12).reshape([3, 4]))
critic[0].bias.set_value(paddle.full([4], 0.05))
critic[2].weight.set_value(paddle.to_tensor([[0.3], [-0.2], [0.5], [0.1]]))

real = paddle.to_tensor([[1.0, 0.5, -0.5], [0.2, -1.0, 0.7]])
fake = paddle.to_tensor([[-0.3, 0.8, 0.1], [0.9, 0.4, -0.6]])
alpha = paddle.to_tensor([[0.25], [0.75]])
interpolatesv = alpha * real + ((1 - alpha) * fake)
interpolatesv.stop_gradient = False
disc_interpolates = critic(interpolatesv)
gradients = paddle.grad(outputs=disc_interpolates, inputs=interpolatesv,
                        grad_outputs=paddle.ones(disc_interpolates.shape),
                        create_graph=True, retain_graph=True, only_inputs=True)
gradients = paddle.reshape(gradients[0], [real.shape[0], -1])
gradient_penalty = ((gradients.norm(2, axis=1) - 1) ** 2).mean()
print("gradients", gradients)
print("penalty", gradient_penalty)

optimizer = paddle.optimizer.Adam(learning_rate=0.01, beta1=0.5, beta2=0.9,
                                  parameters=critic.parameters())
d_loss = -paddle.mean(critic(real)) + paddle.mean(critic(fake)) + 10 * gradient_penalty
d_loss.backward()
for name, p in critic.named_parameters():
    print(name, p.grad)
optimizer.step()
optimizer.clear_grad()
print("after step", critic[0].weight)
print("cleared", critic[0].weight.grad)
