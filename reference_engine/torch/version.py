"""``torch.version``: the release the facade models, as a CPU build reports itself."""

from reference_engine.framework_names import module_getattr

__version__ = "2.13.0"
cuda = None  # a CPU build: no CUDA toolkit
hip = None
debug = False

__getattr__ = module_getattr("torch.version")
