"""Grad-CAM (Selvaraju et al., 2017) as jacobgil/pytorch-grad-cam's ``ActivationsAndGradients``
and most tutorials compute it: a forward hook stores the target layer's activations, a
``register_full_backward_hook`` stores ``grad_output[0]``, the class score is backpropagated
with ``model.zero_grad()`` first, the gradients are averaged over the spatial axes as weights,
and the weighted, ReLU'd sum of the activations is the map. Then a hook that returns a
replacement ``grad_input`` (guided-backprop style clamping) and the hooks' removal. Changed: a
tiny convolutional model with fixed weights and a fixed image."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 2)
        self.act = nn.ReLU()
        self.fc = nn.Linear(8, 3)
        with torch.no_grad():
            self.conv.weight.copy_(torch.tensor([[[[1.0, -0.5], [0.25, 0.5]]], [[[-1.0, 0.5], [1.0, 0.0]]]]))
            self.conv.bias.copy_(torch.tensor([0.1, -0.1]))
            self.fc.weight.copy_(torch.linspace(-1.0, 1.0, 24).view(3, 8))
            self.fc.bias.zero_()

    def forward(self, x):
        a = self.act(self.conv(x))
        return self.fc(a.flatten(1))


model = Net()
activations, gradients = [], []
h1 = model.act.register_forward_hook(lambda m, i, o: activations.append(o.detach()))
h2 = model.act.register_full_backward_hook(lambda m, gi, go: gradients.append(go[0].detach()))
image = torch.tensor([[[[0.5, 1.0, -0.5], [2.0, 0.0, 1.0], [-1.0, 0.5, 1.5]]]])
scores = model(image)
model.zero_grad()
scores[:, 2].sum().backward()
weights = gradients[0].mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * activations[0]).sum(dim=1))
print("scores", scores)
print("grad", gradients[0])
print("cam", cam)
h1.remove()
h2.remove()

seen = []


def clamp_grad_input(module, grad_input, grad_output):
    seen.append((tuple(g is None for g in grad_input), grad_output[0].shape))
    return tuple(None if g is None else g.clamp(min=0.0) for g in grad_input)


x = image.clone().requires_grad_(True)
handle = model.conv.register_full_backward_hook(clamp_grad_input)
out = model(x)
out[:, 0].sum().backward()
print("hooked", seen)
print("x.grad", x.grad)
print("conv.weight.grad", model.conv.weight.grad)
handle.remove()
model.zero_grad()
model(x)[:, 0].sum().backward()
print("unhooked conv.weight.grad", model.conv.weight.grad)
