"""The Jacobian regulariser of Hoffman, Roberts and Yaida (2019), as
facebookresearch/jacobian_regularizer's ``JacobianReg`` computes it: the Frobenius norm of the
input-output Jacobian estimated with random unit projections, each ``autograd.grad(flat_y, x,
flat_v, retain_graph=True, create_graph=True)``, added to the loss and trained through. Changed:
fixed projection vectors instead of random ones, a tiny network and batch."""

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view(p.shape) * (1 + 0.1 * i))

data = torch.tensor([[0.2, -0.4, 0.6], [1.0, 0.5, -0.5]])
target = torch.tensor([1, 0])
data.requires_grad = True
output = model(data)
loss_super = nn.CrossEntropyLoss()(output, target)

C = output.shape[1]
n_proj = 2
projections = [torch.tensor([[1.0, 0.0], [0.6, 0.8]]), torch.tensor([[0.0, 1.0], [-0.8, 0.6]])]
J2 = 0
for ii in range(n_proj):
    v = projections[ii]
    Jv = torch.autograd.grad(output.reshape(-1), data, v.reshape(-1), retain_graph=True,
                             create_graph=True)[0]
    J2 += C * torch.norm(Jv) ** 2 / (n_proj * data.shape[0])
R = 0.5 * J2
loss = loss_super + 0.01 * R
loss.backward()
print("R", R)
print("loss", loss)
print("grads", [p.grad for p in model.parameters()])
print("data.grad", data.grad)
