"""``paddle.version``: the release the facade models, as paddle 3.3.1's CPU wheel reports
itself (measured)."""

from __future__ import annotations

from reference_engine.framework_names import module_getattr

__all__ = ["commit", "cuda", "cudnn", "full_version", "is_tagged", "major", "minor", "nccl", "patch", "rc",
           "show", "with_mkl", "xpu"]

full_version = "3.3.1"
major, minor, patch, rc = "3", "3", "1", "0"
commit = "7688495538f4d6c1893f084dd238a402e8f68ab6"
is_tagged = True
with_mkl = "ON"


def cuda() -> str:
    """The CUDA version paddle was built with: ``'False'`` for the CPU build."""
    return "False"


def cudnn() -> str:
    return "False"


def xpu() -> str:
    return "False"


def nccl() -> str:
    return "0"


def show() -> None:
    """Print the build's versions, as paddle's CPU build prints them."""
    print(f"full_version: {full_version}\nmajor: {major}\nminor: {minor}\npatch: {patch}\nrc: {rc}\n"
          "cuda: False\ncudnn: False\nhip: None\nnccl: 0\nxpu_xre: False\nxpu_xccl: False\n"
          "xpu_xhpc: False\ncinn: False\ntensorrt_version: None\ncuda_archs: []")


__getattr__ = module_getattr("paddle.version")
