"""Runs field programs on one engine and writes what each printed, as JSON.

    python -m tests.field.runner {real,reference} {torch,paddle} OUT.json PROGRAM.py ...

The framework (or the reference facade standing in for it) is imported once; each program then
runs in a forked child, so that programs share no state, with its printout captured. An
exception a program does not catch is part of its printout (type and message), as a program
run from a shell would show it (its message without what varies by build and run: paddle's
``(at file:line)`` and hints, generated names; ``conformance.run.trace.clean_message``); so is
a crash of the framework (the signal that ended the process) or a program that runs past
``TIMEOUT_S`` (killed).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import runpy
import select
import signal
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout

from conformance.run.trace import clean_message

TIMEOUT_S = 120


def _run_in_child(path: str) -> str:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the program, send its printout, leave at once
        os.close(read_end)
        out = io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(io.StringIO()):
                runpy.run_path(path, run_name="__main__")
        except BaseException as exc:  # noqa: BLE001 - the program's failure is its printout
            last = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" (line {last[0].lineno})" if last and last[0].filename == path else ""
            out.write(f"uncaught {type(exc).__name__}{where}: {clean_message(str(exc))}\n")
        with os.fdopen(write_end, "w") as pipe:
            pipe.write(out.getvalue())
        os._exit(0)
    os.close(write_end)
    return _collect(pid, read_end)


def _collect(pid: int, read_end: int) -> str:
    """What the child wrote, and how it ended where that was not normally (a crash of the
    framework, or no end within ``TIMEOUT_S``: then it is killed)."""
    chunks, deadline = [], time.monotonic() + TIMEOUT_S
    with os.fdopen(read_end, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                chunks.append(f"\n(killed after {TIMEOUT_S} s)\n".encode())
                break
            chunk = os.read(pipe.fileno(), 65536)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    printed = b"".join(chunks).decode("utf-8", "replace")
    if os.WIFSIGNALED(status) and not printed.endswith(" s)\n"):
        printed += f"\n(the process ended by signal {os.WTERMSIG(status)})\n"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0:
        printed += f"\n(the process ended with status {os.WEXITSTATUS(status)})\n"
    return printed


def main(argv: list[str]) -> None:
    engine, framework, out, *programs = argv
    if engine == "reference":
        from reference_engine.standin import stand_in

        stand_in(framework)
    importlib.import_module(framework)
    printed = {os.path.basename(p): _run_in_child(p) for p in programs}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(printed, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
