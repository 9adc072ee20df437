"""One adapter per dialect: the neutral case vocabulary onto that dialect's API.

An adapter drives a *module* (the real framework, the reference engine's facade, or any module
with the same API) on a *device*. It turns neutral arguments into calls; it never interprets
results — that is the interpreter's job. A step the dialect has no API for raises
:class:`Unsupported`, which the interpreter records as an ``unsupported`` observation.
"""

from __future__ import annotations

import types
from typing import Any, Callable, Optional, Sequence

import numpy as np

from conformance.corpus.step_kinds import DIALECT_LACKS
from conformance.run.op_calls import (
    Unsupported,
    evaluate,
    spell,
    to_index,
)
from conformance.run.trace import clean_message
from reference_engine import rounding, step_noise
from reference_engine.tensor import Tensor as ReferenceTensor


def first_seed(seeds: list[Any]) -> list[Any]:
    """``Tensor.backward``'s one positional seed: the first of the case's seeds (None for an
    empty or null list), and nothing when the case gives none."""
    if not seeds:
        return []
    return [seeds[0][0] if seeds[0] else None]


def _read(value: Callable[[], Any], attribute: str = "") -> Any:
    """``value()``, or ``"Error: message"`` where reading it raised; None where the tensor has no
    such ``attribute`` at all (a torch-shaped module without torch's private ``_version``): no
    program of that module can read it, and it is not compared."""
    try:
        return value()
    except AttributeError as exc:
        if attribute and getattr(exc, "name", None) == attribute:
            return None
        return f"{type(exc).__name__}: {clean_message(str(exc))}"
    except Exception as exc:  # noqa: BLE001 - the framework's refusal is what a program sees
        return f"{type(exc).__name__}: {clean_message(str(exc))}"


class Adapter:
    """The operations both dialects spell alike; subclasses fill in the differences."""

    dialect = "neutral"

    def __init__(self, module: Any, device: str = "cpu") -> None:
        self.m = module
        self.device = device

    def is_tensor(self, value: Any) -> bool:
        return isinstance(value, self.m.Tensor)

    def state(self, tensor: Any) -> list[Any]:
        """What a program can read of a tensor besides its values, in ``STATE_FIELDS`` order:
        dtype, shape, its flags, in-place version and whether it holds a gradient. A read the
        framework refuses (torch's inference tensors have no version, a no_grad view of a base
        written since shows no flags) is recorded as its error."""
        flags = _read(lambda: self.flags(tensor))
        flag_values = [flags[k] for k in ("requires_grad", "is_leaf", "has_grad_fn")] \
            if isinstance(flags, dict) else [flags] * 3
        return [str(tensor.dtype).split(".")[-1], list(tensor.shape), *flag_values,
                _read(lambda: self.version(tensor), self.version_attribute),
                _read(lambda: tensor.grad is not None)]

    version_attribute = ""

    def version(self, tensor: Any) -> int:
        raise NotImplementedError

    def op(self, name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
        """Op ``name`` as this dialect spells it (``conformance.run.op_calls``), made on the
        module that runs; the pieces of a split as a list."""
        made = evaluate(spell(self.dialect, name, list(args), kwargs), self.m)
        return list(made) if isinstance(made, tuple) else made

    def no_grad(self) -> Any:
        return self.m.no_grad()

    def enable_grad(self) -> Any:
        return self.m.enable_grad()

    def set_grad_enabled(self, mode: bool) -> Any:
        return self.m.set_grad_enabled(mode)

    def register_hook(self, tensor: Any, scale: Optional[float],
                      seen: Optional[Callable[[Any], None]] = None) -> Any:
        """A hook returning ``g * scale`` (None without a scale), telling ``seen`` each ``g``."""
        def hook(g: Any) -> Any:
            if seen is not None:
                seen(g)
            return None if scale is None else g * scale
        return tensor.register_hook(hook)

    def inference_mode(self) -> Any:
        raise Unsupported("inference_mode")

    def saved_tensors_hooks(self, pack: Callable[[Any], Any], unpack: Callable[[Any], Any]) -> Any:
        raise NotImplementedError

    def optimizer(self, kind: str, params: list[Any], lr: float, momentum: float) -> Any:
        raise NotImplementedError

    def linear(self, weight: np.ndarray, bias: Optional[np.ndarray]) -> Any:
        """A Linear module holding these values (``weight``: out_features × in_features)."""
        raise NotImplementedError

    def functional(self, api: str, function: Callable[..., Any], at: list[Any], v: list[Any],
                   options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def zero_grad(self, owner: Any, to: str) -> None:
        """An optimizer's or a module's: clear its parameters' gradients (to None or zeros)."""
        raise NotImplementedError

    def register_node_hook(self, tensor: Any, kind: str, scale: Optional[float],
                           seen: Optional[Callable[[Any], None]] = None) -> Any:
        raise Unsupported("node hooks")

    def register_post_accumulate_hook(self, tensor: Any, scale: Optional[float],
                                      seen: Optional[Callable[[Any], None]] = None) -> Any:
        raise Unsupported("post-accumulate-grad hooks")

    def setitem(self, tensor: Any, index: list[Any], value: Any) -> None:
        tensor[to_index(index)] = value

    def inplace(self, tensor: Any, op: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        if op == "setitem":
            self.setitem(tensor, kwargs["index"], args[0])
        elif op == "fill":
            tensor.fill_(kwargs["value"])
        elif op == "zero":
            tensor.zero_()
        elif op == "detach":
            tensor.detach_()
        elif op == "exp":
            tensor.exp_()
        else:
            self.arithmetic_in_place(tensor, op, args[0])

    def arithmetic_in_place(self, tensor: Any, op: str, other: Any) -> None:
        """``add`` / ``sub`` / ``mul`` / ``div`` in place, as the dialect spells them."""
        raise NotImplementedError

    def backward(self, outputs: list[Any], seeds: list[Any], keywords: dict[str, Any],
                 api: str) -> None:
        """``Tensor.backward`` (``api`` "method") or ``autograd.backward``, with the seeds and
        keywords the case gives (``calls.call_keywords``) and no others."""
        if api == "method":
            outputs[0].backward(*first_seed(seeds), **keywords)
        else:
            self.m.autograd.backward(outputs, *seeds, **keywords)

    def grad(self, outputs: list[Any], wrt: list[Any], seeds: list[Any],
             keywords: dict[str, Any]) -> list[Any]:
        """The dialect's ``grad``, with the seeds and keywords the case gives and no others."""
        return list(self.grad_function()(outputs, wrt, *seeds, **keywords))

    def grad_function(self) -> Callable[..., Any]:
        raise NotImplementedError

    def grad_of(self, tensor: Any) -> Any:
        return tensor.grad

    def grad_array(self, tensor: Any) -> Optional[np.ndarray]:
        """The gradient as a numpy array, the way the dialect hands one out (None: none)."""
        raise NotImplementedError

    def equal(self, tensor: Any, other: Any) -> bool:
        """Whether the two tensors have the same shape and values."""
        raise NotImplementedError

    def custom_function(self, name: str, body: Any) -> Any:
        """A custom function class named ``name`` whose forward and backward run ``body``
        (``interpreter.CustomFunctionBody``)."""
        lacked = [f for f in body.step if ("function", f) in DIALECT_LACKS[self.dialect]]
        if lacked:
            raise Unsupported(f"a custom function's {', '.join(lacked)}")
        base, saved = self.custom_function_base()

        def forward(ctx: Any, *inputs: Any) -> Any:
            output, to_save, dirty = body.forward(list(inputs))
            ctx.save_for_backward(*to_save)
            if dirty:
                ctx.mark_dirty(*dirty)
            if body.non_differentiable:  # every output
                ctx.mark_non_differentiable(*(output if isinstance(output, tuple) else (output,)))
            if not body.materialize_grads:
                ctx.set_materialize_grads(False)
            return output

        def backward(ctx: Any, *output_grads: Any) -> Any:
            # the saved tensors are read only when there are some, as a program would
            grads = body.backward(list(saved(ctx) or ()) if body.saves else [], output_grads)
            return grads[0] if len(grads) == 1 else tuple(grads)

        if body.once_differentiable:
            backward = self.once_differentiable(backward)

        namespace = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
        return types.new_class(name, (base,), exec_body=lambda ns: ns.update(namespace))

    def custom_function_base(self) -> tuple[type, Callable[[Any], Any]]:
        """The dialect's custom-function class and how its backward reads the saved tensors."""
        raise NotImplementedError

    def once_differentiable(self, backward: Callable[..., Any]) -> Callable[..., Any]:
        raise Unsupported("once_differentiable")

    def apply(self, function: Any, args: list[Any]) -> Any:
        return function.apply(*args)

    def parameters(self, module: Any) -> list[Any]:
        return list(module.parameters())

    def to_numpy(self, tensor: Any) -> np.ndarray:
        raise NotImplementedError


def rounding_scale(tensor: Any) -> Optional[float]:
    """The scale of the rounding error the reference engine noted for a gradient it computed
    (``reference_engine.rounding``); None for a framework's tensor and for a forward value."""
    if isinstance(tensor, ReferenceTensor):
        return rounding.noted_scale(tensor)
    return None


def step_shift(tensor: Any) -> Optional[np.ndarray]:
    """How far the noise an optimizer's step amplified may move each element of a tensor the
    reference engine computed (``reference_engine.step_noise``); None for a framework's tensor
    and for a value no step reached."""
    if isinstance(tensor, ReferenceTensor):
        return step_noise.elementwise_bound(tensor._data)
    return None


def rounding_singular(tensor: Any) -> bool:
    """Whether the reference engine noted that a gradient's infinities and NaNs may be rounding
    noise divided by zero (``reference_engine.rounding``): which of the two is then noise."""
    return isinstance(tensor, ReferenceTensor) and rounding.noted_singular(tensor)


class TorchAdapter(Adapter):
    """``torch`` and torch-shaped modules (``reference_engine.torch``)."""

    dialect = "torch"

    def custom_function_base(self) -> tuple[type, Callable[[Any], Any]]:
        return self.m.autograd.Function, lambda ctx: ctx.saved_tensors

    def once_differentiable(self, backward: Callable[..., Any]) -> Callable[..., Any]:
        return self.m.autograd.function.once_differentiable(backward)

    def optimizer(self, kind: str, params: list[Any], lr: float, momentum: float) -> Any:
        if kind == "momentum":
            return self.m.optim.SGD(params, lr=lr, momentum=momentum)
        return {"sgd": self.m.optim.SGD, "adam": self.m.optim.Adam}[kind](params, lr=lr)

    def zero_grad(self, owner: Any, to: str) -> None:
        """An optimizer's or a module's: both spell it ``zero_grad(set_to_none)``."""
        owner.zero_grad(set_to_none=to == "none")

    def linear(self, weight: np.ndarray, bias: Optional[np.ndarray]) -> Any:
        out_features, in_features = weight.shape
        on = {} if self.device == "cpu" else {"device": self.device}
        module = self.m.nn.Linear(in_features, out_features, bias=bias is not None)
        if on:
            module = module.to(self.device)
        with self.m.no_grad():
            module.weight.copy_(self.m.tensor(weight, **on))
            if bias is not None:
                module.bias.copy_(self.m.tensor(bias, **on))
        return module

    def functional(self, api: str, function: Callable[..., Any], at: list[Any], v: list[Any],
                   options: dict[str, Any]) -> Any:
        """``torch.autograd.functional.<api>(function, inputs[, v], ...)``: one tensor is passed
        as itself, several as a tuple (the results are shaped accordingly)."""
        if "batch_axis" in options:
            raise Unsupported("batch_axis (paddle's)")

        def one_or_tuple(ts: list[Any]) -> Any:
            return ts[0] if len(ts) == 1 else tuple(ts)
        args = [function, one_or_tuple(at)] + ([one_or_tuple(v)] if v else [])
        return getattr(self.m.autograd.functional, api)(*args, **options)

    def inference_mode(self) -> Any:
        return self.m.inference_mode()

    def saved_tensors_hooks(self, pack: Callable[[Any], Any], unpack: Callable[[Any], Any]) -> Any:
        return self.m.autograd.graph.saved_tensors_hooks(pack, unpack)

    def register_node_hook(self, tensor: Any, kind: str, scale: Optional[float],
                           seen: Optional[Callable[[Any], None]] = None) -> Any:
        """A hook on ``tensor.grad_fn``: ``pre`` sees (and scales) the gradients the node is
        handed, ``post`` the ones it returns; None stays None."""
        def scaled(grads: Any) -> Any:
            if seen is not None:
                seen(grads)
            return None if scale is None else tuple(None if g is None else g * scale for g in grads)

        node = tensor.grad_fn
        if kind == "pre":
            return node.register_prehook(scaled)
        return node.register_hook(lambda grad_inputs, grad_outputs: scaled(grad_inputs))

    def register_post_accumulate_hook(self, tensor: Any, scale: Optional[float],
                                      seen: Optional[Callable[[Any], None]] = None) -> Any:
        def hook(leaf: Any) -> None:
            if seen is not None:
                seen(leaf.grad)
            if scale is not None:
                with self.m.no_grad():
                    leaf.grad.mul_(scale)
        return tensor.register_post_accumulate_grad_hook(hook)

    def leaf(self, value: Any, dtype: Optional[str], requires_grad: bool,
             constructor: str = "tensor") -> Any:
        """``torch.tensor``, or ``torch.Tensor(data)`` (float32), ``autograd.Variable`` or
        ``nn.Parameter`` around one."""
        kwargs = {"dtype": getattr(self.m, dtype)} if dtype else {}
        if self.device != "cpu":
            kwargs["device"] = self.device
        if constructor == "tensor":
            return self.m.tensor(value, requires_grad=requires_grad, **kwargs)
        if constructor == "linspace":
            return self.m.linspace(value[0], value[-1], len(value), requires_grad=requires_grad,
                                   **kwargs)
        if constructor == "Tensor":
            made = self.m.Tensor(value)
            made = made if self.device == "cpu" else made.to(self.device)
            return made.requires_grad_(requires_grad)
        made = self.m.tensor(value, **kwargs)
        if constructor == "Variable":
            return self.m.autograd.Variable(made, requires_grad=requires_grad)
        return self.m.nn.Parameter(made, requires_grad=requires_grad)

    def grad_function(self) -> Callable[..., Any]:
        return self.m.autograd.grad

    def clear_grad(self, tensor: Any, to: str) -> None:
        if to == "none":
            tensor.grad = None
        elif tensor.grad is not None:  # what optimizer.zero_grad(set_to_none=False) does
            tensor.grad.detach_()
            tensor.grad.zero_()

    def retain_grad(self, tensor: Any) -> None:
        tensor.retain_grad()

    def set_requires_grad(self, tensor: Any, value: bool) -> None:
        tensor.requires_grad_(value)

    def arithmetic_in_place(self, tensor: Any, op: str, other: Any) -> None:
        getattr(tensor, op + "_")(other)

    version_attribute = "_version"

    def version(self, tensor: Any) -> int:
        return tensor._version

    def flags(self, tensor: Any) -> dict[str, Any]:
        return {"requires_grad": bool(tensor.requires_grad), "is_leaf": bool(tensor.is_leaf),
                "has_grad_fn": tensor.grad_fn is not None}

    def equal(self, tensor: Any, other: Any) -> bool:
        return tensor.equal(other)

    def grad_array(self, tensor: Any) -> Optional[np.ndarray]:
        """``tensor.grad.numpy()``: refused for a gradient that requires grad."""
        grad = tensor.grad
        if grad is None:
            return None
        return (grad if self.device == "cpu" else grad.cpu()).numpy()

    def describe(self, tensor: Any) -> tuple[str, np.ndarray, bool, bool]:
        data = tensor.detach()
        if self.device != "cpu":
            data = data.cpu()
        try:
            values = data.numpy()
        except RuntimeError:  # torch's lazily-zero ZeroTensor refuses plain numpy()
            values = data.numpy(force=True)
        return (str(tensor.dtype).split(".")[-1], np.array(values),
                bool(tensor.requires_grad), tensor.grad_fn is not None)


class PaddleAdapter(Adapter):
    """``paddle`` and paddle-shaped modules (``reference_engine.paddle``)."""

    dialect = "paddle"

    def custom_function_base(self) -> tuple[type, Callable[[Any], Any]]:
        return self.m.autograd.PyLayer, lambda ctx: ctx.saved_tensor()

    def optimizer(self, kind: str, params: list[Any], lr: float, momentum: float) -> Any:
        if kind == "momentum":
            return self.m.optimizer.Momentum(learning_rate=lr, momentum=momentum,
                                             parameters=params)
        made = {"sgd": self.m.optimizer.SGD, "adam": self.m.optimizer.Adam}[kind]
        return made(learning_rate=lr, parameters=params)

    def zero_grad(self, owner: Any, to: str) -> None:
        """An optimizer's ``clear_grad`` or a layer's ``clear_gradients``."""
        if isinstance(owner, self.m.nn.Layer):
            owner.clear_gradients(set_to_zero=to == "zeros")
        else:
            owner.clear_grad(set_to_zero=to == "zeros")

    def linear(self, weight: np.ndarray, bias: Optional[np.ndarray]) -> Any:
        """paddle's Linear holds the (in_features, out_features) transpose of torch's weight."""
        out_features, in_features = weight.shape
        module = self.m.nn.Linear(in_features, out_features,
                                  bias_attr=None if bias is not None else False)
        module.weight.set_value(np.ascontiguousarray(weight.T))
        if bias is not None:
            module.bias.set_value(bias)
        return module

    def functional(self, api: str, function: Callable[..., Any], at: list[Any], v: list[Any],
                   options: dict[str, Any]) -> Any:
        """``paddle.autograd.jacobian`` / ``hessian`` of the function's output at ``at`` (with
        ``batch_axis``), read out in full (``[:]``; one lazy object per input for several)."""
        batch = {k: options[k] for k in ("batch_axis",) if k in options}
        others = [k for k in options if k not in batch] + (["v"] if v else [])
        if api not in ("jacobian", "hessian") or others:
            raise Unsupported(f"paddle.autograd.{api}" if api not in ("jacobian", "hessian")
                              else f"{api} with {', '.join(others)}")
        ys = function(*at)
        lazy = getattr(self.m.autograd, api)(ys, at[0] if len(at) == 1 else at, **batch)
        return lazy[:] if len(at) == 1 else [part[:] for part in lazy]

    def saved_tensors_hooks(self, pack: Callable[[Any], Any], unpack: Callable[[Any], Any]) -> Any:
        return self.m.autograd.saved_tensors_hooks(pack, unpack)

    def leaf(self, value: Any, dtype: Optional[str], requires_grad: bool,
             constructor: str = "tensor") -> Any:
        """``paddle.to_tensor``, or ``paddle.create_parameter`` with the values assigned
        (paddle has no ``Tensor(data)`` or ``Variable`` to program against)."""
        if constructor in ("Tensor", "Variable"):
            raise Unsupported(f"a leaf made by torch's {constructor}")
        if constructor == "tensor":
            return self.m.to_tensor(value, dtype=dtype, stop_gradient=not requires_grad)
        if constructor == "linspace":
            made = self.m.linspace(value[0], value[-1], len(value), dtype=dtype or "float32")
            made.stop_gradient = not requires_grad
            return made
        array = np.array(value, dtype=dtype or "float32")
        made = self.m.create_parameter(list(array.shape), str(array.dtype),
                                       default_initializer=self.m.nn.initializer.Assign(array))
        made.stop_gradient = not requires_grad
        return made

    def grad_function(self) -> Callable[..., Any]:
        return self.m.grad

    def clear_grad(self, tensor: Any, to: str) -> None:
        if to == "none":
            tensor.clear_gradient(False)
        else:
            tensor.clear_grad()

    def retain_grad(self, tensor: Any) -> None:
        tensor.retain_grads()

    def set_requires_grad(self, tensor: Any, value: bool) -> None:
        tensor.stop_gradient = not value

    def arithmetic_in_place(self, tensor: Any, op: str, other: Any) -> None:
        if op == "mul" and not hasattr(other, "shape"):
            tensor.scale_(other)
            return
        if not hasattr(other, "shape"):  # paddle's in-place ops take tensors only
            other = self.m.full_like(tensor, other)
        getattr(tensor, {"add": "add_", "sub": "subtract_", "mul": "multiply_", "div": "divide_"}[op])(other)

    version_attribute = "inplace_version"

    def version(self, tensor: Any) -> int:
        return tensor.inplace_version

    def flags(self, tensor: Any) -> dict[str, Any]:
        return {"requires_grad": not tensor.stop_gradient, "is_leaf": bool(tensor.is_leaf),
                "has_grad_fn": tensor.grad_fn is not None}

    def equal(self, tensor: Any, other: Any) -> bool:
        """``paddle.equal_all`` (paddle's ``equal`` compares element by element)."""
        return bool(self.m.equal_all(tensor, other).item())

    def grad_array(self, tensor: Any) -> Optional[np.ndarray]:
        """``tensor.gradient()``."""
        return tensor.gradient()

    def describe(self, tensor: Any) -> tuple[str, np.ndarray, bool, bool]:
        return (str(tensor.dtype).split(".")[-1], np.array(tensor.numpy()),
                not tensor.stop_gradient, tensor.grad_fn is not None)


ADAPTERS: dict[str, type[Adapter]] = {"torch": TorchAdapter, "paddle": PaddleAdapter}
