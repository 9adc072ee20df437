"""Learning-rate schedules as the Paddle documentation steps them: a scheduler object from
``paddle.optimizer.lr`` passed as the optimizer's ``learning_rate``, ``scheduler.step()``
after ``optimizer.step()``, and ``optimizer.get_lr()`` / ``scheduler.last_lr`` read back
(``StepDecay``, ``MultiStepDecay``, ``ExponentialDecay``, ``LambdaDecay``,
``CosineAnnealingDecay``). Changed: a one-parameter problem, six epochs each."""

import paddle


def run(scheduler):
    w = paddle.to_tensor([1.0], stop_gradient=False)
    v = paddle.to_tensor([2.0], stop_gradient=False)
    sgd = paddle.optimizer.SGD(learning_rate=scheduler, parameters=[w, v])
    lrs = []
    for epoch in range(6):
        (w * v).sum().backward()
        sgd.step()
        sgd.clear_grad()
        scheduler.step()
        lrs.append(round(sgd.get_lr(), 6))
    print(type(scheduler).__name__, lrs, scheduler.last_epoch, round(w.item(), 6), round(v.item(), 6))


run(paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5))
run(paddle.optimizer.lr.MultiStepDecay(learning_rate=0.1, milestones=[1, 4], gamma=0.1))
run(paddle.optimizer.lr.ExponentialDecay(learning_rate=0.1, gamma=0.9))
run(paddle.optimizer.lr.LambdaDecay(learning_rate=0.1, lr_lambda=lambda epoch: 1.0 / (epoch + 1)))
run(paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=4, eta_min=0.01))
