"""A map from tensors, by identity, to values, that forgets a tensor once it is gone.

``weakref.WeakKeyDictionary`` compares keys with ``==``, which for a tensor is elementwise (and
raises for more than one element); this map compares them with ``is``.
"""

from __future__ import annotations

import weakref
from typing import Any, Generic, Optional, TypeVar

V = TypeVar("V")


class IdentityMap(Generic[V]):
    """Values noted for objects, looked up by identity, dropped with the object."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[Any], V]] = {}

    def __setitem__(self, key: Any, value: V) -> None:
        ident = id(key)

        def forget(ref: weakref.ref[Any]) -> None:
            entry = self._entries.get(ident)
            if entry is not None and entry[0] is ref:  # (not a newer object's, of the same id)
                del self._entries[ident]

        self._entries[ident] = (weakref.ref(key, forget), value)

    def get(self, key: Any, default: Optional[V] = None) -> Optional[V]:
        entry = self._entries.get(id(key))
        return entry[1] if entry is not None and entry[0]() is key else default

    def __contains__(self, key: Any) -> bool:
        entry = self._entries.get(id(key))
        return entry is not None and entry[0]() is key

    def discard(self, key: Any) -> None:
        """Forget ``key``'s value, if it has one."""
        if key in self:
            del self._entries[id(key)]

    def __len__(self) -> int:
        return len(self._entries)
