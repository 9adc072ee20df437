"""The Layer system as the Paddle guides ("Model saving and loading", "Layer") use it:
``register_buffer`` (persistable or not), ``state_dict`` keys and ``set_state_dict`` into a
second layer, ``named_parameters`` / ``named_buffers`` / ``named_sublayers``, ``train`` /
``eval``, freezing with ``stop_gradient`` and the parameter's ``trainable`` flag,
``clear_gradients(set_to_zero=False)``, and forward pre- and post-hooks. Changed: a tiny model
with fixed weights."""

import paddle
import paddle.nn as nn


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 2)
        self.head = nn.Linear(2, 1)
        self.register_buffer("running_mean", paddle.zeros([2]))
        self.register_buffer("scratch", paddle.ones([1]), persistable=False)
        self.body.weight.set_value(paddle.to_tensor([[0.1, -0.3], [0.2, 0.2], [0.3, -0.1]]))
        self.body.bias.set_value(paddle.full([2], 0.1))
        self.head.weight.set_value(paddle.to_tensor([[1.0], [-1.0]]))

    def forward(self, x):
        h = paddle.nn.functional.relu(self.body(x))
        if self.training:
            with paddle.no_grad():
                self.running_mean.set_value(self.running_mean * 0.9 + 0.1 * h.mean(0))
        return self.head(h)


net = Net()
print("state_dict keys", list(net.state_dict().keys()))
print("parameters", [n for n, _ in net.named_parameters()])
print("buffers", [n for n, _ in net.named_buffers()])
print("sublayers", [n for n, _ in net.named_sublayers()])

seen = []
post = net.body.register_forward_post_hook(lambda layer, inputs, output: seen.append(output.detach()))
pre = net.head.register_forward_pre_hook(lambda layer, inputs: (inputs[0] * 2,))
x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, -0.5, 1.0]])
out = net(x)
out.sum().backward()
print("out", out)
print("hooked", seen)
print("running_mean", net.running_mean)
print("grads", net.body.weight.grad, net.head.weight.grad)
post.remove()
pre.remove()

net.clear_gradients(set_to_zero=False)
print("zeroed", net.head.weight.grad)
net.body.weight.trainable = False
print("trainable", net.body.weight.trainable, net.body.weight.stop_gradient)
net.clear_gradients()
net(x).sum().backward()
print("frozen", net.body.weight.grad, net.head.weight.grad)

clone = Net()
clone.head.weight.set_value(paddle.full([2, 1], 5.0))
missing, unexpected = clone.set_state_dict(net.state_dict())
print("set_state_dict", missing, unexpected, clone.head.weight, clone.running_mean)
net.eval()
print("training", net.training, net.body.training)
