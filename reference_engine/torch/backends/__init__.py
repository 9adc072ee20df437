"""``torch.backends``: the flags programs set for the kernels a CPU build would pick. The
reference computes with numpy whatever they say; they are kept so that programs that set them
run, and read back as set. Defaults as torch 2.13.0's CPU build has them."""

from reference_engine.framework_names import module_getattr
from reference_engine.torch.backends import cuda, cudnn, mps

__all__ = ["cuda", "cudnn", "mps"]

__getattr__ = module_getattr("torch.backends")
