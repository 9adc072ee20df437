"""``torch.backends.cuda``: the TF32 flags of matmuls, off by default."""

from types import SimpleNamespace

matmul = SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                         allow_bf16_reduced_precision_reduction=True)


def is_built() -> bool:
    return False
