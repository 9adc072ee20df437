"""``torch.utils.checkpoint``: activation checkpointing, with its observable behaviour.

``use_reentrant=True`` (what torch does when the argument is left out, with its warning) runs
the function without recording inside a custom function, ``CheckpointFunction``, and reruns it
with recording during backward, the random state of the forward restored: one
CheckpointFunctionBackward node, and the function's own side effects twice, as torch.
``use_reentrant=False`` records the function's graph as usual; the first time backward reads
a tensor saved inside it, the function reruns (random state restored, its results dropped:
the saved tensors kept are its own), as torch recomputes there.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

from reference_engine.framework_names import module_getattr
from reference_engine.graph import saved_tensors_hooks
from reference_engine.torch import random
from reference_engine.torch._core import TORCH, Tensor, enable_grad, no_grad
from reference_engine.torch.autograd import Function
from reference_engine.torch.autograd import backward as autograd_backward

__all__ = ["CheckpointFunction", "checkpoint", "checkpoint_sequential"]


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without recording, backward by recomputation."""

    @staticmethod
    def forward(ctx: Any, run_function: Callable[..., Any], preserve_rng_state: bool, *args: Any) -> Any:
        _warn_if_nothing_requires_grad(args)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = random.get_rng_state()
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with random.fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                random.set_rng_state(ctx.fwd_cpu_state)
            detached = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                        for a in inputs]
            with enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise TORCH.error("checkpoint_no_output_grad")
        autograd_backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *[a.grad if isinstance(a, Tensor) else None for a in detached])


def _warn_if_nothing_requires_grad(args: tuple[Any, ...]) -> None:
    if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=5)


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: Any = None, context_fn: Any = None,
               determinism_check: str = "default", debug: bool = False, preserve_rng_state: bool = True,
               **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, its activations recomputed in backward (see the module)."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
                      "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
                      "exception. use_reentrant=False is recommended, but if you need to preserve the "
                      "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
                      "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise TORCH.error("checkpoint_keywords", names=",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _recomputed_on_first_read(function, args, kwargs, preserve_rng_state)


def _recomputed_on_first_read(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                              preserve_rng_state: bool) -> Any:
    state = random.get_rng_state() if preserve_rng_state else None
    rerun = [True]

    def unpack(saved: Any) -> Any:
        if rerun[0]:
            rerun[0] = False
            with random.fork_rng(enabled=preserve_rng_state):
                if state is not None:
                    random.set_rng_state(state)
                with enable_grad():
                    function(*[a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                               for a in args], **kwargs)
        return saved

    with saved_tensors_hooks(lambda t: t, unpack):
        return function(*args, **kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Any, use_reentrant: Any = None,  # noqa: A002
                          **kwargs: Any) -> Any:
    """The modules of ``functions`` in ``segments`` runs, each but the last checkpointed."""
    functions = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(functions) // segments

    def run(start: int, end: int) -> Callable[[Any], Any]:
        def forward(x: Any) -> Any:
            for f in functions[start:end + 1]:
                x = f(x)
            return x
        return forward

    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, **kwargs)  # noqa: A001
    return run(end + 1, len(functions) - 1)(input)


__getattr__ = module_getattr("torch.utils.checkpoint")
