import paddle

a = paddle.ones([2, 1, 2, 3])
a.stop_gradient = False
b = paddle.ones([3, 3, 2])
b.stop_gradient = False
paddle.matmul(a, b.expand([2, 3, 3, 2])).sum().backward()
print(list(b.grad.shape), b.grad.sum().item())
