"""L-BFGS as torch's ``optim.LBFGS`` and paddle's ``optimizer.LBFGS`` (a port of torch's) run it:
the parameters flattened into one vector, the two-loop recursion over the last
``history_size`` curvature pairs, and an optional strong-Wolfe line search (bracketing, then
zoom by cubic interpolation).

The two differ only in their arithmetic, which each facade supplies as a :class:`VectorOps`:
torch's ``dot`` and its ``add_(other, alpha=...)`` against paddle's ``(x * y).sum()`` and
``x.add(y * alpha)``, and where torch keeps a Python number paddle makes a tensor. With each
operation as the framework writes it, the losses a program prints follow the framework's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol

__all__ = ["Settings", "VectorOps", "cubic_interpolate", "run_step", "strong_wolfe"]

Closure = Callable[[], Any]


class VectorOps(Protocol):
    """A framework's spelling of what L-BFGS does to its vectors and parameters."""

    def dot(self, a: Any, b: Any) -> Any: ...
    def scale(self, v: Any, t: Any) -> Any: ...                   # v · t, a new vector
    def add_scaled(self, v: Any, w: Any, a: Any) -> None: ...     # v += a · w, in place
    def initial_h_diag(self, loss: Any) -> Any: ...
    def flat_grad(self) -> Any: ...
    def add_grad(self, t: Any, d: Any) -> None: ...               # parameters += t · d
    def clone_params(self) -> list[Any]: ...
    def set_params(self, saved: list[Any]) -> None: ...
    def copy_into(self, target: Any, source: Any) -> None: ...
    def line_search_budget(self, max_eval: int, current_evals: int) -> int: ...
    def refuse_line_search(self) -> Exception: ...

    state_names: dict[str, str]  # the framework's keys for the state (the step size is "t" or "alpha")


@dataclass(frozen=True)
class Settings:
    """One optimizer's hyper-parameters."""

    lr: float
    max_iter: int
    max_eval: int
    tolerance_grad: float
    tolerance_change: float
    history_size: int
    line_search_fn: Optional[str]


def cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
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

    def __init__(self, steps: list[Any], losses: list[Any], grads: list[Any], slopes: list[Any]) -> None:
        self.steps, self.losses, self.grads, self.slopes = steps, losses, grads, slopes

    def set(self, i: int, step: Any, loss: Any, grad: Any, slope: Any) -> None:
        self.steps[i], self.losses[i], self.grads[i], self.slopes[i] = step, loss, grad, slope

    def low_high(self) -> tuple[int, int]:
        return (0, 1) if self.losses[0] <= self.losses[-1] else (1, 0)


def strong_wolfe(evaluate: Callable[[Any], tuple[float, Any]], dot: Callable[[Any, Any], Any], t: Any,
                 d: Any, f: float, g: Any, gtd: Any, c1: float = 1e-4, c2: float = 0.9,
                 tolerance_change: float = 1e-9, max_ls: int = 25) -> tuple[float, Any, Any, int]:
    """A step size meeting the strong Wolfe conditions along ``d``: the loss, flat gradient
    and step found, and the closure evaluations it took."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = evaluate(t)
    evals, iteration = 1, 0
    gtd_new = dot(g_new, d)
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
        t_prev, t = t, cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                         bounds=(min_step, max_step))
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = dot(g_new, d)
        iteration += 1
    if iteration == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], [gtd, gtd_new])
    assert bracket is not None
    insufficient_progress = False
    low, high = bracket.low_high()
    while not done and iteration < max_ls:
        if abs(bracket.steps[1] - bracket.steps[0]) * d_norm < tolerance_change:
            break
        t = cubic_interpolate(bracket.steps[0], bracket.losses[0], bracket.slopes[0],
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
        gtd_new = dot(g_new, d)
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


def _two_loop_direction(ops: VectorOps, state: dict[str, Any], flat_grad: Any, old_dirs: list[Any],
                        old_stps: list[Any], ro: list[Any], h_diag: Any, history_size: int) -> Any:
    """The quasi-Newton direction ``-H g`` by the two-loop recursion."""
    if "al" not in state:
        state["al"] = [None] * history_size
    al = state["al"]
    q = flat_grad.neg()
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = ops.dot(old_stps[i], q) * ro[i]
        ops.add_scaled(q, old_dirs[i], -al[i])
    r = q * h_diag
    for i in range(len(old_dirs)):
        be_i = ops.dot(old_dirs[i], r) * ro[i]
        ops.add_scaled(r, old_stps[i], al[i] - be_i)
    return r


def run_step(ops: VectorOps, settings: Settings, state: dict[str, Any], closure: Closure) -> Any:
    """One ``step(closure)``: up to ``max_iter`` iterations; the closure's first loss returned.
    Called with recording off; the closure runs with it on."""
    state.setdefault("func_evals", 0)
    state.setdefault("n_iter", 0)
    orig_loss = closure()
    loss = float(orig_loss)
    current_evals = 1
    state["func_evals"] += 1
    flat_grad = ops.flat_grad()
    if flat_grad.abs().max() <= settings.tolerance_grad:
        return orig_loss
    saved = {name: state.get(ops.state_names.get(name, name)) for name in _STATE}
    d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad, prev_loss = (saved[name] for name in _STATE)

    n_iter = 0
    while n_iter < settings.max_iter:
        n_iter += 1
        state["n_iter"] += 1
        if state["n_iter"] == 1:
            d, old_dirs, old_stps, ro, h_diag = flat_grad.neg(), [], [], [], ops.initial_h_diag(orig_loss)
        else:
            y = flat_grad - prev_flat_grad
            s = ops.scale(d, t)
            ys = ops.dot(y, s)
            if ys > 1e-10:
                if len(old_dirs) == settings.history_size:
                    old_dirs.pop(0)
                    old_stps.pop(0)
                    ro.pop(0)
                old_dirs.append(y)
                old_stps.append(s)
                ro.append(1.0 / ys)
                h_diag = ys / ops.dot(y, y)
            d = _two_loop_direction(ops, state, flat_grad, old_dirs, old_stps, ro, h_diag,
                                    settings.history_size)
        if prev_flat_grad is None:
            prev_flat_grad = flat_grad.clone()
        else:
            ops.copy_into(prev_flat_grad, flat_grad)
        prev_loss = loss
        t = min(1.0, 1.0 / flat_grad.abs().sum()) * settings.lr if state["n_iter"] == 1 else settings.lr
        gtd = ops.dot(flat_grad, d)
        if gtd > -settings.tolerance_change:
            break

        evals = 0
        if settings.line_search_fn is not None:
            if settings.line_search_fn != "strong_wolfe":
                raise ops.refuse_line_search()
            x_init, direction = ops.clone_params(), d

            def along(step: Any) -> tuple[float, Any]:
                ops.add_grad(step, direction)
                value = float(closure())
                gradient = ops.flat_grad()
                ops.set_params(x_init)
                return value, gradient
            loss, flat_grad, t, evals = strong_wolfe(
                along, ops.dot, t, d, loss, flat_grad, gtd,
                max_ls=ops.line_search_budget(settings.max_eval, current_evals))
            ops.add_grad(t, d)
            optimal = flat_grad.abs().max() <= settings.tolerance_grad
        else:
            ops.add_grad(t, d)
            optimal = False
            if n_iter != settings.max_iter:
                loss = float(closure())
                flat_grad = ops.flat_grad()
                optimal = flat_grad.abs().max() <= settings.tolerance_grad
                evals = 1
        current_evals += evals
        state["func_evals"] += evals
        if n_iter == settings.max_iter or current_evals >= settings.max_eval or optimal:
            break
        if (d * t).abs().max() <= settings.tolerance_change:
            break
        if abs(loss - prev_loss) < settings.tolerance_change:
            break

    values = (d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad, prev_loss)
    state.update({ops.state_names.get(name, name): value for name, value in zip(_STATE, values)})
    return orig_loss


# what a step leaves for the next, in torch's names
_STATE = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss")
