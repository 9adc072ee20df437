"""The array ``torch.tensor(data)`` and ``torch.Tensor(data)`` hold, made from Python data as
torch makes it, errors included.

torch builds a tensor from nested sequences in three steps (``torch/csrc/utils/tensor_new.cpp``),
and each step has its own errors, so a program that hands over bad data sees the step that
refused it:

1. **sizes**: follow the *first* element of each sequence down (a string never ends: "too many
   dimensions 'str'");
2. **dtype inference** (``torch.tensor`` without a dtype only): every element's dtype, promoted
   ("Could not infer dtype of object"; a string is "new(): invalid data type 'str'");
3. **store**: every element against the sizes ("expected sequence of length 2 at dim 1 (got 3)",
   "not a sequence") and every number against the dtype ("must be real number, not object"). A
   tensor of several elements where a number belongs is refused as ``item()`` refuses it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from reference_engine.dialects.torch_policy import TORCH
from reference_engine.dtypes import is_floating
from reference_engine.messages import not_modelled, type_name
from reference_engine.tensor import Tensor

_MAX_DIMS = 64  # torch's MAX_DIMS for a tensor made from data
_PYTHON_NUMBERS = (float, int, bool)
def is_sequence(obj: Any) -> bool:
    """What ``PySequence_Check`` accepts among the objects a program hands over: lists, tuples,
    ranges, strings and numpy arrays; not dicts, sets, numbers or tensors (a tensor is indexed
    as a mapping)."""
    if isinstance(obj, np.ndarray):
        return obj.ndim > 0
    return isinstance(obj, Sequence) and not isinstance(obj, Tensor)


def array_from_data(data: Any, target: Optional[np.dtype], infer: bool) -> np.ndarray:
    """A new array holding ``data`` (nested sequences of numbers, numpy values and tensors).
    ``target`` is the dtype asked for; without one, ``infer`` (``torch.tensor``) infers it from
    the elements and otherwise (``torch.Tensor``) it is the default float."""
    if isinstance(data, str):
        raise TORCH.error("data_type", type_name=type_name(data))
    if isinstance(data, list) and all(type(x) in _PYTHON_NUMBERS for x in data):
        array = np.array(data)  # the common case: a flat list of Python numbers
        dtype = target or (TORCH.default_float if array.dtype.kind == "f" or not infer else array.dtype)
        return array.astype(dtype)
    sizes = _sizes(data)
    dtype = target or (_inferred(data) if infer else TORCH.default_float)
    if math.prod(sizes) == 0:
        return np.zeros(sizes, dtype)
    _check_store(data, sizes, 0, is_floating(dtype) or dtype.kind == "c")
    if isinstance(data, (list, tuple)) and data and isinstance(data[0], np.ndarray) \
            and not TORCH.warned_list_of_arrays:
        type(TORCH).warned_list_of_arrays = True  # torch warns once per process
        TORCH.warn("list_of_arrays", stacklevel=5)
    return np.array(_unwrapped(data), dtype=dtype)


def _sizes(data: Any) -> list[int]:
    """Step 1: the sizes read down the first elements."""
    sizes: list[int] = []
    while is_sequence(data):
        sizes.append(len(data))
        if len(sizes) > _MAX_DIMS:
            raise TORCH.error("data_dims", type_name=type_name(data))
        if not sizes[-1]:
            break
        data = data[0]
    return sizes


def _inferred(data: Any) -> np.dtype:
    """Step 2: the dtype of every element, promoted as torch promotes (a float of any kind wins
    over integers and bools; within a kind, the wider)."""
    if isinstance(data, (np.ndarray, np.generic)):  # before float: numpy.float64 is a float
        return data.dtype
    if isinstance(data, bool):
        return np.dtype(np.bool_)
    if isinstance(data, int):
        return np.dtype(np.int64)
    if isinstance(data, float):
        return TORCH.default_float
    if isinstance(data, complex):
        raise not_modelled("torch", "complex64")
    if isinstance(data, Tensor):
        return data._data.dtype
    if isinstance(data, str):
        raise TORCH.error("data_type", type_name=type_name(data))
    if is_sequence(data):
        found = [_inferred(x) for x in data]
        return _promoted(found) if found else TORCH.default_float
    raise TORCH.error("data_infer_dtype", type_name=type_name(data))


def _promoted(dtypes: list[np.dtype]) -> np.dtype:
    for kind in ("f", "iu", "b"):
        of_kind = [d for d in dtypes if d.kind in kind]
        if of_kind:
            return max(of_kind, key=lambda d: (d.itemsize, d.kind == "i"))
    return dtypes[0]


def _check_store(data: Any, sizes: list[int], dim: int, floating: bool) -> None:
    """Step 3: every element where ``sizes`` puts it, and a number at every innermost place."""
    if dim == len(sizes):
        if isinstance(data, Tensor):
            if data._data.size != 1:
                raise TORCH.error("data_tensor_element")
        elif not isinstance(data, (*_PYTHON_NUMBERS, np.number, np.bool_)):
            raise TORCH.error("data_real" if floating else "data_integer", type_name=type_name(data))
        return
    if isinstance(data, Tensor):
        data = list(data._data)
    elif not is_sequence(data):
        raise TORCH.error("data_not_sequence")
    if len(data) != sizes[dim]:
        raise TORCH.error("data_length", expected=sizes[dim], dim=dim, got=len(data))
    for x in data:
        _check_store(x, sizes, dim + 1, floating)


def _unwrapped(data: Any) -> Any:
    """``data`` with each tensor replaced by its values, for numpy."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)) and any(isinstance(x, (Tensor, list, tuple)) for x in data):
        return [_unwrapped(x) for x in data]
    return data
