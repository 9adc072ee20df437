"""``affine_grid`` and ``grid_sample``, the spatial transformer's pair, composed from the engine's
ops under torch's node names (AffineGridGeneratorBackward0, GridSampler2DBackward0): the
gradient reaches both the input and the grid (through the interpolation weights), as torch's
kernels give it."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import recorder
from reference_engine.messages import not_supported
from reference_engine.rule import RULES
from reference_engine.tensor import Tensor

__all__ = ["affine_grid", "grid_sample"]


def _base_coordinates(size: int, align_corners: bool, dtype: np.dtype) -> np.ndarray:
    """The normalised coordinates of ``size`` pixels: their centres (or, aligned, their corners)
    spread over [-1, 1]."""
    if size <= 1:
        return np.zeros(max(size, 0), dtype)
    steps = np.linspace(-1.0, 1.0, size, dtype=np.float64)
    return (steps if align_corners else steps * (size - 1) / size).astype(dtype)


def affine_grid(theta: Tensor, size: Sequence[int], align_corners: Optional[bool] = None) -> Tensor:
    """The sampling grid of ``theta`` (N, 2, 3) for an output of ``size`` (N, C, H, W): each
    pixel's (x, y, 1) times ``thetaᵀ``, as (N, H, W, 2)."""
    if len(size) != 4 or tuple(theta._data.shape[1:]) != (2, 3):
        raise not_supported("affine_grid other than 2-d (theta of shape (N, 2, 3))", "torch")
    n, _, h, w = (int(s) for s in size)
    dtype = theta._data.dtype
    aligned = bool(align_corners)
    xs, ys = _base_coordinates(w, aligned, dtype), _base_coordinates(h, aligned, dtype)
    base = np.stack([np.broadcast_to(xs, (h, w)), np.broadcast_to(ys[:, None], (h, w)),
                     np.ones((h, w), dtype)], -1)
    return recorder.apply(RULES["affine_grid"], (theta,),
                          {"base": base.reshape(h * w, 3), "size": (n, 2, h, w)})


def _unnormalised(coordinate: Tensor, size: int, align_corners: bool) -> Tensor:
    if align_corners:
        return F.mul(F.add(coordinate, 1.0), (size - 1) / 2)
    return F.div(F.sub(F.mul(F.add(coordinate, 1.0), size), 1.0), 2)


def _corner(input: Tensor, rows: np.ndarray, cols: np.ndarray) -> Tensor:  # noqa: A002
    """``input`` at integer ``rows`` and ``cols`` (N, Ho, Wo), zero where outside, as (N, C, Ho, Wo)."""
    n, _, h, w = input._data.shape
    inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    batch = np.arange(n).reshape(n, 1, 1)
    picked = F.getitem(F.permute(input, (0, 2, 3, 1)),
                       (np.broadcast_to(batch, rows.shape), np.clip(rows, 0, h - 1), np.clip(cols, 0, w - 1)))
    kept = F.mul(picked, F.constant_like(picked, inside[..., None].astype(picked._data.dtype)))
    return F.permute(kept, (0, 3, 1, 2))


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",  # noqa: A002
                align_corners: Optional[bool] = None) -> Tensor:
    """``input`` (N, C, H, W) sampled at ``grid``'s (x, y) points in [-1, 1] (N, Ho, Wo, 2):
    bilinear (the four neighbours weighted by distance) or nearest (rounded half to even), zero
    outside (``padding_mode="zeros"``) or at the nearest edge (``"border"``)."""
    if input._data.ndim != 4 or mode not in ("bilinear", "nearest") or \
            padding_mode not in ("zeros", "border"):
        raise not_supported(f"grid_sample mode={mode!r} padding_mode={padding_mode!r} of a "
                            f"{input._data.ndim}-d input", "torch")
    _, _, h, w = input._data.shape
    aligned = bool(align_corners)
    x = _unnormalised(F.getitem(grid, (Ellipsis, 0)), w, aligned)
    y = _unnormalised(F.getitem(grid, (Ellipsis, 1)), h, aligned)
    if padding_mode == "border":
        x, y = F.clamp(x, 0, w - 1), F.clamp(y, 0, h - 1)
    if mode == "nearest":
        out = _corner(input, np.rint(y._data).astype(np.int64), np.rint(x._data).astype(np.int64))
        out = F.link(out, grid)  # the grid gets a zero gradient, as torch's kernel gives it
        return C.named(out, "GridSampler2DBackward0", input, grid)
    x0, y0 = np.floor(x._data).astype(np.int64), np.floor(y._data).astype(np.int64)
    east = F.sub(x, F.constant_like(x, x0.astype(x._data.dtype)))
    south = F.sub(y, F.constant_like(y, y0.astype(y._data.dtype)))
    west, north = F.rsub(east, 1.0), F.rsub(south, 1.0)
    out: Any = None
    for rows, cols, weight_y, weight_x in ((y0, x0, north, west), (y0, x0 + 1, north, east),
                                           (y0 + 1, x0, south, west), (y0 + 1, x0 + 1, south, east)):
        term = F.mul(_corner(input, rows, cols), F.unsqueeze(F.mul(weight_y, weight_x), 1))
        out = term if out is None else F.add(out, term)
    return C.named(out, "GridSampler2DBackward0", input, grid)
