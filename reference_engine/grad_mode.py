"""Global gradient-recording mode: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

One flag for the whole engine, as in both frameworks (which keep it per thread; the reference
engine is single-threaded). Each helper works as a context manager and as a decorator;
``set_grad_enabled`` also takes effect at once when called as a plain function.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _State:
    enabled = True
    inference = False  # torch's inference mode: recording off, new tensors are inference tensors
    anomaly = False    # torch's anomaly detection: a backward function returning nan is an error


def is_grad_enabled() -> bool:
    """Whether operations are recorded into the graph right now."""
    return _State.enabled


def _set(mode: bool) -> None:
    _State.enabled = bool(mode)


class _GradModeContext:
    """Base of the three helpers: set a mode on entry, restore the previous one on exit."""

    _mode: bool

    def __init__(self) -> None:
        self._previous: list[bool] = []

    def __enter__(self) -> None:
        self._previous.append(_State.enabled)
        _set(self._mode)

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous.pop())

    def __call__(self, func: F) -> F:
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            previous = _State.enabled
            _set(mode)
            try:
                return func(*args, **kwargs)
            finally:
                _set(previous)

        return wrapper  # type: ignore[return-value]


class no_grad(_GradModeContext):  # noqa: N801 - the frameworks' name
    """Disable recording inside the block or the decorated function."""

    _mode = False


class enable_grad(_GradModeContext):  # noqa: N801 - the frameworks' name
    """Enable recording inside the block or the decorated function (even within no_grad)."""

    _mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801 - the frameworks' name
    """Set recording on or off: at once when called, restored when used as a context exits."""

    def __init__(self, mode: bool) -> None:
        super().__init__()
        self._mode = bool(mode)
        self._entered_at_call = _State.enabled
        _set(self._mode)

    def __enter__(self) -> None:
        self._previous.append(self._entered_at_call)
        _set(self._mode)

    def __call__(self, func: F) -> F:
        _set(self._entered_at_call)  # used as a decorator: the call itself changes nothing
        return super().__call__(func)


def is_inference_mode_enabled() -> bool:
    return _State.inference


class inference_mode:  # noqa: N801 - torch's name
    """torch's ``inference_mode(mode=True)``: recording off, and the tensors made inside are
    inference tensors (they cannot be saved for backward or written in place outside it)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self._previous: list[tuple[bool, bool]] = []

    def __enter__(self) -> None:
        self._previous.append((_State.enabled, _State.inference))
        _State.inference = self.mode
        if self.mode:
            _State.enabled = False

    def __exit__(self, *exc_info: object) -> None:
        _State.enabled, _State.inference = self._previous.pop()

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with inference_mode(self.mode):
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]
