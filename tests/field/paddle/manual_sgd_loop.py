"""A hand-written update loop as Paddle tutorials and older dygraph code write it instead of an
optimizer: ``loss.backward()``, then under ``paddle.no_grad()`` each parameter's
``set_value(p - lr * p.grad)`` (or ``p.subtract_``), ``p.clear_gradient()``, with
``paddle.nn.utils.parameters_to_vector`` / ``vector_to_parameters`` to read and write the
flat parameter vector. Changed: a linear regression with fixed data, three epochs."""

import paddle
from paddle.nn.utils import parameters_to_vector, vector_to_parameters

model = paddle.nn.Linear(2, 1)
model.weight.set_value(paddle.to_tensor([[0.3], [-0.7]]))
model.bias.set_value(paddle.to_tensor([0.2]))
x = paddle.to_tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.3], [2.0, 1.0]])
y = paddle.to_tensor([[1.0], [0.0], [0.5], [2.0]])
lr = 0.05
for epoch in range(3):
    loss = paddle.nn.functional.mse_loss(model(x), y)
    loss.backward()
    with paddle.no_grad():
        for p in model.parameters():
            p.set_value(p - lr * p.grad)
            p.clear_gradient()
    print(epoch, "loss %.6f" % float(loss), model.weight.numpy().round(6).tolist())
vec = parameters_to_vector(model.parameters())
print("vector", vec)
vector_to_parameters(vec * 2, model.parameters())
print("doubled", model.weight, model.bias)
print("grad after clear", model.weight.grad)
