"""A runnable program for the real framework that reproduces a case, for failure reports.

The program is plain torch or paddle code: leaves become ``torch.tensor`` / ``paddle.to_tensor``
calls, steps become the calls the adapter makes, observations become ``print`` calls.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.corpus.case import Case
from conformance.corpus.op_registry import REGISTERED, RegisteredOp
from conformance.corpus.text import comment_lines
from conformance.corpus.vocabulary import DIALECT_LACKS, STEPS_BY_KEY
from conformance.run.adapters import Unsupported
from conformance.run.calls import KEYWORDS, call_keywords

_TORCH_OPS = {
    "add": "{0} + {1}", "sub": "{0} - {1}", "mul": "{0} * {1}", "div": "{0} / {1}",
    "pow": "{0} ** {1}", "neg": "-{0}", "gt": "{0} > {1}", "lt": "{0} < {1}",
    "matmul": "torch.matmul({0}, {1})", "mm": "torch.mm({0}, {1})", "where": "torch.where({0}, {1}, {2})",
    "maximum": "torch.maximum({0}, {1})", "minimum": "torch.minimum({0}, {1})",
    "clone": "{0}.clone()", "detach": "{0}.detach()",
    "sigmoid": "torch.sigmoid({0})", "relu": "torch.relu({0})",
}
_PADDLE_OPS = {**_TORCH_OPS, "matmul": "paddle.matmul({0}, {1})", "mm": "paddle.mm({0}, {1})",
               "where": "paddle.where({0}, {1}, {2})",
               "maximum": "paddle.maximum({0}, {1})", "minimum": "paddle.minimum({0}, {1})",
               "sigmoid": "paddle.nn.functional.sigmoid({0})",
               "relu": "paddle.nn.functional.relu({0})"}


def _index(spec: list[Any]) -> str:
    parts = []
    for e in spec:
        if e == "...":
            parts.append("...")
        elif e is None:
            parts.append("None")
        elif isinstance(e, dict):
            a = [("" if x is None else str(x)) for x in e["slice"]]
            parts.append(":".join(a) if len(a) > 1 else a[0] + ":")
        else:
            parts.append(repr(e))
    return ", ".join(parts)


def _arg(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_arg(x) for x in v) + "]"
    return v if isinstance(v, str) else repr(v)


class _Writer:
    def __init__(self, dialect: str, device: str = "cpu") -> None:
        self.dialect = dialect
        # torch on another device: what the adapter makes is made there, and the program says so
        self.on = "" if device == "cpu" else f", device='{device}'"
        self.to = "" if device == "cpu" else f".to('{device}')"
        self.lines: list[str] = []
        self.m = "torch" if dialect == "torch" else "paddle"
        self.needs_swap = False
        self.needs_parameter = False  # paddle: the helper making a parameter with given values
        self.needs_linspace = False  # paddle: the helper making a linspace leaf
        self.modules: set[str] = set()  # names bound by module steps

    def seed(self, s: Any) -> str:
        if s is None or isinstance(s, str):
            return repr(s) if s is None else s
        if "scalar" in s:
            return repr(s["scalar"])
        dtype = s.get("dtype", "float32")
        if self.dialect == "torch":
            return f"torch.tensor({json.dumps(s['value'])}, dtype=torch.{dtype}{self.on})"
        return f"paddle.to_tensor({json.dumps(s['value'])}, dtype='{dtype}')"

    def seeds(self, step: dict[str, Any]) -> str:
        """``, [seed, …]`` when the case gives seeds (``, None`` for null), else nothing."""
        if "seeds" not in step:
            return ""
        if step["seeds"] is None:
            return ", None"
        return ", [" + ", ".join(self.seed(x) for x in step["seeds"]) + "]"

    def keywords(self, step: dict[str, Any], kind: str) -> str:
        """``, name=value`` for each keyword the call passes (``calls.call_keywords``)."""
        given = call_keywords(step, kind, self.dialect)
        return "".join(f", {k}=[{', '.join(v)}]" if k in ("inputs", "no_grad_vars") else f", {k}={v!r}"
                       for k, v in given.items())

    def registered_op(self, op: RegisteredOp, args: list[str], kwargs: dict[str, Any]) -> str:
        """The call the adapter makes for an op of the registry, as program text."""
        call = op.call(self.dialect)
        if call is None:
            raise Unsupported(f"{self.dialect} has no {op.name}")
        named = [f"{call.keyword(k)}={v!r}" for k, v in kwargs.items()]
        if call.is_method:
            return f"{args[0]}{call.path}({', '.join(args[1:] + named)})"
        return f"{self.m}.{call.path}({', '.join(args + named)})"

    def op(self, step: dict[str, Any]) -> str:
        name, args, kw = step["op"], [_arg(a) for a in step["args"]], step.get("kwargs", {})
        table = _TORCH_OPS if self.dialect == "torch" else _PADDLE_OPS
        registered = REGISTERED.get(name)
        if registered is not None:
            return self.registered_op(registered, args, kw)
        if name in table:
            return table[name].format(*args)
        if name == "getitem":
            return f"{args[0]}[{_index(kw['index'])}]"
        if name in ("split", "unbind"):
            return self.split(name, args[0], kw)
        if self.dialect == "torch":
            if name in ("cat", "stack"):
                return f"torch.{name}({args[0]}, {kw.get('dim', 0)})"
            if name == "cast":
                return f"{args[0]}.to(torch.{kw['dtype']})"
            if name in ("expand", "reshape"):
                return f"{args[0]}.{name}({', '.join(map(str, kw['shape']))})"
            if name in ("max", "min") and kw.get("dim") is not None:
                return f"torch.{name}({args[0]}, {kw['dim']}, keepdim={kw.get('keepdim', False)}).values"
            if name in ("amax", "amin") and kw.get("dim") is None:
                return f"torch.{name}({args[0]}, ())"
            rename = {"dim0": "dim0", "dim1": "dim1"}
            kwargs = ", ".join(f"{rename.get(k, k)}={_arg(v) if not isinstance(v, list) else tuple(v)}"
                               for k, v in kw.items() if v is not None)
            if name == "clamp":
                kwargs = ", ".join(f"{k}={v}" for k, v in kw.items())
            return f"torch.{name}({args[0]}{', ' + kwargs if kwargs else ''})"
        if name in ("cat", "stack"):
            return f"paddle.{'concat' if name == 'cat' else 'stack'}({args[0]}, axis={kw.get('dim', 0)})"
        if name == "cast":
            return f"paddle.cast({args[0]}, '{kw['dtype']}')"
        if name == "clamp":
            return f"paddle.clip({args[0]}, {kw.get('min')}, {kw.get('max')})"
        if name in ("softmax", "log_softmax"):
            return f"paddle.nn.functional.{name}({args[0]}, axis={kw['dim']})"
        if name == "transpose":
            self.needs_swap = True
            return f"swap_dims({args[0]}, {kw['dim0']}, {kw['dim1']})"
        if name == "permute":
            return f"paddle.transpose({args[0]}, {kw['dims']})"
        renamed = {"dim": "axis"}
        kwargs = ", ".join(f"{renamed.get(k, k)}={v!r}" for k, v in kw.items())
        return f"paddle.{name}({args[0]}{', ' + kwargs if kwargs else ''})"

    def split(self, name: str, tensor: str, kw: dict[str, Any]) -> str:
        """split / unbind: torch's split takes sizes or a piece size, paddle's sizes or a count."""
        dim = kw.get("dim", 0)
        axis = "dim" if self.dialect == "torch" else "axis"
        if name == "unbind":
            return f"{self.m}.unbind({tensor}, {axis}={dim})"
        if "chunks" in kw:
            return f"{self.m}.chunk({tensor}, {kw['chunks']}, {axis}={dim})"
        return f"{self.m}.split({tensor}, {kw.get('sections', kw.get('size'))}, {axis}={dim})"

    def block(self, context: str, steps: Any, indent: str) -> None:
        """``with context:`` and the steps inside it."""
        self.lines.append(f"{indent}with {context}:")
        self.steps(steps, indent + "    ")

    def steps(self, steps: Any, indent: str = "") -> None:
        for step in steps:
            self.step(step, indent)

    def lacked(self, step: dict[str, Any]) -> str:
        """What of ``step`` the dialect has no API for ('' when it has all): the adapter reports
        such a step as unsupported and calls nothing, so the program does not either."""
        kind = next(k for k in step if k in STEPS_BY_KEY)
        lacks = DIALECT_LACKS[self.dialect]
        if (kind, "") in lacks:
            return kind.replace("_", " ")
        if kind in KEYWORDS:
            try:
                call_keywords(step, kind, self.dialect)
            except Unsupported as exc:
                return str(exc)
            return ""
        fields = [f for f in step if (kind, f) in lacks]
        return f"{kind}'s {', '.join(fields)}" if fields else ""

    def step(self, s: dict[str, Any], ind: str) -> None:
        m, out = self.m, self.lines.append
        lacked = self.lacked(s)
        if lacked:
            out(f"{ind}pass  # not run: {m} has no {lacked}")
        elif "leaf" in s:
            out(f"{ind}{s['leaf']} = {self.leaf(s)}")
        elif "let" in s:
            out(f"{ind}{_listed(s['let'])} = {self.op(s)}")
        elif "backward" in s:
            outs = s["backward"] if isinstance(s["backward"], list) else [s["backward"]]
            seed_list = [self.seed(x) for x in s.get("seeds") or []]
            opts = self.keywords(s, "backward")
            if s.get("api") == "method":
                first = (seed_list[0] if seed_list else "None") if "seeds" in s else ""
                out(f"{ind}{outs[0]}.backward({first}{opts if first else opts[2:]})")
            else:
                out(f"{ind}{m}.autograd.backward([{', '.join(outs)}]{self.seeds(s)}{opts})")
        elif "grad" in s:
            outs = s["grad"] if isinstance(s["grad"], list) else [s["grad"]]
            seeds, opts = self.seeds(s), self.keywords(s, "grad")
            target = ", ".join(s.get("into", [])) or "result"
            fn = "torch.autograd.grad" if m == "torch" else "paddle.grad"
            out(f"{ind}{target}{',' if len(s.get('into', [])) == 1 else ''} = {fn}([{', '.join(outs)}], "
                f"[{', '.join(s['wrt'])}]{seeds}{opts})")
            out(f"{ind}print({target})")
        elif "observe" in s:
            what = {"value": s["of"], "grad": f"{s['of']}.grad",
                    "grad_array": f"{s['of']}.grad.numpy()" if m == "torch"
                    else f"{s['of']}.gradient()",
                    "equal": f"{s['of']}.equal({s.get('to')})" if m == "torch"
                    else f"paddle.equal_all({s['of']}, {s.get('to')}).item()"}.get(s["observe"])
            if what is None:
                flag = "requires_grad" if m == "torch" else "stop_gradient"
                what = f"{s['of']}.{flag}, {s['of']}.is_leaf, {s['of']}.grad_fn"
            out(f"{ind}print({what})")
        elif "clear_grad" in s:
            t = s["clear_grad"]
            if m == "torch":
                out(f"{ind}{t}.grad = None" if s.get("to", "none") == "none"
                    else f"{ind}if {t}.grad is not None:\n{ind}    {t}.grad.zero_()")
            else:
                out(f"{ind}{t}.clear_gradient(False)" if s.get("to", "none") == "none"
                    else f"{ind}{t}.clear_grad()")
        elif "retain_grad" in s:
            out(f"{ind}{s['retain_grad']}.{'retain_grad' if m == 'torch' else 'retain_grads'}()")
        elif "set_requires_grad" in s:
            t, v = s["set_requires_grad"], s["value"]
            out(f"{ind}{t}.requires_grad_({v})" if m == "torch" else f"{ind}{t}.stop_gradient = {not v}")
        elif "no_grad" in s:
            self.block(f"{m}.no_grad()", s["no_grad"], ind)
        elif "enable_grad" in s:
            self.block(f"{m}.enable_grad()", s["enable_grad"], ind)
        elif "set_grad_enabled" in s:
            self.block(f"{m}.set_grad_enabled({s['set_grad_enabled']})", s["steps"], ind)
        elif "hook" in s:
            handle = s.get("handle", "_")
            body = f"g * {s['scale']}" if "scale" in s else "None"
            if s.get("record"):
                body = f"(print('hook on {s['hook']}:', g), {body})[1]"
            out(f"{ind}{handle} = {s['hook']}.register_hook(lambda g: {body})")
        elif "def" in s:
            out(f"{ind}def {s['def']}({', '.join(s['inputs'])}):")
            self.steps(s["body"], ind + "    ")
            out(f"{ind}    return {s['output']}")
        elif "functional" in s:
            at = s["at"][0] if len(s["at"]) == 1 else "(" + ", ".join(s["at"]) + ",)"
            if m == "torch":
                v = ""
                if s.get("v"):
                    v = ", " + (s["v"][0] if len(s["v"]) == 1 else "(" + ", ".join(s["v"]) + ",)")
                opts = "".join(f", {k}={s[k]!r}" for k in ("create_graph", "strict") if k in s)
                out(f"{ind}print(torch.autograd.functional.{s['functional']}({s['of']}, {at}{v}{opts}))")
            else:
                xs = s["at"][0] if len(s["at"]) == 1 else "[" + ", ".join(s["at"]) + "]"
                batch = f", batch_axis={s['batch_axis']}" if "batch_axis" in s else ""
                out(f"{ind}print(paddle.autograd.{s['functional']}({s['of']}({', '.join(s['at'])}), "
                    f"{xs}{batch})[:])")
        elif "optimizer" in s:
            params, lr = ", ".join(s["params"]), s["lr"]
            extra = f", momentum={s.get('momentum', 0.9)}" if s["kind"] == "momentum" else ""
            if m == "torch":
                kind = {"sgd": "SGD", "momentum": "SGD", "adam": "Adam"}[s["kind"]]
                out(f"{ind}{s['optimizer']} = torch.optim.{kind}([{params}], lr={lr}{extra})")
            else:
                kind = {"sgd": "SGD", "momentum": "Momentum", "adam": "Adam"}[s["kind"]]
                out(f"{ind}{s['optimizer']} = paddle.optimizer.{kind}(learning_rate={lr}{extra}, "
                    f"parameters=[{params}])")
        elif "module" in s:
            self.linear(s, ind)
        elif "call" in s:
            out(f"{ind}{s['into']} = {s['call']}({', '.join(s['args'])})")
        elif "set_grad" in s:
            out(f"{ind}{s['set_grad']}.grad = {s['from']}")
        elif "optimizer_step" in s:
            out(f"{ind}{s['optimizer_step']}.step()")
        elif "zero_grad" in s:
            to = s.get("to", "none")
            clear = "clear_gradients" if s["zero_grad"] in self.modules else "clear_grad"
            out(f"{ind}{s['zero_grad']}.zero_grad(set_to_none={to == 'none'})" if m == "torch"
                else f"{ind}{s['zero_grad']}.{clear}(set_to_zero={to == 'zeros'})")
        elif "saved_tensors_hooks" in s:
            pack = "(print('packed:', t), t)[1]" if s.get("record") else "t"
            unpack = f"t * {s['scale']}" if "scale" in s else "t"
            hooks = ("torch.autograd.graph.saved_tensors_hooks" if m == "torch"
                     else "paddle.autograd.saved_tensors_hooks")
            self.block(f"{hooks}(lambda t: {pack}, lambda t: {unpack})",
                       s["saved_tensors_hooks"], ind)
        elif "inference_mode" in s:
            self.block("torch.inference_mode()", s["inference_mode"], ind)
        elif "node_hook" in s:
            handle = s.get("handle", "_")
            scaled = (f"tuple(None if g is None else g * {s['scale']} for g in grads)"
                      if "scale" in s else "None")
            if s.get("record"):
                scaled = f"(print('node hook on {s['node_hook']}:', grads), {scaled})[1]"
            if s["kind"] == "pre":
                out(f"{ind}{handle} = {s['node_hook']}.grad_fn.register_prehook(lambda grads: {scaled})")
            else:
                out(f"{ind}{handle} = {s['node_hook']}.grad_fn.register_hook("
                    f"lambda grads, grad_outputs: {scaled})")
        elif "post_accumulate_hook" in s:
            t, handle = s["post_accumulate_hook"], s.get("handle", "_")
            out(f"{ind}def post_accumulate_{t}(p):")
            if s.get("record"):
                out(f"{ind}    print('{t}.grad after accumulation:', p.grad)")
            out(f"{ind}    with torch.no_grad():")
            out(f"{ind}        p.grad.mul_({s.get('scale', 1.0)})")
            out(f"{ind}{handle} = {t}.register_post_accumulate_grad_hook(post_accumulate_{t})")
        elif "hold_grad" in s:
            out(f"{ind}{s['as']} = {s['hold_grad']}.grad")
        elif "remove_hook" in s:
            out(f"{ind}{s['remove_hook']}.remove()")
        elif "function" in s:
            self.custom_function(s, ind)
        elif "apply" in s:
            out(f"{ind}{_listed(s['into'])} = {s['apply']}.apply({', '.join(s['args'])})")
        elif "inplace" in s:
            t, op, args = s["inplace"], s["op"], [_arg(a) for a in s.get("args", [])]
            if op == "setitem":
                out(f"{ind}{t}[{_index(s['kwargs']['index'])}] = {args[0]}")
            elif op in ("zero", "fill", "detach", "exp"):
                out(f"{ind}{t}.{op}_({s.get('kwargs', {}).get('value', '')})")
            elif m == "paddle":
                method = {"add": "add_", "sub": "subtract_", "mul": "multiply_", "div": "divide_"}[op]
                if op == "mul" and not isinstance(s["args"][0], str):
                    out(f"{ind}{t}.scale_({args[0]})")
                elif not isinstance(s["args"][0], str):
                    out(f"{ind}{t}.{method}(paddle.full_like({t}, {args[0]}))")
                else:
                    out(f"{ind}{t}.{method}({args[0]})")
            else:
                out(f"{ind}{t}.{op}_({args[0]})")


    def leaf(self, s: dict[str, Any]) -> str:
        """The expression that makes a leaf step's tensor, with its constructor."""
        dtype, value, made = s.get("dtype"), json.dumps(s["value"]), s.get("constructor", "tensor")
        grad = bool(s.get("requires_grad"))
        if made == "linspace":
            first, last, steps = s["value"][0], s["value"][-1], len(s["value"])
            if self.m == "torch":
                extra = (f", dtype=torch.{dtype}" if dtype else "") + self.on + (
                    ", requires_grad=True" if grad else "")
                return f"torch.linspace({first}, {last}, {steps}{extra})"
            self.needs_linspace = True
            return f"linspace({first}, {last}, {steps}, '{dtype or 'float32'}', requires_grad={grad})"
        if self.m == "torch":
            if made == "Tensor":
                return f"torch.Tensor({value}){self.to}.requires_grad_({grad})"
            extra = (f", dtype=torch.{dtype}" if dtype else "") + self.on
            if made == "tensor":
                return f"torch.tensor({value}{extra}{', requires_grad=True' if grad else ''})"
            wrapper = "torch.autograd.Variable" if made == "Variable" else "torch.nn.Parameter"
            return f"{wrapper}(torch.tensor({value}{extra}), requires_grad={grad})"
        if made == "Parameter":
            self.needs_parameter = True
            return f"parameter({value}, '{dtype or 'float32'}', requires_grad={grad})"
        extra = (f", dtype='{dtype}'" if dtype else "") + (", stop_gradient=False" if grad else "")
        return f"paddle.to_tensor({value}{extra})"

    def linear(self, s: dict[str, Any], ind: str) -> None:
        """A Linear module given its values: torch copies them in, paddle sets its transpose."""
        out, name, weight = self.lines.append, s["module"], s["weight"]
        self.modules.add(name)
        bias = "bias" in s
        if self.m == "torch":
            out(f"{ind}{name} = torch.nn.Linear({len(weight[0])}, {len(weight)}, bias={bias}){self.to}")
            out(f"{ind}with torch.no_grad():")
            out(f"{ind}    {name}.weight.copy_(torch.tensor({weight!r}{self.on}))")
            if bias:
                out(f"{ind}    {name}.bias.copy_(torch.tensor({s['bias']!r}{self.on}))")
        else:
            out(f"{ind}{name} = paddle.nn.Linear({len(weight[0])}, {len(weight)}"
                f"{'' if bias else ', bias_attr=False'})")
            out(f"{ind}{name}.weight.set_value(paddle.to_tensor({weight!r}).T)")
            if bias:
                out(f"{ind}{name}.bias.set_value(paddle.to_tensor({s['bias']!r}))")
        if s.get("params"):
            out(f"{ind}{', '.join(s['params'])}, = {name}.parameters()")

    def custom_function(self, s: dict[str, Any], ind: str) -> None:
        out, body = self.lines.append, ind + "        "
        base = "torch.autograd.Function" if self.m == "torch" else "paddle.autograd.PyLayer"
        saved = "ctx.saved_tensors" if self.m == "torch" else "ctx.saved_tensor()"
        out(f"{ind}class {s['function']}({base}):")
        out(f"{ind}    @staticmethod")
        out(f"{ind}    def forward(ctx, {', '.join(s['inputs'])}):")
        self.steps(s["forward"], body)
        out(f"{body}ctx.save_for_backward({', '.join(s.get('save', []))})")
        if s.get("dirty"):
            out(f"{body}ctx.mark_dirty({', '.join(s['dirty'])})")
        if s.get("non_differentiable"):
            out(f"{body}ctx.mark_non_differentiable({_listed(s['output']).rstrip(',')})")
        if s.get("materialize_grads") is False:
            out(f"{body}ctx.set_materialize_grads(False)")
        out(f"{body}return {_listed(s['output'])}")
        out("")
        out(f"{ind}    @staticmethod")
        if s.get("once_differentiable"):
            out(f"{ind}    @torch.autograd.function.once_differentiable")
        out(f"{ind}    def backward(ctx, {_listed(s['output_grad'])}):")
        if s.get("save"):
            out(f"{body}{', '.join(s['save'])}, = {saved}")
        self.steps(s["derivative"], body)
        grads = [str(g) for g in s["input_grads"]]
        out(f"{body}return {grads[0] if len(grads) == 1 else '(' + ', '.join(grads) + ')'}")
        out("")


def _listed(names: Any) -> str:
    """A name as itself; a list of names as a tuple's elements (``a,`` for one)."""
    if not isinstance(names, list):
        return str(names)
    return ", ".join(names) + ("," if len(names) == 1 else "")


def program(case: Case, dialect: str, device: str = "cpu") -> str:
    """The case as a standalone torch or paddle program: its id and about as comment lines, then
    only the statements its steps make (every tensor and module made on ``device``, as the
    adapter makes them for a backend on it)."""
    w = _Writer(dialect, device)
    w.steps(case.steps)
    head = [*comment_lines(f"{case.id}: {case.about}"),
            "import torch" if dialect == "torch" else "import paddle"]
    if w.needs_parameter:
        head += ["import numpy as np", "", "", "def parameter(value, dtype, requires_grad):",
                 "    array = np.array(value, dtype=dtype)",
                 "    made = paddle.create_parameter(list(array.shape), dtype, "
                 "default_initializer=paddle.nn.initializer.Assign(array))",
                 "    made.stop_gradient = not requires_grad", "    return made", "", ""]
    if w.needs_linspace:
        head += ["", "", "def linspace(start, stop, num, dtype, requires_grad):",
                 "    made = paddle.linspace(start, stop, num, dtype=dtype)",
                 "    made.stop_gradient = not requires_grad", "    return made", "", ""]
    if w.needs_swap:
        head += ["", "", "def swap_dims(t, a, b):", "    perm = list(range(t.ndim))",
                 "    perm[a], perm[b] = perm[b], perm[a]", "    return paddle.transpose(t, perm)",
                 "", ""]
    return "\n".join(head + w.lines) + "\n"
