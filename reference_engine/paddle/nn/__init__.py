"""``paddle.nn``: ``functional``, ``initializer``, ``init``, ``Layer``, ``Sequential``, ``LayerList``,
``Linear``, the activation and loss layers, gradient clipping and ``utils``."""

from reference_engine.framework_names import defining_module, missing_from_module
from reference_engine.paddle.nn import functional, init, initializer
from reference_engine.paddle.nn.attention import *  # noqa: F403
from reference_engine.paddle.nn.attention import __all__ as _attention
from reference_engine.paddle.nn.channel_layers import *  # noqa: F403
from reference_engine.paddle.nn.channel_layers import __all__ as _channel_layers
from reference_engine.paddle.nn.clip import *  # noqa: F403
from reference_engine.paddle.nn.clip import __all__ as _clip
from reference_engine.paddle.nn.layers import *  # noqa: F403
from reference_engine.paddle.nn.layers import __all__ as _layers
from reference_engine.paddle.nn.norm_conv import *  # noqa: F403
from reference_engine.paddle.nn.norm_conv import __all__ as _norm_conv
from reference_engine.paddle.nn.recurrent import *  # noqa: F403
from reference_engine.paddle.nn.recurrent import __all__ as _recurrent

__all__ = [*_layers, *_norm_conv, *_channel_layers, *_clip, *_recurrent, *_attention,  # noqa: F405
           "functional", "init", "initializer", "loss", "utils"]  # (utils: on demand)

# ``paddle.nn.loss``: the loss layers under the module paddle exports them from
loss = defining_module(f"{__name__}.loss", "paddle.nn.loss", {name: globals()[name] for name in (
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "KLDivLoss", "L1Loss", "MSELoss", "NLLLoss",
    "SmoothL1Loss", "TripletMarginLoss")})


def __getattr__(name: str) -> object:
    if name == "utils":  # it imports concat from paddle, which imports this package first
        import importlib

        return importlib.import_module("reference_engine.paddle.nn.utils")
    raise missing_from_module("paddle.nn", name)
