"""Learning-rate schedules on an optimizer with two parameter groups, as the PyTorch
documentation's examples step them after ``optimizer.step()``: ``StepLR``, ``MultiStepLR``,
``ExponentialLR``, ``LambdaLR`` and ``CosineAnnealingLR``, read back with ``get_last_lr()`` and
``optimizer.param_groups``. Changed: a one-parameter problem, six epochs each."""

import torch
from torch.optim import lr_scheduler


def run(make):
    w = torch.tensor([1.0], requires_grad=True)
    v = torch.tensor([2.0], requires_grad=True)
    opt = torch.optim.SGD([{"params": [w]}, {"params": [v], "lr": 0.5}], lr=0.1)
    sched = make(opt)
    lrs = []
    for epoch in range(6):
        opt.zero_grad()
        (w * v).sum().backward()
        opt.step()
        sched.step()
        lrs.append([round(x, 6) for x in sched.get_last_lr()])
    print(type(sched).__name__, lrs, sched.last_epoch, round(w.item(), 6), round(v.item(), 6))
    print("initial_lr", [g["initial_lr"] for g in opt.param_groups])


run(lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5))
run(lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 4], gamma=0.1))
run(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
run(lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 1.0 / (epoch + 1)))
run(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01))
