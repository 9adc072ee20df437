"""The bodies of code the inventory counts: public repositories, at the commit scanned.

They were chosen as code the project's users write or learn from, not code written for the
project: PyTorch's own examples, three widely read tutorial and model repositories, a textbook
with a torch and a paddle version of every program, and Paddle's documentation guides, model
library and scientific-computing suite. PaConvert's mapping (the torch APIs projects port to
paddle, each with its counterpart) is read beside them: it says which torch APIs porting needs
and what paddle calls them, but it is a list, not code, so it counts as no body.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Body:
    """One body of code: ``repository`` at ``commit``, the ``folders`` scanned (all of it when
    empty) less the ``excluded`` ones, and the frameworks whose APIs are counted in it."""

    repository: str
    commit: str
    frameworks: tuple[str, ...]
    folders: tuple[str, ...] = ()
    what: str = ""
    excluded: tuple[str, ...] = ()

    @property
    def checkout_name(self) -> str:
        """The folder name a checkout of it has under ``--checkouts``: ``owner+name``."""
        return self.repository.replace("/", "+")


BODIES: tuple[Body, ...] = (
    Body("pytorch/examples", "77f55b912142e11fcfdf5b530231fb9c52f181e8", ("torch",),
         what="PyTorch's own examples"),
    Body("karpathy/nanoGPT", "3adf61e154c3fe3fca428ad6bc3818b27a3b8291", ("torch",),
         what="a small GPT and its training loop"),
    Body("karpathy/minGPT", "37baab71b9abea1b76ab957409a1cc2fbfba8a26", ("torch",),
         what="a minimal GPT, written to teach"),
    Body("yunjey/pytorch-tutorial", "0500d3df5a2a8080ccfccbc00aca0eacc21818db", ("torch",),
         what="a widely read PyTorch tutorial"),
    Body("bentrevett/pytorch-seq2seq", "b3cd54c72cd6e4e63f672d334c795b4fe744ef92", ("torch",),
         what="sequence-to-sequence notebooks"),
    Body("d2l-ai/d2l-zh", "e6b18ccea71451a55fcd861d7b96fddf2587b09a", ("torch", "paddle"),
         what="the Dive into Deep Learning textbook, its torch and paddle programs"),
    Body("PaddlePaddle/docs", "46ceb37d54c1e4e994933424702031a073ec9100", ("paddle",),
         folders=("docs/guides",), what="Paddle's documentation guides",
         # one page per torch API with its paddle form: a list like PaConvert's, not code
         excluded=("docs/guides/model_convert/convert_from_pytorch/api_difference",)),
    Body("PaddlePaddle/models", "8042c21b690ffc0162095e749a41b94dd38732da", ("paddle",),
         what="Paddle's model library and its tutorials"),
    Body("PaddlePaddle/PaddleScience", "6652bb8a94852be165c078e5d13bf726e17b9ab2", ("paddle",),
         what="Paddle's scientific-computing suite (physics-informed training)"),
)

MAPPING = Body("PaddlePaddle/PaConvert", "73e14f0a11d1f11a98e88608cb8dd012040f2581", ("torch",),
               folders=("paconvert",), what="torch APIs projects port, with their paddle counterparts")
