"""``torch.backends.mps``: no Apple GPU."""


from reference_engine.framework_names import module_getattr


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False

__getattr__ = module_getattr("torch.backends.mps")
