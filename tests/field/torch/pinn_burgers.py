"""A physics-informed network's residual for Burgers' equation (Raissi et al., 2019), as the
PyTorch ports of maziarraissi/PINNs write ``net_f``: ``u_t``, ``u_x`` and ``u_xx`` by
``torch.autograd.grad`` with ``grad_outputs=torch.ones_like(u)``, ``retain_graph`` and
``create_graph``, the residual ``u_t + u u_x - nu u_xx``, and Adam on the mean squared residual
plus the boundary loss. Changed: a 2-8-1 tanh network with fixed weights, fixed collocation
points, three Adam steps."""

import numpy as np
import torch

torch.set_default_dtype(torch.float64)
nu = 0.01 / np.pi


class DNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
        with torch.no_grad():
            self.layers[0].weight.copy_(torch.tensor(np.cos(np.arange(16.0)).reshape(8, 2)))
            self.layers[0].bias.copy_(torch.tensor(np.sin(np.arange(8.0)) * 0.1))
            self.layers[2].weight.copy_(torch.tensor(np.cos(np.arange(8.0) * 0.5).reshape(1, 8)))
            self.layers[2].bias.zero_()

    def forward(self, x):
        return self.layers(x)


dnn = DNN()
x_f = torch.tensor(np.linspace(-1, 1, 5).reshape(-1, 1), requires_grad=True)
t_f = torch.tensor(np.linspace(0, 1, 5).reshape(-1, 1), requires_grad=True)
x_u = torch.tensor([[-1.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
u_true = -torch.sin(np.pi * x_u[:, 0:1])


def net_f(x, t):
    u = dnn(torch.cat([x, t], dim=1))
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True,
                              create_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True,
                              create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), retain_graph=True,
                               create_graph=True)[0]
    return u_t + u * u_x - nu * u_xx


optimizer = torch.optim.Adam(dnn.parameters(), lr=1e-3)
for it in range(3):
    optimizer.zero_grad()
    f_pred = net_f(x_f, t_f)
    loss = torch.mean((u_true - dnn(x_u)) ** 2) + torch.mean(f_pred ** 2)
    loss.backward()
    optimizer.step()
    print(it, "loss %.8f" % loss.item())
print("residual", f_pred.detach().numpy().round(6).tolist())
print("x_f.grad", x_f.grad.numpy().round(6).tolist())
