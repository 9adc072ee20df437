"""``torch.nn.modules.<file>``: the paths torch defines its layer classes under (``from
torch.nn.modules.loss import _Loss``, ``isinstance(m, torch.nn.modules.conv.Conv2d)``), each the
facade's own class. They are made as module objects when ``torch.nn`` loads, so importing
them needs no file per path; a class torch defines there and the facade lacks is refused by
name."""

from __future__ import annotations

import types

from reference_engine.framework_names import defining_module
from reference_engine.torch.nn import attention, losses

# where torch 2.13 defines each class the facade has
HOMES: dict[str, tuple[str, ...]] = {
    "module": ("Module",),
    "linear": ("Identity", "Linear", "NonDynamicallyQuantizableLinear"),
    "activation": ("ELU", "GELU", "GLU", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU", "LogSigmoid",
                   "LogSoftmax", "Mish", "MultiheadAttention", "PReLU", "ReLU", "ReLU6", "SELU", "SiLU",
                   "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softsign", "Tanh", "Softshrink",
                   "Hardshrink", "Tanhshrink", "Threshold", "CELU"),
    "container": ("ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"),
    "conv": ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"),
    "dropout": ("Dropout", "Dropout2d"),
    "sparse": ("Embedding", "EmbeddingBag"),
    "normalization": ("GroupNorm", "LayerNorm", "RMSNorm"),
    "batchnorm": ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d"),
    "instancenorm": ("InstanceNorm1d", "InstanceNorm2d"),
    "rnn": ("GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNCell"),
    "transformer": ("Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
                    "TransformerEncoderLayer"),
    "loss": ("BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "HuberLoss",
             "KLDivLoss", "L1Loss", "MSELoss", "MarginRankingLoss", "NLLLoss", "SmoothL1Loss",
             "TripletMarginLoss", "_Loss", "_WeightedLoss", "SoftMarginLoss", "HingeEmbeddingLoss",
             "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss"),
    "pooling": ("AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool2d",
                "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d", "MaxPool2d",
                "MaxPool3d"),
    "padding": ("ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d",
                "ReplicationPad2d", "ZeroPad2d"),
    "flatten": ("Flatten", "Unflatten"),
    "fold": ("Fold", "Unfold"),
    "upsampling": ("Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"),
    "distance": ("CosineSimilarity", "PairwiseDistance"),
    "pixelshuffle": ("PixelShuffle", "PixelUnshuffle"),
}


def install(nn: types.ModuleType, modules: types.ModuleType) -> None:
    """Make ``modules.<file>`` for each of ``HOMES``, holding ``nn``'s classes, importable."""
    for file, names in HOMES.items():
        # (the private base classes are not in torch.nn's namespace)
        members = {name: getattr(losses if name.startswith("_") else attention if name.startswith("Non")
                                 else nn, name) for name in names}
        made = defining_module(f"{modules.__name__}.{file}", f"torch.nn.modules.{file}", members)
        setattr(modules, file, made)
