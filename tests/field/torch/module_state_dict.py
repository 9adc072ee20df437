"""The module system as the PyTorch tutorials ("What is a state_dict", "Saving and loading
models", "Module hooks") use it: ``register_buffer`` for running statistics, ``state_dict`` keys
and ``load_state_dict`` into a second model, ``named_parameters`` / ``named_buffers`` /
``named_modules`` / ``children``, ``train`` / ``eval``, ``requires_grad_(False)`` to freeze a
part, ``double()``, and forward and forward-pre hooks. Changed: a tiny model with fixed weights."""

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 2)
        self.head = nn.Linear(2, 1)
        self.register_buffer("running_mean", torch.zeros(2))
        self.register_buffer("scratch", torch.ones(1), persistent=False)
        with torch.no_grad():
            self.body.weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.3, 0.2, -0.1]]))
            self.body.bias.fill_(0.1)
            self.head.weight.copy_(torch.tensor([[1.0, -1.0]]))
            self.head.bias.zero_()

    def forward(self, x):
        h = torch.relu(self.body(x))
        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(0.9).add_(0.1 * h.mean(0))
        return self.head(h)


net = Net()
print("state_dict keys", list(net.state_dict().keys()))
print("parameters", [n for n, _ in net.named_parameters()])
print("buffers", [n for n, _ in net.named_buffers()])
print("modules", [n for n, _ in net.named_modules()])
print("children", [type(m).__name__ for m in net.children()])

seen = []
hook = net.body.register_forward_hook(lambda module, inputs, output: seen.append(output.detach()))
pre = net.head.register_forward_pre_hook(lambda module, inputs: (inputs[0] * 2,))
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -0.5, 1.0]])
out = net(x)
out.sum().backward()
print("out", out)
print("hooked", seen)
print("running_mean", net.running_mean)
print("grads", net.body.weight.grad, net.head.weight.grad)
hook.remove()
pre.remove()

net.body.requires_grad_(False)
net.zero_grad()
net(x).sum().backward()
print("frozen", net.body.weight.grad, net.body.weight.requires_grad, net.head.weight.grad)

clone = Net()
with torch.no_grad():
    clone.head.weight.fill_(5.0)
result = clone.load_state_dict(net.state_dict())
print("load", result.missing_keys, result.unexpected_keys, clone.head.weight, clone.running_mean)
try:
    clone.load_state_dict({"head.weight": torch.zeros(1, 2)})
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print("strict=False", clone.load_state_dict({"head.weight": torch.zeros(1, 2)}, strict=False))

net.eval()
print("training", net.training, net.body.training)
net.double()
print("dtype", net.body.weight.dtype, net.running_mean.dtype, net(x.double()).dtype)
net.float()
print("dtype", net.head.bias.dtype)
