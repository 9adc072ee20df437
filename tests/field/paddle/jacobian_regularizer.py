"""The Jacobian regulariser of Hoffman, Roberts and Yaida (2019) written for paddle as the
reference implementation (facebookresearch/jacobian_regularizer) computes it: projections of the
output, ``paddle.grad(flat_y, x, flat_v, retain_graph=True, create_graph=True)`` for each,
the squared Frobenius estimate added to the loss and trained through. Changed: fixed
projections, a tiny network and batch."""

import paddle
import paddle.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
for i, p in enumerate(model.parameters()):
    p.set_value(paddle.linspace(-0.5, 0.5, int(p.numel())).reshape(p.shape) * (1 + 0.1 * i))

data = paddle.to_tensor([[0.2, -0.4, 0.6], [1.0, 0.5, -0.5]], stop_gradient=False)
target = paddle.to_tensor([1, 0])
output = model(data)
loss_super = nn.CrossEntropyLoss()(output, target)
C = output.shape[1]
projections = [paddle.to_tensor([[1.0, 0.0], [0.6, 0.8]]), paddle.to_tensor([[0.0, 1.0], [-0.8, 0.6]])]
J2 = 0
for v in projections:
    Jv, = paddle.grad(output.reshape([-1]), data, v.reshape([-1]), retain_graph=True,
                      create_graph=True)
    J2 += C * paddle.norm(Jv) ** 2 / (len(projections) * data.shape[0])
R = 0.5 * J2
loss = loss_super + 0.01 * R
loss.backward()
print("R", R)
print("loss", loss)
print("grads", [p.grad for p in model.parameters()])
print("data.grad", data.grad)
