"""Sliced score matching (Song et al., 2019) in paddle, the loss of
ermongroup/sliced_score_matching's ``sliced_score_estimation_vr``: the score network's output
dotted with projections, its gradient with respect to the samples by ``paddle.grad`` with
``create_graph=True``, ``loss1 + loss2`` averaged, one Adam step. Changed: fixed projections, a
linear-tanh score network with fixed weights."""

import paddle

net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 2))
net[0].weight.set_value(paddle.to_tensor([[0.5, 0.25, -1.0], [-0.5, 0.75, 0.5]]))
net[0].bias.set_value(paddle.to_tensor([0.1, 0.0, -0.1]))
net[2].weight.set_value(paddle.to_tensor([[0.3, 0.4], [-0.6, 0.1], [0.2, -0.3]]))
optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())

samples = paddle.to_tensor([[0.5, 1.0], [-1.0, 0.2], [0.3, -0.7]])
dup_samples = samples.unsqueeze(0).expand([1, 3, 2]).reshape([-1, 2])
dup_samples.stop_gradient = False
vectors = paddle.to_tensor([[1.0, -1.0], [0.5, 0.5], [-0.2, 1.0]])
grad1 = net(dup_samples)
gradv = paddle.sum(grad1 * vectors)
loss1 = paddle.sum(grad1 * vectors, axis=-1) ** 2 * 0.5
grad2, = paddle.grad(gradv, dup_samples, create_graph=True)
loss2 = paddle.sum(vectors * grad2, axis=-1)
loss = (loss1 + loss2).mean()
loss.backward()
print("loss", loss)
print("grad2", grad2)
print("grads", [p.grad for p in net.parameters()])
optimizer.step()
print("after", net[2].weight)
