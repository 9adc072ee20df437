import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(x * x).sum().backward()
g = x.grad.detach()
print(g.tolist(), not g.stop_gradient)
