"""PaddlePaddle's torch proxy, as a torch-shaped module under test (the ``paddle-as-torch``
backend).

After ``paddle.compat.enable_torch_proxy()``, ``import torch`` gives paddle with torch's names.
This module turns the proxy on in the process that imports it and hands out the proxied module's
names, so the torch adapter drives it as it drives torch, judged against ``reference-torch``.
Import it only in a backend process of its own: the proxy changes what ``import torch`` means
for the whole process.
"""

from __future__ import annotations

from typing import Any

import paddle

paddle.compat.enable_torch_proxy()

import torch as _proxied  # noqa: E402 - the proxy must be on before this import

SUBJECT = f"paddle {paddle.__version__} (torch proxy)"
SUBJECT_DISTRIBUTION = "paddlepaddle"


def __getattr__(name: str) -> Any:
    return getattr(_proxied, name)
