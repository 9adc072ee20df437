"""A custom optimizer as the PyTorch documentation and most research code write one: a subclass
of ``torch.optim.Optimizer`` handing ``defaults`` to ``super().__init__``, ``@torch.no_grad()``
on ``step``, a loop over ``self.param_groups`` and ``group['params']``, per-parameter
``self.state[p]`` (a momentum buffer made on first use), a closure, ``add_param_group`` and
``zero_grad``. Changed: a small quadratic problem, two parameter groups with their own lr."""

import torch
from torch.optim import Optimizer


class SGDMomentum(Optimizer):
    def __init__(self, params, lr=1e-2, momentum=0.9, weight_decay=0.0):
        if lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        defaults = dict(lr=lr, momentum=momentum, weight_decay=weight_decay)
        super(SGDMomentum, self).__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group["weight_decay"] != 0:
                    d_p = d_p.add(p, alpha=group["weight_decay"])
                state = self.state[p]
                if len(state) == 0:
                    state["momentum_buffer"] = torch.clone(d_p).detach()
                else:
                    state["momentum_buffer"].mul_(group["momentum"]).add_(d_p)
                p.add_(state["momentum_buffer"], alpha=-group["lr"])
        return loss


a = torch.tensor([1.0, -2.0], requires_grad=True)
b = torch.tensor([0.5], requires_grad=True)
c = torch.tensor([3.0], requires_grad=True)
opt = SGDMomentum([{"params": [a]}, {"params": [b], "lr": 0.05}], lr=0.1, momentum=0.5)
print("groups", len(opt.param_groups), [g["lr"] for g in opt.param_groups])
print("defaults", sorted(opt.defaults.items()))


def closure():
    opt.zero_grad()
    loss = (a ** 2).sum() + (b - 1) ** 2 + (c * a[0]) ** 2
    loss.sum().backward()
    return loss


for i in range(3):
    loss = opt.step(closure)
    print(i, loss, a, b)
opt.add_param_group({"params": c, "momentum": 0.0})
print("groups", len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["momentum"])
opt.step(closure)
print("c", c, "state size", len(opt.state))
try:
    opt.add_param_group({"params": [a]})
except ValueError as e:
    print("ValueError:", e)
try:
    SGDMomentum([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
opt.zero_grad(set_to_none=False)
print("zeroed", a.grad, c.grad)
