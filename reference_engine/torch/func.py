"""``torch.func``: function transforms (``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``,
``hessian``, ``vmap``, ``functional_call``) built on the engine's own ``autograd.grad``.

Each transform differentiates with respect to fresh stand-ins for its inputs: a detached copy
that requires grad at the top level (so the result is a plain tensor, as torch.func returns it),
or a view of the input where the input itself is being differentiated (inside another
transform, or by a later ``backward``), so that transforms nest and compose with autograd. A
transform inside another records its derivative (``create_graph``). A result computed from
tensors that require grad outside the transform (the parameters of a module the function
closes over) stays differentiable with respect to them, so that a loss built from
``vmap(hessian(u))`` trains the module as in torch. ``jvp`` is the
double-vjp trick, and ``jacfwd`` takes one ``jvp`` per input element; ``vmap`` maps the function
over the batch dimension one slice at a time and stacks the results, which is what it computes
for functions without randomness or in-place writes to their inputs.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Optional, Sequence, Union

from reference_engine import composed as C
from reference_engine import grad_mode
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.engine import topological_order
from reference_engine.framework_names import module_getattr
from reference_engine.graph import AccumulateGrad
from reference_engine.identity_map import IdentityMap
from reference_engine.messages import not_supported
from reference_engine.torch import autograd
from reference_engine.torch._core import Tensor, stack, zeros_like

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize",
           "stack_module_state", "vjp", "vmap"]

_DEPTH = [0]  # how many transforms are running now


def _argnums(argnums: Union[int, Sequence[int]]) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


# the leaves transforms made to differentiate with respect to (stand-ins and cotangents): what
# a result reaches through them is the transform's own business, not an outer computation's
_STAND_INS: IdentityMap[bool] = IdentityMap()


def _fresh_leaf(x: Tensor) -> Tensor:
    leaf = x.detach().requires_grad_(True)
    _STAND_INS[leaf] = True
    return leaf


def _stand_in(x: Tensor) -> Tensor:
    """What a transform differentiates with respect to: a view of an input that is itself being
    differentiated (so the result stays connected to it), a detached copy otherwise."""
    return x.view_as(x) if x.requires_grad else _fresh_leaf(x)


def _reaches_outer_leaf(t: Tensor) -> bool:
    """Whether ``t`` was computed from a tensor that requires grad outside every transform (a
    module's parameter the function closes over): then it stays differentiable with respect to
    it, as torch.func's results do."""
    if t._grad_fn is None:
        return t.requires_grad and t not in _STAND_INS
    return any(type(node) is AccumulateGrad and node.variable not in _STAND_INS
               for node in topological_order([t._grad_fn]))


def _differentiate(outputs: Sequence[Tensor], inputs: Sequence[Tensor],
                   seeds: Sequence[Any]) -> tuple[Any, ...]:
    """``autograd.grad`` with zeros for unused inputs, recording the derivative (an outer
    transform, a later call of the same ``vjp_fn`` or row of a Jacobian may need the graph)."""
    found = autograd.grad(list(outputs), list(inputs), list(seeds), create_graph=True, allow_unused=True)
    return tuple(zeros_like(x) if g is None else g for g, x in zip(found, inputs))


def _shown(value: Any, connected: bool) -> Any:
    """What a transform returns: plain tensors at the top level, as torch.func gives them,
    unless its inputs are being differentiated themselves or a tensor was computed from
    others that are (``_reaches_outer_leaf``)."""
    if connected or _DEPTH[0] > 0 or value is None:
        return value
    return _rebuild(value, iter([leaf.detach() if isinstance(leaf, Tensor) and not _reaches_outer_leaf(leaf)
                                 else leaf for leaf in _leaves(value)]))


def _leaves(tree: Any) -> list[Tensor]:
    """The tensors of a nest of dicts, lists and tuples, in order (torch.func's pytrees)."""
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in _leaves(value)]
    if isinstance(tree, (list, tuple)):
        return [leaf for value in tree for leaf in _leaves(value)]
    return [tree]


def _rebuild(tree: Any, leaves: Iterator[Any]) -> Any:
    """``tree`` with its tensors replaced, in order, by ``leaves``."""
    if isinstance(tree, dict):
        return {key: _rebuild(value, leaves) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_rebuild(value, leaves) for value in tree)
    return next(leaves)


def _with_stand_ins(args: tuple[Any, ...], positions: tuple[int, ...]) -> tuple[list[Any], bool]:
    """The arguments with the tensors at ``positions`` (pytrees of them) replaced by stand-ins,
    and whether any of those tensors is being differentiated itself."""
    out = list(args)
    connected = any(leaf.requires_grad for i in positions for leaf in _leaves(out[i]))
    for i in positions:
        out[i] = _rebuild(out[i], iter([_stand_in(t) for t in _leaves(out[i])]))
    return out, connected


class _Transform:
    """Counts the transforms running, with recording on inside them."""

    def __enter__(self) -> None:
        _DEPTH[0] += 1
        self.mode = grad_mode.enable_grad()
        self.mode.__enter__()

    def __exit__(self, *exc_info: object) -> None:
        self.mode.__exit__(*exc_info)
        _DEPTH[0] -= 1


def grad_and_value(func: Callable[..., Any], argnums: Union[int, Sequence[int]] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of a function with a one-element output with respect to ``argnums``, and
    the output (and its auxiliary value with ``has_aux``)."""
    def transformed(*args: Any, **kwargs: Any) -> Any:
        positions = _argnums(argnums)
        with _Transform():
            args, connected = _with_stand_ins(args, positions)
            result = func(*args, **kwargs)
            out, aux = result if has_aux else (result, None)
            if out.numel() != 1:
                raise TORCH.error("func_grad_not_scalar", dims=out.dim())
            inputs = [leaf for i in positions for leaf in _leaves(args[i])]
            flat = iter(_differentiate([out], inputs, [None]))
            grads = tuple(_rebuild(args[i], flat) for i in positions)
        found = _shown(grads[0] if isinstance(argnums, int) else grads, connected)
        value = _shown(out, connected)
        return (found, (value, aux)) if has_aux else (found, value)

    return transformed


def grad(func: Callable[..., Any], argnums: Union[int, Sequence[int]] = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of a function with a one-element output with respect to ``argnums``."""
    both = grad_and_value(func, argnums, has_aux)

    def transformed(*args: Any, **kwargs: Any) -> Any:
        found, value = both(*args, **kwargs)
        return (found, value[1]) if has_aux else found

    return transformed


def _traced(func: Callable[..., Any], primals: Sequence[Tensor], has_aux: bool
            ) -> tuple[bool, list[Tensor], Any, Any, list[Tensor]]:
    """The function run on stand-ins of ``primals`` (in a transform): whether the primals are
    differentiated themselves, the stand-ins, the output, its auxiliary value, the outputs."""
    connected = any(p.requires_grad for p in primals)
    with _Transform():
        inputs = [_stand_in(p) for p in primals]
        result = func(*inputs)
    out, aux = result if has_aux else (result, None)
    return connected, inputs, out, aux, _leaves(out)


def vjp(func: Callable[..., Any], *primals: Tensor, has_aux: bool = False) -> Any:
    """The function's output and a function of cotangents giving the vector-Jacobian products
    with respect to every primal."""
    connected, inputs, out, aux, outputs = _traced(func, primals, has_aux)

    def vjp_fn(*cotangents: Any) -> tuple[Any, ...]:
        seeds = list(cotangents[0]) if len(cotangents) == 1 and isinstance(cotangents[0], (tuple, list)) \
            else list(cotangents)
        with _Transform():
            found = _differentiate(outputs, inputs, seeds)
        return _shown(found, connected)

    return (_shown(out, connected), vjp_fn, aux) if has_aux else (_shown(out, connected), vjp_fn)


def jvp(func: Callable[..., Any], primals: Sequence[Tensor], tangents: Sequence[Tensor],
        has_aux: bool = False) -> Any:
    """The function's output and its Jacobian times the tangents (the double-vjp trick)."""
    connected, inputs, out, aux, outputs = _traced(func, primals, has_aux)
    with _Transform():
        cotangents = [_fresh_leaf(zeros_like(o)) for o in outputs]
        pulled = _differentiate(outputs, inputs, cotangents)
        pushed = _differentiate(pulled, cotangents, list(tangents))
    tangent_out = _rebuild(out, iter(pushed))
    shown = (_shown(out, connected), _shown(tangent_out, connected))
    return (*shown, aux) if has_aux else shown


def jacrev(func: Callable[..., Any], argnums: Union[int, Sequence[int]] = 0, *, has_aux: bool = False,
           chunk_size: Optional[int] = None, _preallocate_and_copy: bool = False) -> Callable[..., Any]:
    """The Jacobian, one vector-Jacobian product per output element: shape output + input
    (``chunk_size`` groups them for memory in torch; the values do not change)."""
    def transformed(*args: Any) -> Any:
        positions = _argnums(argnums)
        with _Transform():
            args, connected = _with_stand_ins(args, positions)
            result = func(*args)
            out, aux = result if has_aux else (result, None)
            trees = [args[i] for i in positions]
            leaves = [leaf for tree in trees for leaf in _leaves(tree)]
            per_output = []
            for o in _leaves(out):
                flat = o.reshape(-1)
                rows = [_differentiate([flat[k]], leaves, [None]) for k in range(flat.numel())]
                jacobians = iter([stack([row[j] for row in rows]).reshape(*o.shape, *leaf.shape)
                                  if rows else zeros_like(o) for j, leaf in enumerate(leaves)])
                per_input = tuple(_rebuild(tree, jacobians) for tree in trees)
                per_output.append(per_input[0] if isinstance(argnums, int) else per_input)
        found = _shown(_rebuild(out, iter(per_output)), connected)
        return (found, aux) if has_aux else found

    return transformed


def jacfwd(func: Callable[..., Any], argnums: int = 0, has_aux: bool = False,
           randomness: str = "error") -> Callable[..., Any]:
    """The Jacobian, one Jacobian-vector product per input element (columns, as forward mode
    computes them, so that even the signs of its zeros are forward mode's)."""
    if not isinstance(argnums, int) or has_aux:
        raise not_supported("jacfwd over several argnums or with has_aux", "torch")

    def transformed(*args: Any) -> Any:
        tree = args[argnums]
        leaves = _leaves(tree)

        def of_leaves(*values: Tensor) -> Any:
            return func(*args[:argnums], _rebuild(tree, iter(values)), *args[argnums + 1:])

        columns: list[list[list[Tensor]]] = []  # [input leaf][element] -> each output leaf's column
        out: Any = None
        for j, leaf in enumerate(leaves):
            per_element = []
            for k in range(leaf.numel()):
                tangents = [zeros_like(value) for value in leaves]
                unit = tangents[j].reshape(-1)
                unit[k] = 1.0
                tangents[j] = unit.reshape(leaf.shape)
                out, column = jvp(of_leaves, tuple(leaves), tuple(tangents))
                per_element.append([c.reshape(-1) for c in _leaves(column)])
            columns.append(per_element)
        per_output = [_rebuild(tree, iter([stack([element[i] for element in per_element], -1)
                                           .reshape(*o.shape, *leaf.shape)
                                           for per_element, leaf in zip(columns, leaves)]))
                      for i, o in enumerate(_leaves(out))]
        return _rebuild(out, iter(per_output))

    return transformed


def hessian(func: Callable[..., Any], argnums: Union[int, Sequence[int]] = 0) -> Callable[..., Any]:
    """The Jacobian of the Jacobian."""
    return jacfwd(jacrev(func, argnums), argnums)


def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error",
         *, chunk_size: Any = None) -> Callable[..., Any]:
    """The function over each slice of the batch dimension, the results stacked. torch runs the
    function's ops batched, so a result's node is the node of the op the function ended with
    (``MulBackward0``, not a stack's): the stack's node shows that name (its edges remain the
    slices')."""
    def transformed(*args: Any) -> Any:
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        sizes = {leaf.shape[d] for a, d in zip(args, dims) if d is not None for leaf in _leaves(a)}
        if len(sizes) != 1:
            raise TORCH.error("vmap_sizes", sizes=sorted(sizes))
        results = [func(*[a if d is None else _rebuild(a, iter([t.select(d, k) for t in _leaves(a)]))
                          for a, d in zip(args, dims)])
                   for k in range(sizes.pop())]
        stacked = iter([_named_as(stack(list(column), out_dims), column[0])
                        for column in zip(*[_leaves(r) for r in results])])
        return _rebuild(results[0], stacked)

    return transformed


def _named_as(batched: Tensor, one: Tensor) -> Tensor:
    """``batched`` with its node named as the node of ``one`` of the slices it stacks."""
    if one._grad_fn is not None and batched._grad_fn is not None:
        C.named(batched, one._grad_fn.name())
    return batched


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None,
                    kwargs: Any = None, *, tie_weights: bool = True, strict: bool = False) -> Any:
    """Call ``module`` with some of its parameters and buffers (by dotted name) replaced by the
    given tensors, putting its own back afterwards."""
    dicts = parameter_and_buffer_dicts if isinstance(parameter_and_buffer_dicts, (tuple, list)) \
        else (parameter_and_buffer_dicts,)
    replaced = {name: value for d in dicts for name, value in d.items()}
    saved = []
    for name, value in replaced.items():
        owner_path, _, attr = name.rpartition(".")
        owner = module.get_submodule(owner_path) if owner_path else module
        table = owner._parameters if attr in owner._parameters else owner._buffers
        saved.append((owner, table, attr, table.get(attr)))
        table[attr] = value
        object.__setattr__(owner, attr, value)
    try:
        call_args = args if isinstance(args, tuple) else (args,) if args is not None else ()
        return module(*call_args, **(kwargs or {}))
    finally:
        for owner, table, attr, value in reversed(saved):
            table[attr] = value
            object.__setattr__(owner, attr, value)

__getattr__ = module_getattr("torch.func")


def linearize(func: Callable[..., Any], *primals: Tensor) -> tuple[Any, Callable[..., Any]]:
    """The function's output at ``primals`` and a function of tangents giving its
    Jacobian-vector products there (torch traces the function and warns of its tracing's
    internals; those warnings are not reproduced)."""
    out, _ = jvp(func, primals, tuple(zeros_like(p) for p in primals))

    def jvp_fn(*tangents: Tensor) -> Any:
        return jvp(func, primals, tangents)[1]

    return out, jvp_fn


def stack_module_state(models: Sequence[Any]) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """Each parameter and buffer of same-class models stacked along a new first dimension:
    fresh leaves requiring grad where the models' parameters all do (torch's checks, in its
    words)."""
    models = list(models)
    if not models:
        raise TORCH.error("stack_module_state_empty")
    if len({m.training for m in models}) != 1:
        raise TORCH.error("stack_module_state_mode")
    if any(type(m) is not type(models[0]) for m in models):
        raise TORCH.error("stack_module_state_class")

    def stacked(tables: list[dict[str, Tensor]]) -> dict[str, Tensor]:
        out = {}
        for name in tables[0]:
            tensors = [table[name] for table in tables]
            flags = {t.requires_grad for t in tensors}
            if len(flags) != 1:
                raise TORCH.error("stack_module_state_flags", name=name)
            value = stack(tensors)
            out[name] = value.detach().requires_grad_() if flags.pop() else value
        return out

    return (stacked([dict(m.named_parameters()) for m in models]),
            stacked([dict(m.named_buffers()) for m in models]))

