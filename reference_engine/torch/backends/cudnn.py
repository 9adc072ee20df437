"""``torch.backends.cudnn``: its flags, and no cuDNN."""

from typing import Optional

from reference_engine.framework_names import module_getattr

deterministic = False
benchmark = False
enabled = True
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> Optional[int]:
    return None

__getattr__ = module_getattr("torch.backends.cudnn")
