"""Which oracle items this test process runs next, so their cases can be queued to the backends
ahead of need (``isolation.Pool``).

In one process that is the rest of ``session.items``. Under pytest-xdist a worker runs the items
the controller sends it: xdist keeps their indices in its worker's ``torun`` queue, which is
peeked (under its lock, never changed). Where that queue cannot be found (another xdist) only
``nextitem`` is known, and the run is as correct, just less overlapped.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, Optional, Sequence

import pytest

Peek = Callable[[int], list[int]]


def _xdist_queue(config: pytest.Config) -> Optional[Peek]:
    """A function giving the next ``n`` item indices of this xdist worker, if it is one."""
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        torun = getattr(plugin, "torun", None)
        if torun is not None and hasattr(torun, "lock") and hasattr(plugin, "nextitem_index"):
            def peek(n: int, plugin: Any = plugin, torun: Any = torun) -> list[int]:
                with torun.lock() as indices:
                    ahead = list(itertools.islice(indices, n))
                return [i for i in [plugin.nextitem_index, *ahead] if isinstance(i, int)]
            return peek
    return None


class Lookahead:
    """The items after a given one, in the order this process will run them."""

    def __init__(self, session: pytest.Session, window: int) -> None:
        self.items: Sequence[pytest.Item] = session.items
        self.window = window  # how many items ahead to look
        self.position = {id(item): i for i, item in enumerate(self.items)}
        self.peek = _xdist_queue(session.config)
        self.worker = hasattr(session.config, "workerinput")

    def after(self, item: pytest.Item, nextitem: Optional[pytest.Item]) -> Iterator[pytest.Item]:
        if self.peek is not None:
            return (self.items[i] for i in self.peek(self.window) if 0 <= i < len(self.items))
        if self.worker:  # an xdist whose queue is not known: only the next item
            return iter([nextitem] if nextitem is not None else [])
        start = self.position.get(id(item), len(self.items)) + 1
        return itertools.islice(self.items, start, start + self.window)
