import paddle

lin = paddle.nn.Linear(2, 1, bias_attr=False)
lin.weight.set_value(paddle.to_tensor([[0.5, -1.0]]).T)
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
(lin(x) ** 2).sum().backward()
print(list(lin.weight.grad.T.shape), lin.weight.grad.T.flatten().tolist())
