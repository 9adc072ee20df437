"""``torch.device`` and ``torch.cuda``: device arguments read as torch reads them.

The engine computes on the CPU whatever the device (``reference_engine.devices``). CUDA exists
only where the engine is asked to act as a machine with one (``reference_engine.devices.simulate``
or ``REFERENCE_ENGINE_DEVICES=cuda``); otherwise placing a tensor there fails as it does with a
torch built without CUDA. What a device shows was measured on an NVIDIA GPU
(``python -m conformance.probes.torch_device``).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from reference_engine import devices
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import missing_from_module
from reference_engine.messages import not_supported

__all__ = ["DEVICE_TYPES", "cuda", "device", "placement"]

# torch's device types, as its "Expected one of …" error lists them
DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
                "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")
MODELLED_TYPES = ("cpu", "cuda", "meta")  # meta: shapes without data, on every machine


def parse(text: str) -> tuple[str, Optional[int]]:
    """A device string (``"cuda:0"``) as its type and index, with torch's errors."""
    parsed = _DEVICE.fullmatch(text)
    if parsed is None:
        raise TORCH.error("invalid_device", device=text)
    kind = parsed.group(1)
    if kind not in DEVICE_TYPES:
        raise TORCH.error("unknown_device_type", types=", ".join(DEVICE_TYPES), device=text)
    return kind, int(parsed.group(2)) if parsed.group(2) is not None else None


class device:  # noqa: N801 - torch's name
    """``torch.device("cuda")``, ``torch.device("cuda:0")``, ``torch.device("cuda", 0)``."""

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: Optional[int] = None) -> None:  # noqa: A002 - torch's keyword
        if isinstance(type, device):
            type, index = type.type, type.index  # noqa: A001
        kind, parsed_index = parse(str(type))
        self.type: str = kind
        self.index: Optional[int] = index if index is not None else parsed_index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"


def of_tensor(placed: str) -> device:
    """What ``Tensor.device`` shows for a tensor placed on ``placed``."""
    kind, _, index = placed.partition(":")
    return device(kind, int(index) if index else None)


# the device ``torch.set_default_device`` chose for new tensors (None: the CPU)
_DEFAULT: list[Any] = [None]


def set_default_device(argument: Any) -> None:
    """New tensors go to ``argument`` from now on (None: the CPU). torch checks the device only
    when a tensor is made there."""
    _DEFAULT[0] = None if argument is None or str(argument) == "cpu" else argument


def get_default_device() -> device:
    where = placement(None)
    return of_tensor(where) if where is not None else device("cpu")


def placement(argument: Any) -> Optional[str]:
    """Where a ``device=`` argument (a string, a ``torch.device``, an index, None) puts a new
    tensor: the canonical device string, or None for the default (the CPU). A device this
    engine does not act as raises torch's error for a machine without it."""
    if argument is None:
        return None if _DEFAULT[0] is None else placement(_DEFAULT[0])
    if isinstance(argument, int) and not isinstance(argument, bool):
        kind, index = "cuda", argument
        if not devices.simulated(kind):
            raise TORCH.error("no_accelerator")
    else:
        parsed = argument if isinstance(argument, device) else device(str(argument))
        kind, index = parsed.type, parsed.index
    if kind not in MODELLED_TYPES:
        raise not_supported(f"torch tensors on a {kind!r} device")
    if kind == "cuda" and not devices.simulated(kind):
        raise TORCH.error("not_compiled_with_cuda")
    return devices.canonical(kind, index)


class _Namespace(type):
    """A class standing for a torch module: a name torch's module has and the class lacks is
    refused by name."""

    def __getattr__(cls, name: str) -> Any:
        raise missing_from_module(f"torch.{cls.__name__}", name)


class cuda(metaclass=_Namespace):  # noqa: N801 - torch.cuda, as far as the engine acts as a machine with a GPU
    """``torch.cuda``: available only where the engine acts as a machine with CUDA. Without it,
    each function answers as torch's CPU build does (measured on 2.13.0)."""

    @staticmethod
    def manual_seed(seed: int) -> None:
        """Seeds CUDA's generators, which the engine does not have: nothing to do."""

    manual_seed_all = manual_seed

    @staticmethod
    def is_bf16_supported(including_emulation: bool = True) -> bool:
        return devices.simulated("cuda")

    @staticmethod
    def is_initialized() -> bool:
        return devices.simulated("cuda")

    @staticmethod
    def empty_cache() -> None:
        """Nothing cached: the engine's arrays are numpy's."""

    @staticmethod
    def memory_allocated(device: Any = None) -> int:
        return 0

    @staticmethod
    def set_device(device: Any) -> None:
        if not devices.simulated("cuda"):
            raise AttributeError("module 'torch._C' has no attribute '_cuda_setDevice'")

    @staticmethod
    def is_available() -> bool:
        return devices.simulated("cuda")

    @staticmethod
    def device_count() -> int:
        return 1 if devices.simulated("cuda") else 0

    @staticmethod
    def current_device() -> int:
        if not devices.simulated("cuda"):
            raise TORCH.error("not_compiled_with_cuda")
        return 0

    @staticmethod
    def synchronize(device: Any = None) -> None:
        """Nothing to wait for: the engine computes as it goes."""
        if not devices.simulated("cuda"):
            raise TORCH.error("not_compiled_with_cuda")
