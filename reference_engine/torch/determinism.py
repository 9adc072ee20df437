"""``torch.use_deterministic_algorithms`` and its kin: the switch a reproducible training script
sets first. The reference engine is deterministic whatever it says; the switch only answers as
torch's does (``get_deterministic_debug_mode``: 0 off, 1 warn only, 2 on)."""

from __future__ import annotations

from typing import Union

__all__ = ["are_deterministic_algorithms_enabled", "get_deterministic_debug_mode",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "use_deterministic_algorithms"]

_MODES = {"default": 0, "warn": 1, "error": 2}
_STATE = {"enabled": False, "warn_only": False}


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, "
                        f"not {type(mode).__name__}")
    _STATE.update(enabled=mode, warn_only=bool(warn_only) and mode)


def are_deterministic_algorithms_enabled() -> bool:
    return _STATE["enabled"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _STATE["warn_only"]


def set_deterministic_debug_mode(debug_mode: Union[str, int]) -> None:
    """0 or "default" turns the switch off, 1 or "warn" on with warnings only, 2 or "error" on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                               f"but got {debug_mode}")
        debug_mode = _MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _STATE["enabled"]:
        return 0
    return 1 if _STATE["warn_only"] else 2
