"""What the probes that measure a table of paddle's behaviour share: the file's text (the paddle
version measured on, what the table is, the table) and the command line that prints the table
measured on a module, or writes it where the reference's policy reads it."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Callable


def table_text(key: str, table: dict[str, Any], version: str, about: str) -> str:
    """The committed JSON: ``{"measured_on", "about", key: table}``."""
    return json.dumps({"measured_on": version, "about": about, key: table}, indent=2) + "\n"


def run(argv: list[str] | None, description: str, table_file: Path,
        probe: Callable[[ModuleType], dict[str, Any]], render: Callable[[dict[str, Any], str], str],
        show: Callable[[dict[str, Any]], None]) -> int:
    """``python -m <probe> [module] [--write]``: measure ``module`` (paddle by default, or a
    module shaped like it such as ``reference_engine.paddle``) and print the table, or write it
    to ``table_file``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("module", nargs="?", default="paddle",
                        help="the module to probe (default: paddle)")
    parser.add_argument("--write", action="store_true",
                        help=f"write the table to {table_file.name} instead of printing it")
    args = parser.parse_args(argv)
    module = importlib.import_module(args.module)
    table = probe(module)
    if args.write:
        table_file.write_text(render(table, getattr(module, "__version__", "unknown")))
        return 0
    show(table)
    return 0
