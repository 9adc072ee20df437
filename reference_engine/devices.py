"""Devices: where a tensor lives, as the framework shows it; the math is the same everywhere.

The engine computes in numpy on the CPU whatever a tensor's device. A device only changes what
a program can see: ``device`` and ``is_cuda``, the tensor type in messages
(``torch.cuda.FloatTensor``), torch's refusal of an op that mixes devices, of ``numpy()`` on a
device tensor, of a seed or a ``.grad`` on another device, and the kernels that differ per
device (an in-place write of a number into an expanded tensor is a fill on CUDA).

A tensor's ``_device`` is a device string (``"cpu"``, ``"cuda:0"``), or None for a tensor the
engine made for itself (a filled seed, a zero gradient): that one goes with any device. An op's
result is on its operands' device. The checks run only once some tensor was put on a device
other than the CPU (``placed``), so a program that never does pays one attribute copy per op.

No device other than the CPU exists unless asked for: :func:`simulate` (or the environment
variable ``REFERENCE_ENGINE_DEVICES=cuda``) makes the engine act as a machine with that device,
so that ``torch.cuda.is_available()`` is True and tensors can be placed on it. A conformance
run does so for its reference of a CUDA backend.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.tensor import Tensor

CPU = "cpu"
META = "meta"  # torch's device of shapes without data: what its tensors hold is not shown
ENVIRONMENT = "REFERENCE_ENGINE_DEVICES"


class _State:
    simulated: frozenset[str] = frozenset(
        t.strip() for t in os.environ.get(ENVIRONMENT, "").split(",") if t.strip())
    placed = False  # whether some tensor was ever put on a device other than the CPU


def simulate(*device_types: str) -> None:
    """Act as a machine with these device types (``"cuda"``): they are available, and tensors
    placed there show what the framework shows on them. ``simulate()`` turns it off."""
    _State.simulated = frozenset(device_types)


@contextlib.contextmanager
def simulating(*device_types: str) -> Iterator[None]:
    """``simulate(*device_types)`` for the duration of a ``with`` block."""
    before = _State.simulated
    simulate(*device_types)
    try:
        yield
    finally:
        _State.simulated = before


def simulated(device_type: str) -> bool:
    """Whether the engine acts as a machine with a device of this type."""
    return device_type in _State.simulated


def place(tensor: Tensor, device: Optional[str]) -> Tensor:
    """Put ``tensor`` on ``device`` (a canonical string such as ``"cuda:0"``)."""
    tensor._device = device
    if device is not None and device != CPU:
        _State.placed = True
    return tensor


def device_of(tensor: Tensor) -> str:
    """The tensor's device, a made-up tensor counting as the CPU's."""
    return tensor._device or CPU


def device_type(device: str) -> str:
    return device.partition(":")[0]


# Ops whose kernel checks its tensor arguments one by one and names the one on another device
# (measured on CUDA): the op's kernel name and what it calls its arguments in order. Every other
# op checks them as a group (TensorIterator) and names the two devices.
_NAMED_ARGUMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "mm": ("mm", ("self", "mat2")),
    "addmm": ("addmm", ("self", "mat1", "mat2")),
    "cat": ("cat", ()),
    "stack": ("cat", ()),
}


def of_result(op: str, inputs: Sequence[Tensor]) -> Optional[str]:
    """The device of ``op``'s result: its first operand's, checked against the others once some
    tensor was placed off the CPU."""
    if not _State.placed:
        return inputs[0]._device
    return result_device(op, inputs, inputs[0]._policy)


# Ops that copy their other operands into the first (``x[i] = t``, ``copy_``): any device.
_COPIES = frozenset({"setitem"})


def result_device(op: str, inputs: Sequence[Tensor], policy: Policy) -> Optional[str]:
    """The device of ``op``'s result on ``inputs``; raises the framework's error when they are
    on different devices. A 0-d CPU tensor goes with any device (a number to the kernel),
    except for the ops that check their arguments one by one."""
    if op in _COPIES:
        return inputs[0]._device
    named = _NAMED_ARGUMENTS.get(op)
    if named is not None:
        return _checked_one_by_one(named, inputs, policy)
    placed = [t._device for t in inputs if t._device is not None]
    if META in placed and any(d != META for d in placed):  # checked against the first operand's
        other = next(d for d in placed if d != placed[0])
        raise policy.error("meta_device_mix", device=other, expected=placed[0])
    common: Optional[str] = None
    cpu_operand = False
    for t in inputs:
        device = t._device
        if device is None:
            continue
        if device == CPU:
            cpu_operand = cpu_operand or t._data.ndim > 0
            common = common or CPU
        elif common in (None, CPU):
            common = device
        elif device != common:
            raise policy.error("devices_differ", first=common, second=device)
    if cpu_operand and common not in (None, CPU):
        raise policy.error("devices_differ", first=common, second=CPU)
    return common


def _checked_one_by_one(named: tuple[str, tuple[str, ...]], inputs: Sequence[Tensor],
                        policy: Policy) -> Optional[str]:
    kernel, arguments = named
    placed = [(i, t._device) for i, t in enumerate(inputs) if t._device is not None]
    if not placed:
        return None
    common = placed[0][1]
    for i, device in placed[1:]:
        if device != common:
            argument = arguments[i] if i < len(arguments) else "tensors"
            key = device_type(device if device != CPU else common).upper()
            raise policy.error("devices_differ_argument", argument=argument, device=device,
                               common=common, kernel=f"wrapper_{key}_{kernel}")
    return common


def check_seed(output: Tensor, seed: Any, index: int, policy: Policy) -> None:
    """A seed gradient must be on its output's device."""
    if seed is None or getattr(seed, "_device", None) is None or output._device is None:
        return
    if seed._device != output._device:
        raise policy.error("seed_device", index=index, expected=output._device, got=seed._device)


def canonical(kind: str, index: Optional[int]) -> str:
    """The device a tensor is placed on: the CPU and the meta device have no index, a CUDA
    device index 0 unless another is given."""
    if kind in (CPU, META):
        return kind
    return f"{kind}:{index if index is not None else 0}"


def writes_number_as_fill(tensor: Tensor, op: str, attrs: dict[str, Any]) -> bool:
    """torch on CUDA writes a Python number through an index as a fill (so an expanded tensor,
    whose elements share memory, takes it); on the CPU it copies a 0-d tensor, which refuses."""
    return op == "setitem" and attrs.get("scalar") == "right" and tensor._device not in (None, CPU)
