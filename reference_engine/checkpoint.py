"""``torch.save`` / ``torch.load`` and ``paddle.save`` / ``paddle.load`` for the facades: a
program that checkpoints its own state dict and reads it back runs unchanged.

The file is the engine's own, not either framework's: a zip holding ``structure.json`` (the
saved object, with each array replaced by its number) and one ``.npy`` file per array. Only
data is saved (tensors, numpy arrays, numbers, strings, None, and dicts, lists and tuples of
them), and loading parses it, never unpickles: an object of another kind (a whole module, an
optimizer object) is refused by name.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections import OrderedDict
from typing import IO, Any, Union

import numpy as np

from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor

Target = Union[str, "os.PathLike[str]", IO[bytes]]
_FORMAT = "reference-engine-checkpoint/1"


def save(obj: Any, target: Target, framework: str) -> None:
    """Write ``obj`` to the path or binary file ``target``."""
    arrays: list[np.ndarray] = []
    structure = {"format": _FORMAT, "object": _encode(obj, arrays, framework)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("structure.json", json.dumps(structure))
        for i, array in enumerate(arrays):
            data = io.BytesIO()
            np.save(data, array, allow_pickle=False)
            archive.writestr(f"arrays/{i}.npy", data.getvalue())
    if hasattr(target, "write"):
        target.write(buffer.getvalue())  # type: ignore[union-attr]
    else:
        with open(target, "wb") as file:  # type: ignore[arg-type]
            file.write(buffer.getvalue())


def load(source: Target, tensor_type: type, framework: str) -> Any:
    """Read what :func:`save` wrote, each tensor a new one of the facade's ``tensor_type`` (a
    state dict's tensors, not its parameters, as both frameworks load them)."""
    if hasattr(source, "read"):
        data = source.read()  # type: ignore[union-attr]
    else:
        with open(source, "rb") as file:  # type: ignore[arg-type]
            data = file.read()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            structure = json.loads(archive.read("structure.json"))
            arrays = {name: np.load(io.BytesIO(archive.read(name)), allow_pickle=False)
                      for name in archive.namelist() if name.startswith("arrays/")}
    except (zipfile.BadZipFile, KeyError) as exc:
        raise _foreign(framework) from exc
    if structure.get("format") != _FORMAT:
        raise _foreign(framework)
    return _decode(structure["object"], arrays, tensor_type)


def _foreign(framework: str) -> NotImplementedError:
    return not_supported(f"{framework}.load of a file the reference engine did not save", framework)


def _encode(obj: Any, arrays: list[np.ndarray], framework: str) -> Any:
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, Tensor):
        arrays.append(np.asarray(obj._data))
        return {"tensor": len(arrays) - 1}
    if isinstance(obj, np.ndarray):
        arrays.append(obj)
        return {"array": len(arrays) - 1}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        pairs = [[_encode(k, arrays, framework), _encode(v, arrays, framework)] for k, v in obj.items()]
        return {"dict": pairs, "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(x, arrays, framework) for x in obj]}
    raise not_supported(f"{framework}.save of a {type(obj).__name__} (only tensors, arrays, numbers, strings "
                        "and containers of them)", framework)


def _decode(node: Any, arrays: dict[str, np.ndarray], tensor_type: type) -> Any:
    if not isinstance(node, dict):
        return node
    if "tensor" in node:
        return tensor_type._from_array(np.array(arrays[f"arrays/{node['tensor']}.npy"]))
    if "array" in node:
        return arrays[f"arrays/{node['array']}.npy"]
    if "dict" in node:
        items = [(_decode(k, arrays, tensor_type), _decode(v, arrays, tensor_type)) for k, v in node["dict"]]
        return OrderedDict(items) if node.get("ordered") else dict(items)
    if "list" in node:
        return [_decode(x, arrays, tensor_type) for x in node["list"]]
    return tuple(_decode(x, arrays, tensor_type) for x in node["tuple"])
