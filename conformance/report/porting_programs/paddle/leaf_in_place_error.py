import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
if x.is_leaf and not x.stop_gradient:
    print("refused")
else:
    x.add_(paddle.to_tensor(1.0))
with paddle.no_grad():
    x.add_(paddle.to_tensor(1.0))
print(x.tolist())
