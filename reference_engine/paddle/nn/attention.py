"""``paddle.nn.MultiHeadAttention``, ``TransformerEncoderLayer`` and ``TransformerEncoder``, as
paddle's Python code composes them (batch first; four projections, each a ``Linear``).

A boolean or integer attention mask becomes ``(mask - 1) * 1e9`` (keep where True or 1);
``TransformerEncoder`` makes each layer after the first anew from the first one's arguments,
so they draw initial weights of their own. Refused by name: the incremental caches.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, cast, matmul, reshape, transpose
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, LayerList, Linear
from reference_engine.paddle.nn.norm_conv import Dropout, LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoder", "TransformerEncoderLayer"]


def _float_mask(mask: Optional[Tensor], dtype: Any) -> Optional[Tensor]:
    """paddle's ``_convert_attention_mask``: a mask of another dtype as ``(mask - 1) * 1e9``
    (booleans and integers), or cast."""
    if mask is None or mask._data.dtype == np.dtype(dtype):
        return mask
    if mask._data.dtype == np.bool_ or mask._data.dtype.kind in "iu":
        return (cast(mask, dtype) - 1.0) * 1e9
    return cast(mask, dtype)


class MultiHeadAttention(Layer):
    """``paddle.nn.MultiHeadAttention(embed_dim, num_heads, dropout, kdim, vdim, need_weights)``."""

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        kdim: Optional[int] = None,
        vdim: Optional[int] = None,
        need_weights: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
    ) -> None:
        super().__init__()
        if embed_dim <= 0:
            raise AssertionError(f"Expected embed_dim to be greater than 0, but received {embed_dim}")
        if num_heads <= 0:
            raise AssertionError(f"Expected num_heads to be greater than 0, but received {num_heads}")
        self.embed_dim, self.num_heads, self.dropout, self.need_weights = (
            embed_dim,
            num_heads,
            dropout,
            need_weights,
        )
        self.kdim, self.vdim = kdim or embed_dim, vdim or embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x: Tensor) -> Tensor:
        return transpose(reshape(x, [0, 0, self.num_heads, self.head_dim]), perm=[0, 2, 1, 3])

    def forward(
        self,
        query: Tensor,
        key: Optional[Tensor] = None,
        value: Optional[Tensor] = None,
        attn_mask: Optional[Tensor] = None,
        cache: Any = None,
    ) -> Any:
        if cache is not None:
            raise not_supported("MultiHeadAttention's incremental caches", "paddle")
        key = query if key is None else key
        value = query if value is None else value
        q = self._heads(self.q_proj(query))
        k, v = self._heads(self.k_proj(key)), self._heads(self.v_proj(value))
        product = matmul(q * (self.head_dim**-0.5), k, transpose_y=True)
        if attn_mask is not None:
            product = product + _float_mask(attn_mask, product._data.dtype)
        weights = functional.softmax(product)
        if self.dropout:
            weights = functional.dropout(
                weights, self.dropout, training=self.training, mode="upscale_in_train"
            )
        out = transpose(matmul(weights, v), perm=[0, 2, 1, 3])
        out = self.out_proj(reshape(out, [0, 0, out.shape[2] * out.shape[3]]))
        return (out, weights) if self.need_weights else out


class TransformerEncoderLayer(Layer):
    """Self-attention, then a feed-forward block, each added to its input and normalised after
    (``normalize_before``: its input normalised before)."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: Optional[float] = None,
        act_dropout: Optional[float] = None,
        normalize_before: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        if isinstance(weight_attr, (list, tuple)) or isinstance(bias_attr, (list, tuple)):
            raise not_supported("TransformerEncoderLayer with a list of parameter attributes", "paddle")
        super().__init__()
        self._config = {
            "d_model": d_model,
            "nhead": nhead,
            "dim_feedforward": dim_feedforward,
            "dropout": dropout,
            "activation": activation,
            "attn_dropout": attn_dropout,
            "act_dropout": act_dropout,
            "normalize_before": normalize_before,
            "weight_attr": weight_attr,
            "bias_attr": bias_attr,
            "layer_norm_eps": layer_norm_eps,
        }
        for name, size in (("d_model", d_model), ("nhead", nhead)):
            if size <= 0:
                raise AssertionError(f"Expected {name} to be greater than 0, but received {size}")
        if dim_feedforward <= 0:
            raise AssertionError(
                f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}"
            )
        self.normalize_before = normalize_before
        self.self_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=dropout if attn_dropout is None else attn_dropout,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
        )
        self.linear1 = Linear(d_model, dim_feedforward, weight_attr, bias_attr=bias_attr)
        self.dropout = Dropout(dropout if act_dropout is None else act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attr, bias_attr=bias_attr)
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(functional, activation)

    def forward(self, src: Tensor, src_mask: Optional[Tensor] = None, cache: Any = None) -> Tensor:
        if cache is not None:
            raise not_supported("TransformerEncoderLayer's incremental caches", "paddle")
        src_mask = _float_mask(src_mask, src._data.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        src = residual + self.dropout1(self.self_attn(src, src, src, src_mask))
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = residual + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(src)))))
        return src if self.normalize_before else self.norm2(src)


class TransformerEncoder(Layer):
    """The given layer, then ``num_layers - 1`` new ones made from its arguments, and an
    optional norm."""

    def __init__(
        self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Optional[Layer] = None
    ) -> None:
        super().__init__()
        self.layers = LayerList(
            [
                encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                for i in range(num_layers)
            ]
        )
        self.num_layers, self.norm = num_layers, norm

    def forward(self, src: Tensor, src_mask: Optional[Tensor] = None, cache: Any = None) -> Tensor:
        if cache is not None:
            raise not_supported("TransformerEncoder's incremental caches", "paddle")
        src_mask = _float_mask(src_mask, src._data.dtype)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask)
        return self.norm(output) if self.norm is not None else output
