"""``paddle.nn.utils.weight_norm``: a layer's parameter split into its direction ``<name>_v`` and
its norm ``<name>_g``, recomposed before every forward, composed as paddle's Python composes it.

paddle's split differs from torch's (``reference_engine.torch.nn.utils.weight_norm``):
- ``_v`` is registered before ``_g``, both made by ``create_parameter``, which draws their
  initial values before the weight's are assigned;
- the norm is squeezed to the size of ``dim`` (a 0-d tensor for ``dim=None``);
- the weight is ``normalize(v) * g`` along ``dim`` (MultiplyGradNode).
"""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.dialects.paddle_policy import PADDLE

__all__ = ["remove_weight_norm", "weight_norm"]


def _paddle() -> Any:
    import reference_engine.paddle as paddle  # (this package is imported while paddle's is)
    return paddle


def norm_except_dim(p: Any, dim: int) -> Any:
    """The 2-norm of ``p`` over every dimension but ``dim``, ``sqrt(sum(p²) + 1e-12)``, with the
    other dimensions gone (over all of it for ``dim`` -1)."""
    paddle = _paddle()
    shape = p.shape
    if dim == -1:
        return paddle.sqrt(paddle.sum(paddle.square(p)) + 1e-12)
    if dim in (0, len(shape) - 1):
        matrix = paddle.reshape(p, (shape[0], -1) if dim == 0 else (-1, shape[-1]))
        axis = 1 if dim == 0 else 0
        return paddle.sqrt(paddle.sum(paddle.square(matrix), axis=axis) + 1e-12)
    return norm_except_dim(paddle.transpose(p, _swapped(len(shape), dim)), 0)


def _swapped(ndim: int, dim: int) -> list[int]:
    perm = list(range(ndim))
    perm[0], perm[dim] = dim, 0
    return perm


def _weight(v: Any, g: Any, dim: int) -> Any:
    paddle = _paddle()
    normalize = paddle.nn.functional.normalize
    shape = v.shape
    if dim == -1:
        return paddle.multiply(v / (paddle.sqrt(paddle.sum(paddle.square(v))) + 1e-12), g)
    if dim in (0, len(shape) - 1):
        matrix = paddle.reshape(v, (shape[0], -1) if dim == 0 else (-1, shape[-1]))
        direction = paddle.reshape(normalize(matrix, axis=1 if dim == 0 else 0), shape)
    else:
        perm = _swapped(len(shape), dim)
        transposed = paddle.transpose(v, perm)
        matrix = paddle.reshape(transposed, (transposed.shape[0], -1))
        direction = paddle.transpose(paddle.reshape(normalize(matrix, axis=1), transposed.shape), perm)
    along = [1] * len(shape)
    along[dim] = shape[dim]
    return paddle.multiply(direction, paddle.reshape(g, along))


class WeightNorm:
    """The forward pre-hook that recomposes ``name`` from ``name_v`` and ``name_g``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, layer: Any) -> Any:
        return _weight(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"), self.dim)

    def __call__(self, layer: Any, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer: Any, name: str = "weight", dim: Optional[int] = 0) -> Any:
    """Split ``layer.<name>`` into ``<name>_v`` and ``<name>_g`` and recompose it before every
    forward."""
    paddle = _paddle()
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    rank = len(layer._parameters[name].shape)
    dim = -1 if dim is None else dim
    if not -rank <= dim < rank:
        raise PADDLE.error("weight_norm_dim")
    dim = dim if dim == -1 else (dim + rank) % rank
    hook = WeightNorm(name, dim)
    weight = getattr(layer, name)
    del layer._parameters[name]
    norm = norm_except_dim(weight, dim)
    v = layer.create_parameter(weight.shape, dtype=weight.dtype)
    layer.add_parameter(name + "_v", v)
    g = layer.create_parameter(norm.shape, dtype=norm.dtype)
    layer.add_parameter(name + "_g", g)
    with paddle.no_grad():  # (paddle assigns them into the new parameters)
        v.set_value(weight)
        g.set_value(norm)
    setattr(layer, name, hook.compute_weight(layer))
    layer.register_forward_pre_hook(hook)
    return layer


def remove_weight_norm(layer: Any, name: str = "weight") -> Any:
    """``layer.<name>`` a parameter again, holding the recomposed values."""
    paddle = _paddle()
    for key, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            weight = hook.compute_weight(layer)
            delattr(layer, name)
            del layer._parameters[name + "_g"], layer._parameters[name + "_v"]
            del layer._forward_pre_hooks[key]
            parameter = layer.create_parameter(weight.shape, dtype=weight.dtype)
            layer.add_parameter(name, parameter)
            with paddle.no_grad():
                parameter.set_value(weight)
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")
