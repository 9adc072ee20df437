import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
seed = paddle.to_tensor([1.0, 1.0])
paddle.autograd.backward([x], [seed.clone()])
seed.scale_(5)
g = x.grad.clone().detach()
print(g.tolist(), g.grad_fn is None)
