"""Text from cases and results, written into each report format so it stays text.

A case's id and about, a known divergence's reason and a framework's error message reach the
reports verbatim. Each format has its own way to turn text into structure — a newline in a
Python comment starts a statement, a backtick run closes a Markdown fence, ``<`` opens an HTML
tag, a control character makes XML ill-formed — so each gets its own writer here, all on top of
:func:`conformance.corpus.text.visible`, which shows non-printable characters as escapes.
"""

from __future__ import annotations

import html
import re

from conformance.corpus.text import visible

# Characters that start Markdown structure inside a line: emphasis, code, links, raw HTML,
# headings' closing runs, table cells, strikethrough, images and entities.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!&])")
_BACKTICK_RUN = re.compile(r"`+")


def markdown_text(text: str) -> str:
    """``text`` as one line of Markdown prose, every character shown as itself."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", visible(text))


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)


def markdown_code(text: str) -> str:
    """``text`` as an inline code span, fenced by more backticks than it holds in a row."""
    text = visible(text)
    fence = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_block(code: str, lang: str = "python") -> str:
    """``code`` as a fenced block that no line of it can close (CommonMark: a closing fence is
    at least as long as the opening one)."""
    code = visible(code.rstrip(), keep="\n\t")
    fence = "`" * max(3, _longest_backtick_run(code) + 1)
    return f"{fence}{lang}\n{code}\n{fence}"


def html_text(text: object) -> str:
    """``text`` for an HTML page: markup escaped, non-printable characters shown escaped
    (newlines and tabs kept, for ``<pre>`` blocks)."""
    return html.escape(visible(str(text), keep="\n\t"))


def xml_text(text: object) -> str:
    """``text`` for an XML attribute or element: every character XML 1.0 cannot hold (controls
    other than tab and newline, surrogates, U+FFFE / U+FFFF) is non-printable, so shown as its
    escape; markup itself is escaped by the XML writer."""
    return visible(str(text), keep="\n\t")
