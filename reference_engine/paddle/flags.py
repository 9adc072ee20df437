"""``paddle.set_flags`` / ``get_flags``: the global flags programs set (``FLAGS_check_nan_inf``,
``FLAGS_cudnn_deterministic``). The reference computes the same whatever they say; it keeps
what a program set and reads it back. A flag never set here has the framework's default, which
the reference does not know: reading it is refused rather than guessed."""

from __future__ import annotations

from typing import Any, Union

from reference_engine.messages import not_supported

_SET: dict[str, Any] = {}


def set_flags(flags: dict[str, Any]) -> None:
    for name, value in flags.items():
        if not str(name).startswith("FLAGS_"):
            raise ValueError(f"Flag {name} cannot set its value through this function.")
        _SET[name] = value


def get_flags(flags: Union[str, list[str], tuple[str, ...]]) -> dict[str, Any]:
    names = [flags] if isinstance(flags, str) else list(flags)
    unknown = [name for name in names if name not in _SET]
    if unknown:
        raise not_supported(f"reading flags a program did not set ({', '.join(unknown)}): their "
                            "defaults are the framework's", "paddle")
    return {name: _SET[name] for name in names}
