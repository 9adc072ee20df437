import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
seen = []
(x * 3).sum().backward()
seen.append(x.grad.tolist())
print(seen)
