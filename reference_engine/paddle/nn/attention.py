"""``paddle.nn.MultiHeadAttention``, the Transformer encoder and decoder layers and stacks, and
``Transformer``, as paddle's Python code composes them (batch first; four projections, each a
``Linear``), creating their sublayers in paddle's order so that they draw the same initial
weights.

A boolean or integer attention mask becomes ``(mask - 1) * 1e9`` (keep where True or 1);
``TransformerEncoder`` and ``TransformerDecoder`` make each layer after the first anew from the
first one's arguments, so they draw initial weights of their own. Refused by name: the
incremental caches, and lists of parameter attributes.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, cast, get_default_dtype, matmul, reshape, transpose
from reference_engine.paddle.extras import full, triu
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, LayerList, Linear
from reference_engine.paddle.nn.norm_conv import Dropout, LayerNorm

__all__ = ["MultiHeadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerEncoderLayer"]


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


def _layer_config(kind: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A Transformer layer's arguments, which its stack makes the next layers from, after
    paddle's checks of the sizes."""
    config = {k: v for k, v in arguments.items() if k not in ("self", "__class__")}
    if isinstance(config["weight_attr"], (list, tuple)) or isinstance(config["bias_attr"], (list, tuple)):
        raise not_supported(f"{kind} with a list of parameter attributes", "paddle")
    for name in ("d_model", "nhead"):
        if config[name] <= 0:
            raise AssertionError(f"Expected {name} to be greater than 0, but received {config[name]}")
    if config["dim_feedforward"] <= 0:
        raise AssertionError("Expected dim_feedforward to be greater than 0, "
                             f"but received {config['dim_feedforward']}")
    return config


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
        super().__init__()
        self._config = _layer_config(type(self).__name__, locals())
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


class TransformerDecoderLayer(Layer):
    """Self-attention over the target, attention to the encoder's output (``memory``), then a
    feed-forward block, each added to its input and normalised after (``normalize_before``: its
    input normalised before)."""

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
        super().__init__()
        self._config = _layer_config(type(self).__name__, locals())
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        self.normalize_before = normalize_before
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=weight_attr,
                                            bias_attr=bias_attr)
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=weight_attr,
                                             bias_attr=bias_attr)
        self.linear1 = Linear(d_model, dim_feedforward, weight_attr, bias_attr=bias_attr)
        self.dropout = Dropout(dropout if act_dropout is None else act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attr, bias_attr=bias_attr)
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(functional, activation)

    def _block(self, x: Tensor, norm: Layer, dropout: Layer, compute: Any) -> Tensor:
        """``x`` plus ``compute`` of it (normalised before or after, as the layer does)."""
        inner = norm(x) if self.normalize_before else x
        out = x + dropout(compute(inner))
        return out if self.normalize_before else norm(out)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None, cache: Any = None) -> Tensor:
        if cache is not None:
            raise not_supported("TransformerDecoderLayer's incremental caches", "paddle")
        tgt_mask = _float_mask(tgt_mask, tgt._data.dtype)
        memory_mask = _float_mask(memory_mask, memory._data.dtype)
        tgt = self._block(tgt, self.norm1, self.dropout1, lambda t: self.self_attn(t, t, t, tgt_mask))
        tgt = self._block(tgt, self.norm2, self.dropout2,
                          lambda t: self.cross_attn(t, memory, memory, memory_mask))
        return self._block(tgt, self.norm3, self.dropout3,
                           lambda t: self.linear2(self.dropout(self.activation(self.linear1(t)))))


class TransformerDecoder(Layer):
    """The given layer, then ``num_layers - 1`` new ones made from its arguments, and an
    optional norm."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Optional[Layer] = None) -> None:
        super().__init__()
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None, cache: Any = None) -> Tensor:
        if cache is not None:
            raise not_supported("TransformerDecoder's incremental caches", "paddle")
        tgt_mask = _float_mask(tgt_mask, tgt._data.dtype)
        memory_mask = _float_mask(memory_mask, memory._data.dtype)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
        return self.norm(output) if self.norm is not None else output


class Transformer(Layer):
    """An encoder stack and a decoder stack (each closed by a LayerNorm), or the custom ones
    given; ``forward(src, tgt, src_mask, tgt_mask, memory_mask)``."""

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: Optional[float] = None,
        act_dropout: Optional[float] = None,
        normalize_before: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
        custom_encoder: Optional[Layer] = None,
        custom_decoder: Optional[Layer] = None,
    ) -> None:
        super().__init__()
        _layer_config("Transformer", locals())
        layer_arguments = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                           normalize_before, weight_attr, bias_attr)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*layer_arguments), num_encoder_layers, LayerNorm(d_model))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*layer_arguments), num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Optional[Tensor] = None,
                tgt_mask: Optional[Tensor] = None, memory_mask: Optional[Tensor] = None) -> Tensor:
        memory = self.encoder(src, src_mask=_float_mask(src_mask, src._data.dtype))
        return self.decoder(tgt, memory, tgt_mask=_float_mask(tgt_mask, tgt._data.dtype),
                            memory_mask=_float_mask(memory_mask, memory._data.dtype))

    def generate_square_subsequent_mask(self, length: Any) -> Tensor:
        """-inf above the diagonal, 0 on and below it, in the default dtype."""
        size = int(length.item()) if isinstance(length, Tensor) else int(length)
        return triu(full([size, size], -np.inf, dtype=get_default_dtype()), 1)
