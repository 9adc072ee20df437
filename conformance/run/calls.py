"""The keywords a ``backward`` or ``grad`` step passes, as one dialect spells them.

The adapters make the call and the repro writer prints it from this one function, so the program
a report shows is the call that ran. A keyword is passed only when the case names it: a module
under test that knows fewer keywords than torch (a torch-shaped framework, a proxy) is then
judged on what the case asked, not on keywords the runner added.

Paddle spells some of the neutral vocabulary differently:
- ``null`` (``retain_graph``, ``allow_unused``) is the framework's default, which paddle spells
  by leaving the keyword out (its ``autograd.backward`` and ``grad`` refuse None);
- a keyword paddle has no parameter for (``create_graph`` on ``backward``, ``materialize_grads``)
  is left out at its neutral default (False), and makes the step unsupported otherwise.
"""

from __future__ import annotations

from typing import Any

from conformance.corpus.step_kinds import DIALECT_LACKS
from conformance.run.adapters import Unsupported

# The keyword fields of each step kind, in the order the calls pass them.
KEYWORDS = {
    "backward": ("retain_graph", "create_graph", "inputs"),
    "grad": ("retain_graph", "create_graph", "allow_unused", "materialize_grads", "only_inputs",
             "no_grad_vars"),
}
# A lacked field's neutral value that asks nothing of the framework, so it can be left out.
_NEUTRAL_DEFAULTS = {"create_graph": False, "materialize_grads": False}


def call_keywords(step: dict[str, Any], kind: str, dialect: str) -> dict[str, Any]:
    """The keywords ``step`` (a ``backward`` or ``grad`` step) passes in ``dialect``, with the
    case's values (names stay names: the caller resolves ``inputs`` / ``no_grad_vars``).
    :class:`Unsupported` when the step gives a keyword the dialect has no parameter for, at a
    value that asks something of it."""
    keywords: dict[str, Any] = {}
    for field in KEYWORDS[kind]:
        if field not in step:
            continue
        value = step[field]
        if (kind, field) in DIALECT_LACKS[dialect]:
            if _NEUTRAL_DEFAULTS.get(field, object()) is value:
                continue
            raise Unsupported(field)
        if dialect == "paddle" and value is None:
            continue
        keywords[field] = value
    return keywords
