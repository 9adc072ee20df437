"""Text from case files, made safe to show: the case-id grammar and visible escapes.

Case files come from outside the project (users' corpora, shared files, the fuzzer), so their
free text (an ``id``, an ``about``) may hold anything JSON can: newlines, control characters,
bidi overrides (the "Trojan Source" class), lone surrogates. Ids are held to a grammar at load;
free text is shown through :func:`visible` wherever it goes (error lines, repro comments,
reports), so it can never start a line of its own or reorder what a reader sees.
"""

from __future__ import annotations

from typing import Optional

ID_MAX_LENGTH = 200
ID_GRAMMAR = (f"printable characters and spaces, at most {ID_MAX_LENGTH} of them, neither "
              "starting nor ending with a space: no newlines, tabs, control, bidi or other "
              "invisible characters")
# The id grammar as a JSON-schema pattern (``cases/schema.json``): the control, space, bidi
# and invisible characters it names are refused; ``id_problem`` refuses every other character
# Python does not print too.
_INVISIBLE = (r"\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f"
              r"\u205f-\u206f\u3000\ud800-\udfff\ufeff\ufff9-\ufffb")
ID_PATTERN = f"^[^{_INVISIBLE} ](?:[^{_INVISIBLE}]*[^{_INVISIBLE} ])?$"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every character that is not printable (``str.isprintable``: control,
    format and bidi characters, line and paragraph separators, unassigned code points, lone
    surrogates) written as its Python escape (``\\n``, ``\\x07``, ``\\u202e``); the characters in
    ``keep`` (say ``"\\n"`` for a block of text) stay as they are."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else repr(ch)[1:-1] for ch in text)


def id_problem(case_id: str) -> Optional[str]:
    """Why ``case_id`` is outside the id grammar (:data:`ID_GRAMMAR`), or None when it is not."""
    if not case_id:
        return "a case id is not empty"
    if len(case_id) > ID_MAX_LENGTH:
        return f"a case id has at most {ID_MAX_LENGTH} characters, this one {len(case_id)}"
    for position, ch in enumerate(case_id):
        if not ch.isprintable():
            return (f"character {position + 1} of the id is {repr(ch)[1:-1]} "
                    f"(U+{ord(ch):04X}); ids are {ID_GRAMMAR}")
    if case_id != case_id.strip(" "):
        return f"the id starts or ends with a space; ids are {ID_GRAMMAR}"
    return None


def comment_lines(text: str) -> list[str]:
    """``text`` as Python comment lines: one per line of the text, each starting with ``#``,
    anything else that could end a line or hide a character shown escaped."""
    lines = text.replace("\r\n", "\n").split("\n")
    return [f"# {visible(line)}".rstrip() for line in lines]
