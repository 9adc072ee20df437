"""``torch.optim.LBFGS``: limited-memory BFGS over the parameters flattened into one vector,
with torch's optional strong-Wolfe line search. Each step re-evaluates the closure; the update
is the two-loop recursion over the last ``history_size`` curvature pairs. The arithmetic is
torch's own, operation for operation (0-d tensors where torch keeps tensors, Python floats
where it converts), so the losses a program prints follow torch's to the last bit."""

from __future__ import annotations

from typing import Any, Callable, Optional

from reference_engine.torch import _core as T
from reference_engine.torch._core import TORCH, Tensor, enable_grad, no_grad
from reference_engine.torch.optim.optimizer import Optimizer, Params

__all__ = ["LBFGS"]

Closure = Callable[[], Any]


def _cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                       bounds: Optional[tuple[Any, Any]] = None) -> Any:
    """The minimiser of the cubic through two points with their slopes, kept in ``bounds``
    (the interval's midpoint when the cubic has none)."""
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(at, low), high)
    return (low + high) / 2.0


class _Bracket:
    """The line search's interval: step sizes with their losses, gradients and slopes."""

    def __init__(self, steps: list[Any], losses: list[Any], grads: list[Tensor], slopes: list[Any]) -> None:
        self.steps, self.losses, self.grads, self.slopes = steps, losses, grads, slopes

    def set(self, i: int, step: Any, loss: Any, grad: Tensor, slope: Any) -> None:
        self.steps[i], self.losses[i], self.grads[i], self.slopes[i] = step, loss, grad, slope

    def low_high(self) -> tuple[int, int]:
        return (0, 1) if self.losses[0] <= self.losses[-1] else (1, 0)


def _strong_wolfe(evaluate: Callable[[Any], tuple[float, Tensor]], t: Any, d: Tensor, f: float,
                  g: Tensor, gtd: Any, c1: float = 1e-4, c2: float = 0.9,
                  tolerance_change: float = 1e-9, max_ls: int = 25) -> tuple[float, Tensor, Any, int]:
    """A step size meeting the strong Wolfe conditions along ``d`` (torch's bracketing, then
    zoom): the loss, flat gradient and step found, and the closure evaluations it took."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = evaluate(t)
    evals, iteration = 1, 0
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    bracket: Optional[_Bracket] = None
    while iteration < max_ls:
        if f_new > (f + c1 * t * gtd) or (iteration > 1 and f_new >= f_prev):
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new])
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = _Bracket([t], [f_new], [g_new], [gtd_new]), True
            break
        if gtd_new >= 0:
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new])
            break
        min_step, max_step = t + 0.01 * (t - t_prev), t * 10
        t_prev, t = t, _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                          bounds=(min_step, max_step))
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        iteration += 1
    if iteration == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], [gtd, gtd_new])
    assert bracket is not None
    insufficient_progress = False
    low, high = bracket.low_high()
    while not done and iteration < max_ls:
        if abs(bracket.steps[1] - bracket.steps[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket.steps[0], bracket.losses[0], bracket.slopes[0],
                               bracket.steps[1], bracket.losses[1], bracket.slopes[1])
        top, bottom = max(bracket.steps), min(bracket.steps)
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:
            if insufficient_progress or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        iteration += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket.losses[low]:
            bracket.set(high, t, f_new, g_new.clone(), gtd_new)
            low, high = bracket.low_high()
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket.steps[high] - bracket.steps[low]) >= 0:
                bracket.set(high, bracket.steps[low], bracket.losses[low], bracket.grads[low],
                            bracket.slopes[low])
            bracket.set(low, t, f_new, g_new.clone(), gtd_new)
    return bracket.losses[low], bracket.grads[low], bracket.steps[low], evals


class LBFGS(Optimizer):
    """L-BFGS (one parameter group): ``step(closure)`` runs up to ``max_iter`` iterations."""

    def __init__(self, params: Params, lr: float = 1, max_iter: int = 20, max_eval: Optional[int] = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: Optional[str] = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TORCH.error("optim_tensor_lr")
        if not lr >= 0.0:
            raise TORCH.error("optim_invalid", what="learning rate", value=lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                                  "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                                  "history_size": history_size, "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise TORCH.error("lbfgs_groups")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self) -> Tensor:
        """Every parameter's gradient flattened and joined (zeros for one without)."""
        return T.cat([p.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1)
                      for p in self._params], 0)

    def _add_grad(self, step_size: Any, update: Tensor) -> None:
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel

    def _evaluate_along(self, closure: Closure, x: list[Tensor], t: Any, d: Tensor) -> tuple[float, Tensor]:
        """The loss and flat gradient at ``x + t d``; the parameters then put back to ``x``."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    def step(self, closure: Closure) -> Any:  # type: ignore[override]
        with no_grad():
            return self._step(closure)

    def _step(self, closure: Closure) -> Any:
        evaluate = enable_grad()(closure)
        group = self.param_groups[0]
        lr = float(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d, old_dirs, old_stps, ro, h_diag = flat_grad.neg(), [], [], [], 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)
                d = self._two_loop_direction(state, flat_grad, old_dirs, old_stps, ro, h_diag, history_size)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break

            evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise TORCH.error("lbfgs_line_search")
                x_init = [p.clone() for p in self._params]
                direction = d
                loss, flat_grad, t, evals = _strong_wolfe(
                    lambda step: self._evaluate_along(evaluate, x_init, step, direction), t, d, loss,
                    flat_grad, gtd, max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                optimal = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                optimal = False
                if n_iter != max_iter:
                    loss = float(evaluate())
                    flat_grad = self._flat_grad()
                    optimal = flat_grad.abs().max() <= tolerance_grad
                    evals = 1
            current_evals += evals
            state["func_evals"] += evals
            if n_iter == max_iter or current_evals >= max_eval or optimal:
                break
            if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break

        state.update({"d": d, "t": t, "old_dirs": old_dirs, "old_stps": old_stps, "ro": ro,
                      "H_diag": h_diag, "prev_flat_grad": prev_flat_grad, "prev_loss": prev_loss})
        return orig_loss

    @staticmethod
    def _two_loop_direction(state: dict[str, Any], flat_grad: Tensor, old_dirs: list[Tensor],
                            old_stps: list[Tensor], ro: list[Any], h_diag: Any, history_size: int) -> Tensor:
        """The quasi-Newton direction ``-H g`` by the two-loop recursion."""
        if "al" not in state:
            state["al"] = [None] * history_size
        al = state["al"]
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-al[i])
        r = T.mul(q, h_diag)
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=al[i] - be_i)
        return r
