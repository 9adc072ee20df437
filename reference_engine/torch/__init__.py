"""PyTorch's names and signatures over the reference engine: ``import reference_engine.torch as torch``.

The facade's namespace: the tensor, dtypes and functions of ``_core``, the functions of
``extras`` (each also a Tensor method), ``autocast``, and torch's submodules. A name torch has
and the facade lacks raises ``NotModelledError``, an ``AttributeError`` that names it.
"""

from __future__ import annotations

from math import e, inf, nan, pi
from typing import Any

from reference_engine.framework_names import missing_from_module
from reference_engine.tensor import in_place_method
from reference_engine.torch import (
    _core,
    accelerator,
    amp,
    autograd,
    backends,
    cholesky_ops,
    determinism,
    distributions,
    extras,
    factorization_ops,
    func,
    fused_ops,
    indexed_writes,
    linalg,
    lookups,
    math_functions,
    more_ops,
    nn,
    optim,
    order_statistics,
    random,
    return_types,
    serialization,
    shape_in_place,
    small_ops,
    special,
    testing,
    threads,
    utils,
    version,
)
from reference_engine.torch._core import *  # noqa: F403
from reference_engine.torch.amp import autocast, get_autocast_dtype, is_autocast_enabled
from reference_engine.torch.cholesky_ops import *  # noqa: F403
from reference_engine.torch.determinism import *  # noqa: F403
from reference_engine.torch.extras import *  # noqa: F403
from reference_engine.torch.factorization_ops import *  # noqa: F403
from reference_engine.torch.fused_ops import *  # noqa: F403
from reference_engine.torch.indexed_writes import *  # noqa: F403
from reference_engine.torch.legacy_types import (
    BFloat16Tensor,
    BoolTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
)
from reference_engine.torch.lookups import *  # noqa: F403
from reference_engine.torch.math_functions import *  # noqa: F403
from reference_engine.torch.more_ops import *  # noqa: F403
from reference_engine.torch.order_statistics import *  # noqa: F403
from reference_engine.torch.random import *  # noqa: F403
from reference_engine.torch.serialization import load, save
from reference_engine.torch.small_ops import *  # noqa: F403
from reference_engine.torch.threads import *  # noqa: F403
from reference_engine.torch.type_info import finfo, iinfo

vmap = func.vmap  # torch.vmap is torch.func.vmap
newaxis = None  # numpy's spelling of an index's new dimension
_core.cuda.amp = amp.cuda_amp  # type: ignore[attr-defined]

# the same functions as Tensor methods (defined once, in extras.py)
_WRITES = {**{name: getattr(indexed_writes, name) for name in indexed_writes.__all__},
           **indexed_writes.IN_PLACE_METHODS}
for _method, _function in {**extras.TENSOR_METHODS, **_WRITES, **small_ops.TENSOR_METHODS,
                           **math_functions.TENSOR_METHODS, **more_ops.TENSOR_METHODS,
                           **fused_ops.TENSOR_METHODS, **lookups.TENSOR_METHODS,
                           **order_statistics.TENSOR_METHODS, **cholesky_ops.TENSOR_METHODS,
                           **factorization_ops.TENSOR_METHODS,
                           **shape_in_place.TENSOR_METHODS}.items():
    setattr(_core.Tensor, _method, _function)

# the in-place forms of functions whose in-place kernel records the function's own node
# (``x.lerp_(y, 0.1)``: LerpBackward0), written through the tensor's version counter
for _name in ("lerp", "addcmul", "addcdiv", "floor", "round", "sign", "reciprocal", "nan_to_num", "clip",
              "trunc", "frac", "ceil", "log1p", "expm1", "square", "rsqrt", "erf", "atan2", "hypot", "logit",
              "copysign", "xlogy", "digamma", "lgamma", "sinc", "deg2rad", "cumsum", "cumprod", "tril",
              "triu", "acos", "asin", "atan", "arccos", "arcsin", "arctan",
              "arctan2", "cosh", "sinh", "tan", "erfc", "erfinv", "log10", "log2", "rad2deg", "sgn",
              "absolute", "negative", "multiply", "divide", "subtract", "true_divide", "addmm"):
    setattr(_core.Tensor, f"{_name}_", in_place_method(_name, getattr(_core.Tensor, _name)))

# the release whose behaviour the facade models (its measured errors, kernels and orders)
__version__ = "2.13.0"

__all__ = [*_core.__all__, *cholesky_ops.__all__, *factorization_ops.__all__, *determinism.__all__,
           *extras.__all__, *threads.__all__,
           *fused_ops.__all__, *lookups.__all__, *random.__all__,
           *indexed_writes.__all__, *small_ops.__all__, *math_functions.__all__, *more_ops.__all__,
           *order_statistics.__all__,
           "special", "accelerator", "amp", "autograd", "backends", "distributions", "finfo", "func",
           "iinfo", "linalg", "nn", "optim", "random", "serialization", "testing", "utils", "load", "save",
           "autocast", "get_autocast_dtype", "is_autocast_enabled", "BFloat16Tensor", "BoolTensor",
           "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "return_types",
           "version", "vmap", "e", "inf", "nan", "newaxis", "pi"]


def __getattr__(name: str) -> Any:
    """A name of torch's API the facade lacks: an AttributeError that says so."""
    raise missing_from_module("torch", name)
