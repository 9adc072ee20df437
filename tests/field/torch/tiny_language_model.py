"""A language-model training step as PyTorch's ``word_language_model`` example and transformer
tutorials write one: ``nn.Embedding`` with a padding index, ``nn.LayerNorm``, ``nn.Dropout``
(training, then ``model.eval()``), a decoder ``nn.Linear``, ``F.cross_entropy`` with
``ignore_index`` for the padding, ``clip_grad_norm_`` and ``AdamW``-style Adam. Changed: a
tiny vocabulary and model with fixed weights, dropout probability 0 in training (the draws are
not the reference's), two steps."""

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class TinyLM(nn.Module):
    def __init__(self, vocab=5, dim=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(0.0)
        self.decoder = nn.Linear(dim, vocab)
        with torch.no_grad():
            self.embed.weight.copy_(torch.linspace(-1.0, 1.0, vocab * dim).view(vocab, dim))
            self.embed.weight[PAD].zero_()
            self.norm.weight.copy_(torch.tensor([1.0, 0.5, 2.0, -1.0]))
            self.decoder.weight.copy_(torch.linspace(0.5, -0.5, vocab * dim).view(vocab, dim))
            self.decoder.bias.zero_()

    def forward(self, tokens):
        h = self.drop(self.norm(self.embed(tokens)))
        return self.decoder(h)


model = TinyLM()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
tokens = torch.tensor([[1, 2, 3, 0], [4, 3, 0, 0]])
targets = torch.tensor([[2, 3, 0, 0], [3, 1, 0, 0]])
for step in range(2):
    optimizer.zero_grad()
    logits = model(tokens)
    loss = F.cross_entropy(logits.view(-1, 5), targets.view(-1), ignore_index=PAD)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    print(step, "loss %.6f" % loss.item(), "norm %.6f" % norm.item())
    print(" embed.grad", model.embed.weight.grad)
    optimizer.step()
model.eval()
with torch.no_grad():
    print("eval logits", model(tokens[:1]))
print("state", list(model.state_dict().keys()))
