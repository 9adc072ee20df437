"""``paddle.summary``: each sublayer's input and output shapes and parameter counts in paddle's
table, printed, with the totals returned. It runs the network once on ``paddle.rand`` inputs
(drawing from paddle's generator, as paddle does) in eval mode, without recording, and names
each layer ``<Class>-<n>`` from its unique name's counter."""

from __future__ import annotations

import numbers
from collections import OrderedDict
from typing import Any

import numpy as np

from reference_engine import grad_mode
from reference_engine.paddle import _core as P
from reference_engine.paddle.nn.layers import Layer, LayerList, Sequential

__all__ = ["summary"]

_WIDTHS = {"layer_width": 15, "input_shape_width": 20, "output_shape_width": 20, "params_width": 15,
           "table_width": 75}


def summary(net: Layer, input_size: Any = None, dtypes: Any = None, input: Any = None) -> dict[str, Any]:  # noqa: A002
    """Print the layer table of ``net`` run on inputs of ``input_size`` (or on ``input``) and
    return ``{"total_params", "trainable_params"}``."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = tuple(input.shape) if isinstance(input, P.Tensor) else [
            tuple(x.shape) for x in (input.values() if isinstance(input, dict) else input)]
    sizes = _checked(_plain(input_size))
    training = net.training
    if training:
        net.eval()
    text, totals = _summary_string(net, sizes, dtypes, input)
    print(text)
    if training:
        net.train()
    return totals


def _plain(size: Any) -> Any:
    """Sizes as tuples: an int is one dimension, an InputSpec its shape."""
    if isinstance(size, int):
        return (size,)
    if hasattr(size, "shape") and not isinstance(size, (list, tuple)):
        return tuple(size.shape)
    if isinstance(size, list):
        return [(item,) if isinstance(item, int) else _plain(item) for item in size]
    return size


def _is_shape(size: Any) -> bool:
    return isinstance(size, (list, tuple)) and all(not isinstance(i, (list, tuple)) for i in size)


def _checked(size: Any) -> Any:
    """One unknown (None or -1) batch dimension becomes 1; shapes nested in lists are checked each."""
    if not _is_shape(size):
        return [_checked(s) for s in size]
    unknown, shape = 0, []
    for item in size:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {item}")
        shape.append(item)
    return tuple(shape)


def _all_numbers(items: Any) -> bool:
    return all(isinstance(i, numbers.Number) for i in items)


def _shapes(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_shapes(v) for v in value]
    return list(value.shape) if hasattr(value, "shape") else []


def _summary_string(model: Layer, input_size: Any, dtypes: Any, input: Any) -> tuple[str, dict[str, Any]]:  # noqa: A002
    def build_dtypes(size: Any, dtype: Any) -> Any:
        dtype = dtype or "float32"
        return [dtype] if isinstance(size, (list, tuple)) and _all_numbers(size) else \
            [build_dtypes(s, dtype) for s in size]

    if not isinstance(dtypes, (list, tuple)):
        dtypes = build_dtypes(input_size, dtypes)
    depth = len(list(model.sublayers()))
    table: OrderedDict[str, dict[str, Any]] = OrderedDict()
    hooks = []

    def hook(layer: Layer, inputs: Any, output: Any) -> None:
        name = type(layer).__name__
        try:
            index = int(layer._full_name.split("_")[-1])
        except ValueError:
            index = len(table)
        row: dict[str, Any] = {"input_shape": _shapes(inputs), "output_shape": _shapes(output),
                               "trainable_params": 0}
        params = 0
        for key, value in layer._parameters.items():
            params += int(np.prod(value.shape))
            parameter = getattr(layer, key)
            if parameter.trainable and not parameter.stop_gradient:
                row["trainable_params"] += int(np.prod(value.shape))
                row["trainable"] = True
            elif not row.get("trainable"):
                row["trainable"] = False
        row["nb_params"] = params
        table[f"{name}-{index + 1}"] = row

    def register(layer: Layer) -> None:
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]

    def build_input(size: Any, dtype: Any) -> Any:
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return P.cast(P.rand(list(size)), dtype[0] if isinstance(dtype, (list, tuple)) else dtype)
        return [build_input(s, d) for s, d in zip(size, dtype)]

    model.apply(register)
    with grad_mode.no_grad():
        if input is not None:
            model(input)
        else:
            model(*build_input(input_size, dtypes))
    for handle in hooks:
        handle.remove()
    return _table(table, input_size)


def _table(table: OrderedDict[str, dict[str, Any]], input_size: Any) -> tuple[str, dict[str, Any]]:
    widths = dict(_WIDTHS)
    for name, row in table.items():
        for key, value in (("output_shape_width", row["output_shape"]),
                           ("input_shape_width", row["input_shape"]), ("layer_width", name),
                           ("params_width", row["nb_params"])):
            widths[key] = max(widths[key], len(str(value)))
    widths["table_width"] = max(widths["table_width"],
                                sum(v for k, v in widths.items() if k != "table_width") + 5)

    def line(*cells: Any) -> str:
        keys = ("layer_width", "input_shape_width", "output_shape_width", "params_width")
        return " ".join(f"{str(c):^{widths[k]}}" for c, k in zip(cells, keys)) + "\n"

    rule, double = "-" * widths["table_width"] + "\n", "=" * widths["table_width"] + "\n"
    text = rule + line("Layer (type)", "Input Shape", "Output Shape", "Param #") + double
    total_params = total_output = trainable = 0
    for name, row in table.items():
        text += line(name, row["input_shape"], row["output_shape"], f"{row['nb_params']:,}")
        total_params += row["nb_params"]
        try:
            total_output += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:
            for shape in row["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if row.get("trainable"):
            trainable += row["trainable_params"]

    def input_megabytes(size: Any) -> float:
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return abs(np.prod(size) * 4.0 / (1024 ** 2.0))
        return sum(input_megabytes(s) for s in size)

    input_mb = input_megabytes(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024 ** 2.0))
    params_mb = abs(total_params * 4.0 / (1024 ** 2.0))
    text += double + f"Total params: {total_params:,}\nTrainable params: {trainable:,}\n"
    text += f"Non-trainable params: {total_params - trainable:,}\n" + rule
    text += f"Input size (MB): {input_mb:0.2f}\nForward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    return text + rule, {"total_params": np.int64(total_params), "trainable_params": np.int64(trainable)}


