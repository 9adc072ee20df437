"""``torch.nn``: ``functional``, ``Parameter``, ``Module``, ``Sequential``, ``ModuleList``,
``Linear``, the activation and loss modules, normalisation, dropout, convolution and embedding
modules, and ``utils`` (gradient clipping, parameters as a vector)."""

import sys

from reference_engine.framework_names import module_getattr
from reference_engine.torch.nn import functional, init, module_paths, modules, utils
from reference_engine.torch.nn.attention import *  # noqa: F403
from reference_engine.torch.nn.attention import __all__ as _attention
from reference_engine.torch.nn.channel_layers import *  # noqa: F403
from reference_engine.torch.nn.channel_layers import __all__ as _channel_layers
from reference_engine.torch.nn.layers import *  # noqa: F403
from reference_engine.torch.nn.layers import __all__ as _layers
from reference_engine.torch.nn.losses import *  # noqa: F403
from reference_engine.torch.nn.losses import __all__ as _losses
from reference_engine.torch.nn.modules import *  # noqa: F403
from reference_engine.torch.nn.modules import __all__ as _modules
from reference_engine.torch.nn.parameter import Parameter, UninitializedParameter
from reference_engine.torch.nn.recurrent import *  # noqa: F403
from reference_engine.torch.nn.recurrent import __all__ as _recurrent

__all__ = [*_modules, *_layers, *_losses, *_channel_layers, *_recurrent, *_attention, "Parameter",
           "UninitializedParameter",
           "functional", "init", "modules", "utils"]

__getattr__ = module_getattr("torch.nn")

module_paths.install(sys.modules[__name__], modules)
