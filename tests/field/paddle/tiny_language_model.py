"""A language-model training step as PaddleNLP's examples write one: ``nn.Embedding`` with a
padding index, ``nn.LayerNorm``, ``nn.Dropout`` (training, then ``model.eval()``), a decoder
``nn.Linear``, the per-token loss (``reduction="none"``) masked over the padding and divided by
the mask's sum, global-norm clipping in the optimizer and Adam. Changed: a tiny vocabulary and
model with fixed weights, dropout probability 0 in training, two steps. (An ``ignore_index``
on the padded positions instead, ``ignore_index=0`` or the default -100, aborts paddle
3.3.1's process in nll_loss.)"""

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

PAD = 0


class TinyLM(nn.Layer):
    def __init__(self, vocab=5, dim=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(0.0)
        self.decoder = nn.Linear(dim, vocab)
        weight = paddle.linspace(-1.0, 1.0, vocab * dim).reshape([vocab, dim])
        weight[PAD] = 0.0
        self.embed.weight.set_value(weight)
        self.norm.weight.set_value(paddle.to_tensor([1.0, 0.5, 2.0, -1.0]))
        self.decoder.weight.set_value(paddle.linspace(0.5, -0.5, vocab * dim).reshape([dim, vocab]))

    def forward(self, tokens):
        h = self.drop(self.norm(self.embed(tokens)))
        return self.decoder(h)


model = TinyLM()
clip = nn.ClipGradByGlobalNorm(0.5)
optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters(), grad_clip=clip)
tokens = paddle.to_tensor([[1, 2, 3, 0], [4, 3, 0, 0]])
targets = paddle.to_tensor([[2, 3, 0, 0], [3, 1, 0, 0]])
mask = (targets != PAD).astype("float32").reshape([-1])
for step in range(2):
    logits = model(tokens)
    per_token = F.cross_entropy(logits.reshape([-1, 5]), targets.reshape([-1]), reduction="none")
    loss = paddle.sum(per_token.reshape([-1]) * mask) / paddle.sum(mask)
    loss.backward()
    print(step, "loss %.6f" % float(loss))
    print(" embed.grad", model.embed.weight.grad)
    optimizer.step()
    optimizer.clear_grad()
model.eval()
with paddle.no_grad():
    print("eval logits", model(tokens[:1]))
print("state", list(model.state_dict().keys()))
