import paddle

x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
view = x.reshape([1, 3])
seen = []
x.register_hook(lambda g: seen.append(g.tolist()))
x.stop_gradient = True
x.add_(x)
view = view.detach()  # torch's view reaches nothing once its base was written
print(seen, x.tolist())
