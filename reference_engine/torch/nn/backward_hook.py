"""A module's full backward hooks, as torch runs them (``torch.utils.hooks.BackwardHook``).

The module's tensor arguments and its outputs each pass through one identity custom function
(``BackwardHookFunctionBackward`` nodes). The node on the outputs records the gradients that
reach them (``grad_output``); the node on the arguments, once it ran, hands the user's hooks
``(module, grad_input, grad_output)``, and a tuple a hook returns replaces ``grad_input``. Where
no argument requires grad, the hooks run at the outputs' node with ``grad_input`` all None.
Backward pre-hooks run at the outputs' node, ``(module, grad_output)``, and may replace the
gradients that go on into the module.
Everything is recorded by the engine's own custom-function and node-hook machinery, so the
hooks run in the order and with the values torch's do.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reference_engine import grad_mode
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.torch._core import Tensor
from reference_engine.torch.autograd import Function


class BackwardHookFunction(Function):
    """The identity, differentiable only in the arguments that require grad."""

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        return args


def _pack_with_none(indices: Sequence[int], values: Sequence[Any], size: int) -> tuple[Any, ...]:
    packed: list[Any] = [None] * size
    for index, value in zip(indices, values):
        packed[index] = value
    return tuple(packed)


class BackwardHook:
    """One call's bookkeeping: which arguments and outputs are tensors, and the gradients that
    reached the outputs."""

    def __init__(self, module: Any, user_hooks: Sequence[Callable[..., Any]],
                 user_pre_hooks: Sequence[Callable[..., Any]] = ()) -> None:
        self.module, self.user_hooks = module, list(user_hooks)
        self.user_pre_hooks = list(user_pre_hooks)
        self.grad_outputs: Optional[tuple[Any, ...]] = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index: Optional[list[int]] = None
        self.output_tensors_index: Optional[list[int]] = None

    def _apply_on_tensors(self, attach: Callable[[Any], None], args: tuple[Any, ...]
                          ) -> tuple[tuple[Any, ...], Optional[list[int]]]:
        indices = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in indices]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        wrapped = BackwardHookFunction.apply(*tensors)
        if not wrapped:
            raise TORCH.error("module_hook_no_inputs")
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        attach(next(t.grad_fn for t in wrapped if t.grad_fn is not None))
        out = list(args)
        for index, tensor in zip(indices, wrapped):
            out[index] = tensor
        return tuple(out), indices

    def setup_input_hook(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        def attach(grad_fn: Any) -> None:
            def hook(grad_input: tuple[Any, ...], _: Any) -> Any:
                if self.grad_outputs is None:  # reached the inputs without the outputs
                    return None
                assert self.input_tensors_index is not None
                res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
                for user_hook in self.user_hooks:
                    out = user_hook(self.module, res, self.grad_outputs)
                    if out is None:
                        continue
                    if len(out) != len(res):
                        raise TORCH.error("module_hook_grad_input_count", got=len(out), expected=len(res))
                    res = out
                self.grad_outputs = None
                return tuple(res[i] for i in self.input_tensors_index)

            grad_fn.register_hook(hook)

        res, self.input_tensors_index = self._apply_on_tensors(attach, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result: Any) -> Any:
        def attach(grad_fn: Any) -> None:
            def hook(_: Any, grad_output: tuple[Any, ...]) -> Any:
                assert self.output_tensors_index is not None
                self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                for pre_hook in self.user_pre_hooks:  # each may replace grad_output
                    replaced = pre_hook(self.module, self.grad_outputs)
                    if replaced is None:
                        continue
                    if len(replaced) != len(self.grad_outputs):
                        raise TORCH.error("module_pre_hook_grad_output_count", got=len(replaced),
                                          expected=len(self.grad_outputs))
                    self.grad_outputs = tuple(replaced)
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:  # no argument requires grad: run them here
                    TORCH.warn("full_backward_hook_no_inputs", stacklevel=5)
                    grad_inputs = _pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        out = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if out is not None and not (isinstance(out, tuple) and all(g is None for g in out)):
                            raise TORCH.error("module_hook_no_input_grads")
                    self.grad_outputs = None
                if not self.user_pre_hooks:
                    return None
                return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

            grad_fn.register_hook(hook)

        is_tuple = isinstance(result, tuple)
        outputs = result if is_tuple else (result,)
        res, self.output_tensors_index = self._apply_on_tensors(attach, outputs)
        self.n_outputs = len(outputs)
        return res if is_tuple else res[0]
