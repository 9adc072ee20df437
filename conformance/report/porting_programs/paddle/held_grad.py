import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(x * 3).sum().backward()
held = x.grad.clone()
x.clear_grad()
print(held.tolist())
