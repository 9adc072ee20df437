"""MAML on sinusoid regression (Finn et al., 2017, section 5.1), as the Paddle MAML
implementations (PaddleFSL's ``maml``, the PaddlePaddle meta-learning examples) write the inner
loop: fast weights ``w - lr * g`` from ``paddle.grad(loss, params, create_graph=True)``, a second
inner step through them, the query loss, and the meta-gradient accumulated into the initial
parameters by ``backward``, then ``optimizer.step`` and ``clear_grad``. Changed: a 1-8-1 tanh
network with fixed weights, two tasks with fixed points; the loss summed and divided, as
paddle's mean reduction has no double grad."""

import numpy as np
import paddle

w1 = paddle.create_parameter([1, 8], "float32", default_initializer=paddle.nn.initializer.Assign(
    np.linspace(-1.0, 1.0, 8, dtype="float32").reshape(1, 8)))
b1 = paddle.create_parameter([8], "float32", is_bias=True)
w2 = paddle.create_parameter([8, 1], "float32", default_initializer=paddle.nn.initializer.Assign(
    np.cos(np.arange(8, dtype="float32")).reshape(8, 1)))
b2 = paddle.create_parameter([1], "float32", is_bias=True)
params = [w1, b1, w2, b2]
meta_optim = paddle.optimizer.Adam(learning_rate=0.01, parameters=params)


def learner(x, p):
    return paddle.matmul(paddle.tanh(paddle.matmul(x, p[0]) + p[1]), p[2]) + p[3]


def loss_fn(pred, y):
    return ((pred - y) ** 2).sum() / y.shape[0]


tasks = []
for amplitude, phase in ((1.0, 0.0), (2.0, 0.5)):
    xs = np.linspace(-2.0, 2.0, 5, dtype="float32").reshape(-1, 1)
    xq = np.linspace(-1.5, 1.5, 4, dtype="float32").reshape(-1, 1)
    tasks.append((paddle.to_tensor(xs), paddle.to_tensor(amplitude * np.sin(xs + phase)),
                  paddle.to_tensor(xq), paddle.to_tensor(amplitude * np.sin(xq + phase))))

for step in range(2):
    meta_loss = 0
    for x_spt, y_spt, x_qry, y_qry in tasks:
        fast = params
        for _ in range(2):
            grads = paddle.grad(loss_fn(learner(x_spt, fast), y_spt), fast, create_graph=True)
            fast = [p - 0.1 * g for p, g in zip(fast, grads)]
        meta_loss = meta_loss + loss_fn(learner(x_qry, fast), y_qry)
    meta_loss = meta_loss / len(tasks)
    meta_loss.backward()
    print(step, "meta loss %.5f" % float(meta_loss))
    print("w2.grad", w2.grad.numpy().round(5).tolist())
    meta_optim.step()
    meta_optim.clear_grad()
print("w1", w1.numpy().round(5).tolist())
