"""Multi-head attention, the transformer encoder and decoder, and the whole Transformer, as paddle's
Python code composes them."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def multi_head_attention_in_its_forms(paddle):
    """Four projections drawn in order; self-attention with weights, boolean and integer masks
    (kept where True or 1), cross-attention, dropout while training; gradients and nodes."""
    paddle.seed(0)
    mha = paddle.nn.MultiHeadAttention(8, 2, need_weights=True)
    x = paddle.randn([3, 4, 8])
    x.stop_gradient = False
    out, weights = mha(x)
    out.sum().backward()
    keep = paddle.to_tensor([[[[True, True, False, False]]]])
    masked, _ = mha(x, attn_mask=keep)
    counted, _ = mha(x, attn_mask=paddle.to_tensor([[[[1, 1, 1, 0]]]]))
    other = paddle.nn.MultiHeadAttention(8, 4, dropout=0.3)
    memory = paddle.randn([3, 6, 8])
    return [[n for n, _ in mha.named_parameters()], mha.q_proj.weight, out, out.grad_fn.name(), weights,
            x.grad, mha.k_proj.weight.grad, masked, counted, other(x, memory, memory),
            attempt(lambda: paddle.nn.MultiHeadAttention(8, 3))]


@program
def a_transformer_encoder_trains_as_paddles(paddle):
    """Layers after the first are made anew (their own initial weights); dropout in training;
    a step of Adam; evaluation; a pre-norm GELU layer with a boolean mask."""
    paddle.seed(1)
    layer = paddle.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1)
    encoder = paddle.nn.TransformerEncoder(layer, num_layers=2)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=encoder.parameters())
    tokens = paddle.randn([2, 5, 8])
    hidden = encoder(tokens)
    loss = (hidden * paddle.linspace(-1.0, 1.0, 8)).sum()
    loss.backward()
    opt.step()
    encoder.eval()
    with paddle.no_grad():
        evaluated = encoder(tokens)
    pre_norm = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                                 normalize_before=True)
    mask = paddle.to_tensor([[[[True, True, True, True, False]]]])
    return [encoder.layers[1].linear1.weight, hidden, loss, encoder.layers[1].linear2.bias.grad,
            evaluated, pre_norm(paddle.randn([2, 5, 8]), src_mask=mask)]


@program
def a_transformer_decodes_and_trains_as_paddles(paddle):
    """paddle.nn.Transformer draws its encoder's and decoder's weights in paddle's order (each
    stack closed by a LayerNorm); the subsequent mask is -inf above the diagonal; dropout in
    training; a step of SGD; a pre-norm decoder layer with an integer memory mask; the sizes'
    checks."""
    paddle.seed(4)
    model = paddle.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                                  dim_feedforward=16, dropout=0.1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    src, tgt = paddle.randn([2, 5, 8]), paddle.randn([2, 3, 8])
    mask = model.generate_square_subsequent_mask(3)
    out = model(src, tgt, tgt_mask=mask)
    loss = (out * paddle.linspace(-1.0, 1.0, 8)).sum()
    loss.backward()
    grads = [model.decoder.layers[1].cross_attn.q_proj.weight.grad, model.encoder.layers[0].linear2.bias.grad]
    opt.step()
    names = [name for name, _ in model.named_parameters()]
    layer = paddle.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    memory_mask = paddle.to_tensor([[[[1, 1, 1, 0, 0]]]])
    decoded = layer(tgt, src, memory_mask=memory_mask)
    return [mask, out, loss, grads, names, model.decoder.layers[1].linear1.weight, decoded,
            attempt(lambda: paddle.nn.TransformerDecoderLayer(8, 2, 0)),
            attempt(lambda: paddle.nn.Transformer(d_model=0))]
