"""``torch.nn.MultiheadAttention``, ``TransformerEncoderLayer`` and ``TransformerEncoder``, as
torch's Python code composes them from its ops (so a training step records the nodes torch
records and draws its dropout masks in torch's order).

Modelled: one embedding size for query, key and value, with or without biases, batch first or
not, unbatched inputs, boolean or float attention and key-padding masks, averaged or per-head
weights. Refused by name: ``add_bias_kv``, ``add_zero_attn``, other key or value sizes, and the
encoder's nested-tensor fast path (evaluation with a key-padding mask), whose padded outputs
torch zeroes.
"""

from __future__ import annotations

import copy
import math
import warnings
from typing import Any, Callable, Optional, Union

from reference_engine.messages import not_supported
from reference_engine.torch._core import Tensor, empty, full, zeros_like
from reference_engine.torch.extras import triu
from reference_engine.torch.nn import functional, init
from reference_engine.torch.nn.layers import Dropout, LayerNorm
from reference_engine.torch.nn.modules import Linear, Module, ModuleList
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerEncoderLayer"]


def _float_mask(mask: Optional[Tensor], like: Tensor) -> Optional[Tensor]:
    """A boolean mask as torch's ``_canonical_mask`` makes it: 0 where False, -inf where True."""
    if mask is None or mask.is_floating_point():
        return mask
    return zeros_like(mask, dtype=like.dtype).masked_fill_(mask, float("-inf"))


def multi_head_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    num_heads: int,
    in_proj_weight: Tensor,
    in_proj_bias: Optional[Tensor],
    out_proj: Linear,
    dropout_p: float,
    training: bool,
    key_padding_mask: Optional[Tensor] = None,
    need_weights: bool = True,
    attn_mask: Optional[Tensor] = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Optional[Tensor]]:
    """``F.multi_head_attention_forward`` on sequence-first inputs ((L, N, E), or (L, E))."""
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    length, batch, embed = query.shape
    source = key.shape[0]
    head = embed // num_heads
    key_padding_mask = _float_mask(key_padding_mask, query)
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
            "method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _float_mask(attn_mask, query)
        is_causal = is_causal and key_padding_mask is None
    q, k, v = _in_projection(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None and attn_mask.dim() == 2:
        attn_mask = attn_mask.unsqueeze(0)
    q = q.view(length, batch * num_heads, head).transpose(0, 1)
    k = k.view(k.shape[0], batch * num_heads, head).transpose(0, 1)
    v = v.view(v.shape[0], batch * num_heads, head).transpose(0, 1)
    if key_padding_mask is not None:
        padding = key_padding_mask.view(batch, 1, 1, source).expand(-1, num_heads, -1, -1)
        padding = padding.reshape(batch * num_heads, 1, source)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    if need_weights:
        scaled = q * math.sqrt(1.0 / float(head))
        weights = scaled.bmm(k.transpose(-2, -1))
        if attn_mask is not None:
            weights = attn_mask + weights
        weights = functional.softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = functional.dropout(weights, p=dropout_p)
        out = weights.bmm(v).transpose(0, 1).reshape(length * batch, embed)
        out = functional.linear(out, out_proj.weight, out_proj.bias).view(length, batch, embed)
        weights = weights.view(batch, num_heads, length, source)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        attn_mask = (
            attn_mask.unsqueeze(0)
            if attn_mask.shape[0] == 1 and attn_mask.dim() == 3
            else attn_mask.view(batch, num_heads, -1, source)
        )
    q, k, v = (t.view(batch, num_heads, -1, head) for t in (q, k, v))
    out = functional.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(batch * length, embed)
    out = functional.linear(out, out_proj.weight, out_proj.bias).view(length, batch, embed)
    return (out if batched else out.squeeze(1)), None


def _in_projection(
    query: Tensor, key: Tensor, value: Tensor, weight: Tensor, bias: Optional[Tensor]
) -> tuple[Tensor, Tensor, Tensor]:
    """One packed projection of self-attention's input, split in three; two (query, then key
    and value together) when only key and value are one tensor; three otherwise."""
    embed = query.shape[-1]
    if key is value and query is key:
        parts = _unpacked(functional.linear(query, weight, bias), 3, embed)
        return parts[0], parts[1], parts[2]
    if key is value:
        w_q, w_kv = weight.split([embed, embed * 2])
        b_q, b_kv = bias.split([embed, embed * 2]) if bias is not None else (None, None)
        parts = _unpacked(functional.linear(key, w_kv, b_kv), 2, embed)
        return functional.linear(query, w_q, b_q), parts[0], parts[1]
    w_q, w_k, w_v = weight.chunk(3)
    b_q, b_k, b_v = bias.chunk(3) if bias is not None else (None, None, None)
    return (
        functional.linear(query, w_q, b_q),
        functional.linear(key, w_k, b_k),
        functional.linear(value, w_v, b_v),
    )


def _unpacked(packed: Tensor, count: int, embed: int) -> Tensor:
    """``count`` projections packed along the last dimension, as one tensor with them in front."""
    split = packed.view(*packed.shape[:-1], count, embed)
    return split.unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()


class MultiheadAttention(Module):
    """``torch.nn.MultiheadAttention(embed_dim, num_heads, dropout, bias, batch_first)``: the
    output projection is made (and drawn) first, then the packed input projection drawn
    Xavier-uniform; both biases start at zero."""

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: Optional[int] = None,
        vdim: Optional[int] = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if add_bias_kv or add_zero_attn or kdim not in (None, embed_dim) or vdim not in (None, embed_dim):
            raise not_supported(
                "MultiheadAttention with add_bias_kv, add_zero_attn or other key or value sizes", "torch"
            )
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                f"num_heads={num_heads} instead"
            )
        if embed_dim // num_heads * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        super().__init__()
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = (
            embed_dim,
            num_heads,
            dropout,
            batch_first,
        )
        self.head_dim = embed_dim // num_heads
        self._qkv_same_embed_dim = True  # (other key or value sizes are refused above)
        self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim))
        self.in_proj_bias = Parameter(empty(3 * embed_dim)) if bias else None
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias)
        init.xavier_uniform_(self.in_proj_weight)
        if bias:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Optional[Tensor] = None,
        need_weights: bool = True,
        attn_mask: Optional[Tensor] = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Optional[Tensor]]:
        batched = query.dim() == 3
        if self.batch_first and batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        out, weights = multi_head_attention(
            query,
            key,
            value,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.out_proj,
            self.dropout,
            self.training,
            key_padding_mask,
            need_weights,
            attn_mask,
            average_attn_weights,
            is_causal,
        )
        return (out.transpose(1, 0) if self.batch_first and batched else out), weights


class NonDynamicallyQuantizableLinear(Linear):
    """``torch.nn.modules.linear.NonDynamicallyQuantizableLinear``: MultiheadAttention's output
    projection, a Linear under its own name."""


_ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {"relu": functional.relu, "gelu": functional.gelu}


def _activation(activation: Union[str, Callable[[Tensor], Tensor]]) -> Callable[[Tensor], Tensor]:
    """A layer's activation: ``"relu"`` / ``"gelu"`` by name, or the callable given."""
    if isinstance(activation, str):
        if activation not in _ACTIVATIONS:
            raise RuntimeError(f"activation should be relu/gelu, not {activation}")
        return _ACTIVATIONS[activation]
    return activation


def _why_no_fast_path(layer: Module) -> str:
    """Why torch's TransformerEncoder will not run its nested-tensor fast path for ``layer``
    (empty: it may), in torch's words."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attention = layer.self_attn
    reasons = ((layer.norm_first, f"{name}.norm_first was True"),
               (not attention.batch_first, f"{name}.self_attn.batch_first was not True"
                                           "(use batch_first for better inference performance)"),
               (not attention._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
               (attention.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
               (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
               (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
               (attention.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"))
    return next((reason for applies, reason in reasons if applies), "")


def _detect_is_causal_mask(mask: Optional[Tensor], is_causal: Optional[bool], size: Optional[int]) -> bool:
    """torch's reading of a causal hint: as given, or (None) whether ``mask`` is the causal mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = Transformer.generate_square_subsequent_mask(size if size is not None else mask.shape[-2],
                                                         dtype=mask.dtype)
    return mask.shape == causal.shape and bool((mask == causal).all())


class TransformerEncoderLayer(Module):
    """``torch.nn.TransformerEncoderLayer``: self-attention, then a feed-forward block, each
    added to its input and normalised after (or, ``norm_first``, its input normalised before)."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Union[str, Callable[[Tensor], Tensor]] = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1, self.dropout2 = Dropout(dropout), Dropout(dropout)
        self.activation = _activation(activation)
        # which fused kernel torch's fast path would run (1: relu, 2: gelu, 0: none)
        self.activation_relu_or_gelu = {functional.relu: 1, functional.gelu: 2}.get(self.activation, 0)

    def forward(
        self,
        src: Tensor,
        src_mask: Optional[Tensor] = None,
        src_key_padding_mask: Optional[Tensor] = None,
        is_causal: bool = False,
    ) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._attention(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._feed_forward(self.norm2(x))
        x = self.norm1(x + self._attention(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._feed_forward(x))

    def _attention(
        self, x: Tensor, mask: Optional[Tensor], padding: Optional[Tensor], is_causal: bool
    ) -> Tensor:
        out = self.self_attn(
            x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False, is_causal=is_causal
        )[0]
        return self.dropout1(out)

    def _feed_forward(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoder(Module):
    """``torch.nn.TransformerEncoder``: ``num_layers`` deep copies of one layer (so they start
    from the same weights), then an optional norm."""

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Optional[Module] = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm, self.enable_nested_tensor = num_layers, norm, enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        why_not = _why_no_fast_path(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False because "
                          f"{why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Optional[Tensor] = None,
        src_key_padding_mask: Optional[Tensor] = None,
        is_causal: Optional[bool] = None,
    ) -> Tensor:
        if not self.training and src_key_padding_mask is not None and self.use_nested_tensor:
            raise not_supported(
                "TransformerEncoder's nested-tensor fast path (evaluation with a key-padding mask)", "torch"
            )
        batch_first = getattr(getattr(self.layers[0], "self_attn", None), "batch_first", False)
        length = src.shape[1 if batch_first and src.dim() == 3 else 0]
        is_causal = _detect_is_causal_mask(mask, is_causal, length)
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=mask, src_key_padding_mask=src_key_padding_mask, is_causal=is_causal)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoderLayer(Module):
    """``torch.nn.TransformerDecoderLayer``: self-attention over the target, attention to the
    memory, then a feed-forward block, each added to its input and normalised after (or,
    ``norm_first``, its input normalised before)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Callable[[Tensor], Tensor]] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            bias=bias)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 bias=bias)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1, self.dropout2, self.dropout3 = Dropout(dropout), Dropout(dropout), Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._self_attention(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._memory_attention(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal)
            return x + self._feed_forward(self.norm3(x))
        x = self.norm1(x + self._self_attention(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._memory_attention(x, memory, memory_mask, memory_key_padding_mask,
                                                  memory_is_causal))
        return self.norm3(x + self._feed_forward(x))

    def _self_attention(self, x: Tensor, mask: Optional[Tensor], padding: Optional[Tensor],
                        is_causal: bool) -> Tensor:
        out = self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding, is_causal=is_causal,
                             need_weights=False)[0]
        return self.dropout1(out)

    def _memory_attention(self, x: Tensor, memory: Tensor, mask: Optional[Tensor], padding: Optional[Tensor],
                          is_causal: bool) -> Tensor:
        out = self.multihead_attn(x, memory, memory, attn_mask=mask, key_padding_mask=padding,
                                  is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(out)

    def _feed_forward(self, x: Tensor) -> Tensor:
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoder(Module):
    """``torch.nn.TransformerDecoder``: ``num_layers`` deep copies of one layer, then an optional
    norm; a target mask that is the causal one is read as ``tgt_is_causal``."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Optional[Module] = None) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                memory_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None, tgt_is_causal: Optional[bool] = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_first = self.layers[0].self_attn.batch_first
        length = tgt.shape[1 if batch_first and tgt.dim() == 3 else 0]
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, length)
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask,
                        memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                        memory_is_causal=memory_is_causal)
        return self.norm(out) if self.norm is not None else out


class Transformer(Module):
    """``torch.nn.Transformer``: an encoder and a decoder of the given depths, each with a final
    LayerNorm, every parameter of two or more dimensions then drawn again Xavier-uniform."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Callable[[Tensor], Tensor]] = "relu", custom_encoder: Any = None,
                 custom_decoder: Any = None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        settings = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                    norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(*settings)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(*settings)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        for parameter in self.parameters():
            if parameter.dim() > 1:
                init.xavier_uniform_(parameter)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Optional[Tensor] = None,
                tgt_mask: Optional[Tensor] = None, memory_mask: Optional[Tensor] = None,
                src_key_padding_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                memory_key_padding_mask: Optional[Tensor] = None, src_is_causal: Optional[bool] = None,
                tgt_is_causal: Optional[bool] = None, memory_is_causal: bool = False) -> Tensor:
        batched = src.dim() == 3
        batch_axis = 0 if self.batch_first else 1
        if batched and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
        """The causal mask: ``-inf`` above the diagonal, 0 elsewhere."""
        return triu(full((sz, sz), float("-inf"), dtype=dtype), diagonal=1)
