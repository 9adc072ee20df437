"""``torch.finfo`` and ``torch.iinfo``: a dtype's numerical limits, as torch reports them."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine.torch._core import get_default_dtype

__all__ = ["finfo", "iinfo"]


class finfo:  # noqa: N801 - torch's name
    """A floating dtype's ``eps``, ``max``, ``min``, ``tiny`` (``smallest_normal``),
    ``resolution`` and ``bits`` (the default dtype's when none is given)."""

    def __init__(self, type: Optional[Any] = None) -> None:  # noqa: A002 - torch's name
        self.dtype = type if type is not None else get_default_dtype()
        info = np.finfo(self.dtype.numpy)
        self.bits, self.eps, self.max, self.min = info.bits, float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = float(info.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
                f"dtype={str(self.dtype).split('.')[-1]})")


class iinfo:  # noqa: N801 - torch's name
    """An integer dtype's ``max``, ``min`` and ``bits``."""

    def __init__(self, type: Any) -> None:  # noqa: A002 - torch's name
        self.dtype = type
        info = np.iinfo(type.numpy)
        self.bits, self.max, self.min = info.bits, int(info.max), int(info.min)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={str(self.dtype).split('.')[-1]})"
