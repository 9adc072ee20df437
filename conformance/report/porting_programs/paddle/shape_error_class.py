import paddle

a = paddle.ones([2, 3])
b = paddle.ones([4])
try:
    a + b
except ValueError:
    print("refused")
