"""Multi-head attention and the transformer encoder as torch's Python code composes them."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def multihead_attention_in_its_forms(torch):
    """Parameters in torch's order and initial values; self-attention batch first, with
    averaged and per-head weights, a boolean key-padding mask, a float causal mask without
    weights, unbatched and sequence-first input; gradients and node names; the forms refused."""
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(3, 4, 8, requires_grad=True)
    out, weights = mha(x, x, x)
    out.sum().backward()
    seen = [[n for n, _ in mha.named_parameters()], mha.in_proj_weight, mha.out_proj.weight, out,
            out.grad_fn.name(), weights, weights.grad_fn.name(), x.grad, mha.in_proj_weight.grad]
    padding = torch.tensor([[False, False, True, True]] * 3)
    out, weights = mha(x, x, x, key_padding_mask=padding, average_attn_weights=False)
    causal = torch.triu(torch.full((4, 4), float("-inf")), diagonal=1)
    masked, none = mha(x, x, x, attn_mask=causal, need_weights=False)
    single = torch.randn(5, 8)
    other = torch.nn.MultiheadAttention(8, 4)
    kv = torch.randn(6, 2, 8)
    return [*seen, out, weights, masked, none, other(single, single, single),
            other(torch.randn(5, 2, 8), kv, kv),
            attempt(lambda: torch.nn.MultiheadAttention(8, 3)),
            attempt(lambda: mha(x, x, x, is_causal=True))]


@program
def a_transformer_encoder_trains_as_torchs(torch):
    """Two deep-copied layers with dropout in training (masks drawn in memory order: the
    attention output is a transposed view), a step of Adam, then evaluation; a pre-norm GELU
    layer with a key-padding mask."""
    torch.manual_seed(1)
    layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1,
                                             batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, num_layers=2)
    opt = torch.optim.Adam(encoder.parameters(), lr=0.01)
    tokens = torch.randn(2, 5, 8)
    hidden = encoder(tokens)
    loss = (hidden * torch.linspace(-1.0, 1.0, 8)).sum()  # (a constant one leaves Adam only noise)
    loss.backward()
    opt.step()
    encoder.eval()
    with torch.no_grad():
        evaluated = encoder(tokens)
    pre_norm = torch.nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation="gelu", norm_first=True)
    padded = pre_norm(torch.randn(5, 2, 8), src_key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2))
    return [hidden, hidden.grad_fn.name(), loss, encoder.layers[1].linear2.bias.grad, evaluated, padded]


@program
def random_fills_of_a_strided_tensor_follow_memory(torch):
    """A transposed view filled by uniform_, normal_ (the per-value path whatever its size) and
    dropout's mask draws in the order of memory, not of indices."""
    seen = []
    for fill in (lambda t: t.uniform_(), lambda t: t.normal_(), lambda t: t.normal_(1.0, 2.0)):
        torch.manual_seed(0)
        seen.append(fill(torch.zeros(4, 5).t()))
    torch.manual_seed(0)
    seen.append(torch.nn.functional.dropout(torch.ones(3, 4).t(), 0.5))
    torch.manual_seed(0)
    seen.append(torch.zeros(2, 3, 4).permute(2, 0, 1).normal_())
    return seen


@program
def transformer_encoder_decoder_training_step(torch):
    """nn.Transformer (its encoder and decoder with final norms, every matrix drawn again
    Xavier-uniform, dropout drawn in training), the causal mask, a padding mask, a training
    step and evaluation; a norm-first batch-first TransformerDecoder with the causal hint;
    TransformerEncoder's warnings on why it keeps off its nested-tensor path; the errors."""
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16,
                           dropout=0.1)
    src, tgt = torch.randn(5, 2, 8), torch.randn(4, 2, 8)
    mask = model.generate_square_subsequent_mask(4)
    padding = torch.tensor([[False] * 5, [False] * 4 + [True]])
    y = model(src, tgt, tgt_mask=mask, src_key_padding_mask=padding)
    loss = y.pow(2).mean()
    loss.backward()
    seen = [sum(p.numel() for p in model.parameters()), [name for name, _ in model.named_parameters()][:8],
            model.encoder.layers[0].linear1.bias, y, loss, model.decoder.layers[1].linear2.weight.grad,
            model.encoder.layers[1].norm2.bias.grad, mask]
    model.eval()
    with torch.no_grad():
        seen.append(model(src, tgt, tgt_mask=mask))
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
    decoder = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8))
    memory, target = torch.randn(2, 5, 8, requires_grad=True), torch.randn(2, 3, 8, requires_grad=True)
    out = decoder(target, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
    seen += [out, torch.autograd.grad((out * out).sum(), [target, memory]), repr(layer),
             type(nn.modules.linear.NonDynamicallyQuantizableLinear(2, 2)).__name__,
             nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 1, 16, batch_first=True),
                                   1).use_nested_tensor,
             attempt(lambda: model(src, tgt[:, :1])), attempt(lambda: model(src[..., :4], tgt))]
    return seen
