"""What each kind of step does: the call it makes on a backend and the program text it prints.

One action per step kind (``conformance.corpus.step_kinds`` declares the kind). ``run`` makes
the step's calls through the interpreter's adapter, binding names and recording observations;
``repro`` writes the same calls as lines of a torch or paddle program (``conformance.run.repro``),
side by side so that the program a report shows is the call that ran. Both dispatch through
``ACTIONS``; a test holds it to one action per declared kind.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from conformance.corpus.case import names_in
from conformance.corpus.vocabulary import IN_PLACE_OPS, OPS
from conformance.run.op_calls import index_text
from conformance.run.trace import array_to_json, rounding_gap

if TYPE_CHECKING:
    from conformance.run.interpreter import Interpreter
    from conformance.run.repro import ReproWriter

Step = dict[str, Any]


class StepAction:
    """A step kind's behaviour: ``run`` on a backend, ``repro`` as program text."""

    key: ClassVar[str]

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        raise NotImplementedError

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        raise NotImplementedError


class _MethodCall(StepAction):
    """A step that calls one method, without arguments, on the object its key names."""

    method: ClassVar[str]

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        getattr(i.get(step[self.key]), self.method)()

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{step[self.key]}.{self.method}()")


ACTIONS: dict[str, StepAction] = {}


def action(cls: type[StepAction]) -> type[StepAction]:
    """Register the action of ``cls.key``."""
    assert cls.key not in ACTIONS, cls.key
    ACTIONS[cls.key] = cls()
    return cls


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def listed(names: Any) -> str:
    """A name as itself; a list of names as a tuple's elements (``a,`` for one)."""
    if not isinstance(names, list):
        return str(names)
    return ", ".join(names) + ("," if len(names) == 1 else "")


def arg_text(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(arg_text(x) for x in v) + "]"
    return v if isinstance(v, str) else repr(v)


# --- tensors and ops -----------------------------------------------------------------------

@action
class Leaf(StepAction):
    key = "leaf"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        name = step["leaf"]
        if name in i.leaf_values:  # the finite-difference oracle's perturbed float64 point
            value = i.leaf_values[name]  # an array: both frameworks take it as it is
            i.env[name] = i.a.leaf(value, str(value.dtype), step.get("requires_grad", False))
            return
        i.env[name] = i.a.leaf(step["value"], step.get("dtype"), step.get("requires_grad", False),
                               step.get("constructor", "tensor"))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{step['leaf']} = {self.expression(w, step)}")

    @staticmethod
    def expression(w: ReproWriter, s: Step) -> str:
        """The expression that makes the leaf's tensor, with its constructor."""
        dtype, value, made = s.get("dtype"), json.dumps(s["value"]), s.get("constructor", "tensor")
        grad = bool(s.get("requires_grad"))
        if made == "linspace":
            first, last, steps = s["value"][0], s["value"][-1], len(s["value"])
            if w.m == "torch":
                extra = (f", dtype=torch.{dtype}" if dtype else "") + w.on + (
                    ", requires_grad=True" if grad else "")
                return f"torch.linspace({first}, {last}, {steps}{extra})"
            w.needs_linspace = True
            return f"linspace({first}, {last}, {steps}, '{dtype or 'float32'}', requires_grad={grad})"
        if w.m == "torch":
            if made == "Tensor":
                return f"torch.Tensor({value}){w.to}.requires_grad_({grad})"
            extra = (f", dtype=torch.{dtype}" if dtype else "") + w.on
            if made == "tensor":
                return f"torch.tensor({value}{extra}{', requires_grad=True' if grad else ''})"
            wrapper = "torch.autograd.Variable" if made == "Variable" else "torch.nn.Parameter"
            return f"{wrapper}(torch.tensor({value}{extra}), requires_grad={grad})"
        if made == "Parameter":
            w.needs_parameter = True
            return f"parameter({value}, '{dtype or 'float32'}', requires_grad={grad})"
        extra = (f", dtype='{dtype}'" if dtype else "") + (", stop_gradient=False" if grad else "")
        return f"paddle.to_tensor({value}{extra})"


@action
class Let(StepAction):
    key = "let"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        args = [i.arg(v) for v in step["args"]]
        kwargs = i.kwargs(OPS[step["op"]], step.get("kwargs", {}))
        made = i.a.op(step["op"], args, kwargs)
        if i.from_gradients.intersection(names_in(step["args"])):
            i.from_gradients.update(_as_list(step["let"]))
        if not isinstance(step["let"], list):
            i.env[step["let"]] = made
            return
        if len(made) != len(step["let"]):  # the case's mistake, seen only when it runs
            raise ValueError(f"'{step['op']}' made {len(made)} tensors but 'let' names "
                             f"{len(step['let'])}")
        i.env.update(zip(step["let"], made))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{listed(step['let'])} = {w.op(step)}")


@action
class InPlace(StepAction):
    key = "inplace"
    _PADDLE_METHODS: ClassVar[dict[str, str]] = {"add": "add_", "sub": "subtract_",
                                                 "mul": "multiply_", "div": "divide_"}

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        args = [i.arg(v) for v in step.get("args", [])]
        kwargs = i.kwargs(IN_PLACE_OPS[step["op"]], step.get("kwargs", {}))
        i.a.inplace(i.get(step["inplace"]), step["op"], args, kwargs)

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        t, op, args = step["inplace"], step["op"], [arg_text(a) for a in step.get("args", [])]
        if op == "setitem":
            line = f"{t}[{index_text(step['kwargs']['index'])}] = {args[0]}"
        elif op in ("zero", "fill", "detach", "exp"):
            line = f"{t}.{op}_({step.get('kwargs', {}).get('value', '')})"
        elif w.m == "paddle":
            method = self._PADDLE_METHODS[op]
            if op == "mul" and not isinstance(step["args"][0], str):
                line = f"{t}.scale_({args[0]})"
            elif not isinstance(step["args"][0], str):
                line = f"{t}.{method}(paddle.full_like({t}, {args[0]}))"
            else:
                line = f"{t}.{method}({args[0]})"
        else:
            line = f"{t}.{op}_({args[0]})"
        w.lines.append(ind + line)


# --- autograd calls ------------------------------------------------------------------------

@action
class Backward(StepAction):
    key = "backward"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        outputs = [i.get(n) for n in _as_list(step["backward"])]
        seeds, keywords = i.call_arguments(step, "backward")
        i.a.backward(outputs, seeds, keywords, step.get("api", "function"))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        outs = _as_list(step["backward"])
        opts = w.keywords(step, "backward")
        if step.get("api") == "method":
            seed_list = [w.seed(x) for x in step.get("seeds") or []]
            first = (seed_list[0] if seed_list else "None") if "seeds" in step else ""
            w.lines.append(f"{ind}{outs[0]}.backward({first}{opts if first else opts[2:]})")
        else:
            w.lines.append(f"{ind}{w.m}.autograd.backward([{', '.join(outs)}]{w.seeds(step)}{opts})")


@action
class Grad(StepAction):
    key = "grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        outputs = [i.get(n) for n in _as_list(step["grad"])]
        wrt = [i.get(n) for n in step["wrt"]]
        seeds, keywords = i.call_arguments(step, "grad")
        results = i.a.grad(outputs, wrt, seeds, keywords)
        i.from_gradients.update(step.get("into", []))
        for name, value in zip(step.get("into", []), results):
            i.env[name] = value
        i.trace.add(where, **i.describe(results))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        outs = _as_list(step["grad"])
        target = ", ".join(step.get("into", [])) or "result"
        fn = "torch.autograd.grad" if w.m == "torch" else "paddle.grad"
        w.lines.append(f"{ind}{target}{',' if len(step.get('into', [])) == 1 else ''} = {fn}("
                       f"[{', '.join(outs)}], [{', '.join(step['wrt'])}]{w.seeds(step)}"
                       f"{w.keywords(step, 'grad')})")
        w.lines.append(f"{ind}print({target})")


@action
class Functional(StepAction):
    key = "functional"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        options = {k: step[k] for k in ("create_graph", "strict", "batch_axis") if k in step}
        result = i.a.functional(step["functional"], i.get(step["of"]),
                                [i.get(n) for n in step["at"]],
                                [i.get(n) for n in step.get("v", [])], options)
        i.trace.add(where, **i.describe(result))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        at = s["at"][0] if len(s["at"]) == 1 else "(" + ", ".join(s["at"]) + ",)"
        if w.m == "torch":
            v = ""
            if s.get("v"):
                v = ", " + (s["v"][0] if len(s["v"]) == 1 else "(" + ", ".join(s["v"]) + ",)")
            opts = "".join(f", {k}={s[k]!r}" for k in ("create_graph", "strict") if k in s)
            w.lines.append(f"{ind}print(torch.autograd.functional.{s['functional']}({s['of']}, "
                           f"{at}{v}{opts}))")
        else:
            xs = s["at"][0] if len(s["at"]) == 1 else "[" + ", ".join(s["at"]) + "]"
            batch = f", batch_axis={s['batch_axis']}" if "batch_axis" in s else ""
            w.lines.append(f"{ind}print(paddle.autograd.{s['functional']}({s['of']}("
                           f"{', '.join(s['at'])}), {xs}{batch})[:])")


@action
class Def(StepAction):
    key = "def"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.env[step["def"]] = i.def_function(step, where)

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}def {step['def']}({', '.join(step['inputs'])}):")
        w.steps(step["body"], ind + "    ")
        w.lines.append(f"{ind}    return {step['output']}")


# --- observing and changing .grad ----------------------------------------------------------

@action
class Observe(StepAction):
    key = "observe"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        tensor = i.get(step["of"])
        what = step["observe"]
        if what == "value":
            i.trace.add(where, **i.describe(tensor))
        elif what == "grad":
            i.trace.add(where, **i.describe(i.a.grad_of(tensor)))
        elif what == "equal":
            other = i.get(step["to"])
            same = i.a.equal(tensor, other)
            gap = None if same else rounding_gap(i.a.describe(tensor)[1], i.a.describe(other)[1])
            i.trace.add(where, "equal", value=same, **({} if gap is None else {"gap_epsilons": gap}))
        elif what == "grad_array":
            array = i.a.grad_array(tensor)
            i.trace.add(where, **({"kind": "none"} if array is None else {
                "kind": "array", "dtype": str(array.dtype), "shape": list(array.shape),
                "values": array_to_json(array)}))
        else:
            i.trace.add(where, "flags", **i.a.flags(tensor))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        of, m = s["of"], w.m
        what = {"value": of, "grad": f"{of}.grad",
                "grad_array": f"{of}.grad.numpy()" if m == "torch" else f"{of}.gradient()",
                "equal": f"{of}.equal({s.get('to')})" if m == "torch"
                else f"paddle.equal_all({of}, {s.get('to')}).item()"}.get(s["observe"])
        if what is None:
            flag = "requires_grad" if m == "torch" else "stop_gradient"
            what = f"{of}.{flag}, {of}.is_leaf, {of}.grad_fn"
        w.lines.append(f"{ind}print({what})")


@action
class ClearGrad(StepAction):
    key = "clear_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.a.clear_grad(i.get(step["clear_grad"]), step.get("to", "none"))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        t, to_none = step["clear_grad"], step.get("to", "none") == "none"
        if w.m == "torch":
            w.lines.append(f"{ind}{t}.grad = None" if to_none
                           else f"{ind}if {t}.grad is not None:\n{ind}    {t}.grad.zero_()")
        else:
            w.lines.append(f"{ind}{t}.clear_gradient(False)" if to_none else f"{ind}{t}.clear_grad()")


@action
class RetainGrad(StepAction):
    key = "retain_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.a.retain_grad(i.get(step["retain_grad"]))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        method = "retain_grad" if w.m == "torch" else "retain_grads"
        w.lines.append(f"{ind}{step['retain_grad']}.{method}()")


@action
class SetRequiresGrad(StepAction):
    key = "set_requires_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.a.set_requires_grad(i.get(step["set_requires_grad"]), step["value"])

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        t, v = step["set_requires_grad"], step["value"]
        w.lines.append(f"{ind}{t}.requires_grad_({v})" if w.m == "torch"
                       else f"{ind}{t}.stop_gradient = {not v}")


@action
class HoldGrad(StepAction):
    key = "hold_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.env[step["as"]] = i.a.grad_of(i.get(step["hold_grad"]))
        i.from_gradients.add(step["as"])

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{step['as']} = {step['hold_grad']}.grad")


@action
class SetGrad(StepAction):
    key = "set_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.get(step["set_grad"]).grad = i.get(step["from"])

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{step['set_grad']}.grad = {step['from']}")


# --- grad-mode and saved-tensor blocks -----------------------------------------------------

class _Block(StepAction):
    """A block of steps run inside a context manager, at ``where.0``, ``where.1``, …

    By default the context manager is the framework function named by the key, reached through
    the adapter method of the same name, called with ``arguments(step)``.
    """

    field: ClassVar[str]

    def arguments(self, step: Step) -> list[Any]:
        return []

    def context(self, i: Interpreter, step: Step) -> Any:
        return getattr(i.a, self.key)(*self.arguments(step))

    def context_text(self, w: ReproWriter, step: Step) -> str:
        return f"{w.m}.{self.key}({', '.join(map(str, self.arguments(step)))})"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        with self.context(i, step):
            i.run_steps(step[self.field], where + ".")

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}with {self.context_text(w, step)}:")
        w.steps(step[self.field], ind + "    ")


@action
class NoGrad(_Block):
    key = field = "no_grad"


@action
class EnableGrad(_Block):
    key = field = "enable_grad"


@action
class SetGradEnabled(_Block):
    key, field = "set_grad_enabled", "steps"

    def arguments(self, step: Step) -> list[Any]:
        return [step["set_grad_enabled"]]


@action
class InferenceMode(_Block):
    key = field = "inference_mode"


@action
class SavedTensorsHooks(_Block):
    key = field = "saved_tensors_hooks"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        scale = step.get("scale")

        def pack(t: Any) -> Any:
            if step.get("record"):
                i.trace.add(where, **i.describe(t))
            return t

        def unpack(t: Any) -> Any:
            return t if scale is None else t * scale

        with i.a.saved_tensors_hooks(pack, unpack):
            i.run_steps(step[self.field], where + ".")

    def context_text(self, w: ReproWriter, step: Step) -> str:
        pack = "(print('packed:', t), t)[1]" if step.get("record") else "t"
        unpack = f"t * {step['scale']}" if "scale" in step else "t"
        hooks = ("torch.autograd.graph.saved_tensors_hooks" if w.m == "torch"
                 else "paddle.autograd.saved_tensors_hooks")
        return f"{hooks}(lambda t: {pack}, lambda t: {unpack})"


# --- hooks ---------------------------------------------------------------------------------

@action
class Hook(StepAction):
    key = "hook"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        seen = (lambda g: i.trace.add(where, **i.describe(g))) if step.get("record") else None
        i.bind_handle(step, i.a.register_hook(i.get(step["hook"]), step.get("scale"), seen))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        body = f"g * {step['scale']}" if "scale" in step else "None"
        if step.get("record"):
            body = f"(print('hook on {step['hook']}:', g), {body})[1]"
        w.lines.append(f"{ind}{step.get('handle', '_')} = {step['hook']}.register_hook(lambda g: {body})")


@action
class NodeHook(StepAction):
    key = "node_hook"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        seen = (lambda grads: i.trace.add(where, **i.describe(list(grads)))) \
            if step.get("record") else None
        i.bind_handle(step, i.a.register_node_hook(i.get(step["node_hook"]), step["kind"],
                                                   step.get("scale"), seen))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        handle = s.get("handle", "_")
        scaled = (f"tuple(None if g is None else g * {s['scale']} for g in grads)"
                  if "scale" in s else "None")
        if s.get("record"):
            scaled = f"(print('node hook on {s['node_hook']}:', grads), {scaled})[1]"
        if s["kind"] == "pre":
            w.lines.append(f"{ind}{handle} = {s['node_hook']}.grad_fn.register_prehook("
                           f"lambda grads: {scaled})")
        else:
            w.lines.append(f"{ind}{handle} = {s['node_hook']}.grad_fn.register_hook("
                           f"lambda grads, grad_outputs: {scaled})")


@action
class PostAccumulateHook(StepAction):
    key = "post_accumulate_hook"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        seen = (lambda g: i.trace.add(where, **i.describe(g))) if step.get("record") else None
        i.bind_handle(step, i.a.register_post_accumulate_hook(
            i.get(step["post_accumulate_hook"]), step.get("scale"), seen))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        t, out = s["post_accumulate_hook"], w.lines.append
        out(f"{ind}def post_accumulate_{t}(p):")
        if s.get("record"):
            out(f"{ind}    print('{t}.grad after accumulation:', p.grad)")
        out(f"{ind}    with torch.no_grad():")
        out(f"{ind}        p.grad.mul_({s.get('scale', 1.0)})")
        out(f"{ind}{s.get('handle', '_')} = {t}.register_post_accumulate_grad_hook(post_accumulate_{t})")


@action
class RemoveHook(_MethodCall):
    key, method = "remove_hook", "remove"


# --- custom functions ----------------------------------------------------------------------

@action
class Function(StepAction):
    key = "function"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.env[step["function"]] = i.a.custom_function(step["function"], i.custom_body(step, where))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        out, body = w.lines.append, ind + "        "
        base = "torch.autograd.Function" if w.m == "torch" else "paddle.autograd.PyLayer"
        saved = "ctx.saved_tensors" if w.m == "torch" else "ctx.saved_tensor()"
        out(f"{ind}class {s['function']}({base}):")
        out(f"{ind}    @staticmethod")
        out(f"{ind}    def forward(ctx, {', '.join(s['inputs'])}):")
        w.steps(s["forward"], body)
        out(f"{body}ctx.save_for_backward({', '.join(s.get('save', []))})")
        if s.get("dirty"):
            out(f"{body}ctx.mark_dirty({', '.join(s['dirty'])})")
        if s.get("non_differentiable"):
            out(f"{body}ctx.mark_non_differentiable({listed(s['output']).rstrip(',')})")
        if s.get("materialize_grads") is False:
            out(f"{body}ctx.set_materialize_grads(False)")
        out(f"{body}return {listed(s['output'])}")
        out("")
        out(f"{ind}    @staticmethod")
        if s.get("once_differentiable"):
            out(f"{ind}    @torch.autograd.function.once_differentiable")
        out(f"{ind}    def backward(ctx, {listed(s['output_grad'])}):")
        if s.get("save"):
            out(f"{body}{', '.join(s['save'])}, = {saved}")
        w.steps(s["derivative"], body)
        grads = [str(g) for g in s["input_grads"]]
        out(f"{body}return {grads[0] if len(grads) == 1 else '(' + ', '.join(grads) + ')'}")
        out("")


@action
class Apply(StepAction):
    key = "apply"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        result = i.a.apply(i.get(step["apply"]), [i.get(n) for n in step["args"]])
        if isinstance(step["into"], list):
            i.env.update(zip(step["into"], result))
        else:
            i.env[step["into"]] = result

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{listed(step['into'])} = {step['apply']}.apply({', '.join(step['args'])})")


# --- optimizers and modules ----------------------------------------------------------------

@action
class Optimizer(StepAction):
    key = "optimizer"
    _CLASSES: ClassVar[dict[str, dict[str, str]]] = {
        "torch": {"sgd": "SGD", "momentum": "SGD", "adam": "Adam"},
        "paddle": {"sgd": "SGD", "momentum": "Momentum", "adam": "Adam"}}

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.env[step["optimizer"]] = i.a.optimizer(step["kind"], [i.get(n) for n in step["params"]],
                                                 step["lr"], step.get("momentum", 0.9))

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        params, lr = ", ".join(s["params"]), s["lr"]
        extra = f", momentum={s.get('momentum', 0.9)}" if s["kind"] == "momentum" else ""
        kind = self._CLASSES[w.m][s["kind"]]
        if w.m == "torch":
            w.lines.append(f"{ind}{s['optimizer']} = torch.optim.{kind}([{params}], lr={lr}{extra})")
        else:
            w.lines.append(f"{ind}{s['optimizer']} = paddle.optimizer.{kind}(learning_rate={lr}"
                           f"{extra}, parameters=[{params}])")


@action
class OptimizerStep(_MethodCall):
    key, method = "optimizer_step", "step"


@action
class ZeroGrad(StepAction):
    key = "zero_grad"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.a.zero_grad(i.get(step["zero_grad"]), step.get("to", "none"))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        owner, to = step["zero_grad"], step.get("to", "none")
        clear = "clear_gradients" if owner in w.modules else "clear_grad"
        w.lines.append(f"{ind}{owner}.zero_grad(set_to_none={to == 'none'})" if w.m == "torch"
                       else f"{ind}{owner}.{clear}(set_to_zero={to == 'zeros'})")


@action
class Module(StepAction):
    key = "module"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        module = i.a.linear(np.array(step["weight"], dtype=np.float32),
                            None if "bias" not in step else np.array(step["bias"], dtype=np.float32))
        i.env[step["module"]] = module
        for name, param in zip(step.get("params", []), i.a.parameters(module)):
            i.env[name] = param

    def repro(self, w: ReproWriter, s: Step, ind: str) -> None:
        """A Linear module given its values: torch copies them in, paddle sets its transpose."""
        out, name, weight = w.lines.append, s["module"], s["weight"]
        w.modules.add(name)
        bias = "bias" in s
        if w.m == "torch":
            out(f"{ind}{name} = torch.nn.Linear({len(weight[0])}, {len(weight)}, bias={bias}){w.to}")
            out(f"{ind}with torch.no_grad():")
            out(f"{ind}    {name}.weight.copy_(torch.tensor({weight!r}{w.on}))")
            if bias:
                out(f"{ind}    {name}.bias.copy_(torch.tensor({s['bias']!r}{w.on}))")
        else:
            out(f"{ind}{name} = paddle.nn.Linear({len(weight[0])}, {len(weight)}"
                f"{'' if bias else ', bias_attr=False'})")
            out(f"{ind}{name}.weight.set_value(paddle.to_tensor({weight!r}).T)")
            if bias:
                out(f"{ind}{name}.bias.set_value(paddle.to_tensor({s['bias']!r}))")
        if s.get("params"):
            out(f"{ind}{', '.join(s['params'])}, = {name}.parameters()")


@action
class Call(StepAction):
    key = "call"

    def run(self, i: Interpreter, step: Step, where: str) -> None:
        i.env[step["into"]] = i.get(step["call"])(*(i.get(n) for n in step["args"]))

    def repro(self, w: ReproWriter, step: Step, ind: str) -> None:
        w.lines.append(f"{ind}{step['into']} = {step['call']}({', '.join(step['args'])})")
