"""PaddlePaddle's names and signatures over the reference engine.

``import reference_engine.paddle as paddle`` runs the covered paddle programs unchanged. The
facade's namespace: the tensor, dtypes and functions of ``_core``, the functions of ``extras``
(each also a Tensor method), and paddle's submodules. A name paddle has and the facade lacks
raises ``NotModelledError``, an ``AttributeError`` that names it.
"""

from __future__ import annotations

from math import e, inf, nan, pi
from typing import Any

from reference_engine.framework_names import missing_from_module
from reference_engine.paddle import (
    _core,
    amp,
    autograd,
    base,
    callbacks,
    cuda,
    device,
    distribution,
    extras,
    flags,
    framework,
    hapi,
    incubate,
    indexed_writes,
    io,
    linalg,
    math_functions,
    metric,
    model_summary,
    more_ops,
    nn,
    optimizer,
    order_statistics,
    regularizer,
    scans_and_blocks,
    static,
    tensor,
    tensor_access,
    tensor_functions,
    utils,
    version,
)
from reference_engine.paddle._core import *  # noqa: F403
from reference_engine.paddle.extras import *  # noqa: F403
from reference_engine.paddle.indexed_writes import *  # noqa: F403
from reference_engine.paddle.math_functions import *  # noqa: F403
from reference_engine.paddle.more_ops import *  # noqa: F403
from reference_engine.paddle.order_statistics import *  # noqa: F403
from reference_engine.paddle.scans_and_blocks import *  # noqa: F403
from reference_engine.paddle.tensor_functions import *  # noqa: F403
from reference_engine.tensor import in_place_method

multinomial = distribution.multinomial
set_device, get_device = device.set_device, device.get_device
is_compiled_with_cuda = device.is_compiled_with_cuda
CPUPlace = device.CPUPlace
CUDAPlace = device.CUDAPlace
ParamAttr = framework.ParamAttr
set_flags, get_flags = flags.set_flags, flags.get_flags
create_parameter = nn.layers.create_parameter
inverse = linalg.inv
cholesky, eigvalsh = linalg.cholesky, linalg.eigvalsh
Model = hapi.Model
summary = model_summary.summary
newaxis = None  # numpy's spelling of an index's new dimension

# the same functions as Tensor methods (defined once, in extras.py)
for _method, _function in {**extras.TENSOR_METHODS, **tensor_functions.TENSOR_METHODS,
                           **tensor_access.METHODS, **linalg.TENSOR_METHODS,
                           **math_functions.TENSOR_METHODS, **more_ops.TENSOR_METHODS,
                           **indexed_writes.TENSOR_METHODS, **scans_and_blocks.TENSOR_METHODS,
                           **order_statistics.TENSOR_METHODS}.items():
    setattr(_core.Tensor, _method, _function)
# paddle patches its tensor functions onto Tensor as methods: these, too, are both
for _name in ("add_n", "atleast_1d", "atleast_2d", "atleast_3d", "bmm", "concat", "hypot", "is_tensor",
              "logaddexp", "mm", "multinomial", "slice", "stack", "where"):
    setattr(_core.Tensor, _name, globals()[_name])

# the in-place forms whose kernels record the function's own node (``x.sin_()``: SinGradNode),
# written through the tensor's inplace version
for _name in ("pow", "floor", "ceil", "round", "log", "abs", "sin", "cos", "sigmoid", "neg", "cumsum", "acos",
              "asin", "atan", "cosh", "sinh", "tan", "acosh", "asinh", "atanh", "log10", "log2", "log1p",
              "rsqrt", "square", "frac", "trunc", "digamma", "lgamma", "logit", "hypot",
              "cumprod"):
    setattr(_core.Tensor, f"{_name}_", in_place_method(_name, getattr(_core.Tensor, _name)))

# the release whose behaviour the facade models (its measured errors, kernels and orders)
__version__ = version.full_version
__git_commit__ = version.commit

__all__ = [*_core.__all__, *extras.__all__, *scans_and_blocks.__all__, *indexed_writes.__all__,
           *tensor_functions.__all__, *math_functions.__all__, *more_ops.__all__, *order_statistics.__all__,
           "amp", "autograd", "base",
           "callbacks", "cuda", "device", "version", "__git_commit__", "distribution", "multinomial",
           "framework", "get_device",
           "incubate", "io", "linalg", "metric", "nn", "optimizer", "regularizer", "static", "summary",
           "tensor",
           "utils",
           "set_device",
           "is_compiled_with_cuda", "CPUPlace", "CUDAPlace", "ParamAttr", "create_parameter", "get_flags",
           "inverse", "set_flags", "Model", "e", "inf", "nan", "newaxis", "pi"]


def __getattr__(name: str) -> Any:
    """A name of paddle's API the facade lacks: an AttributeError that says so."""
    raise missing_from_module("paddle", name)
