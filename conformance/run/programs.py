"""Run repro programs on a framework, or on a module under test in its place, and keep what
each prints.

A subject's page (``report.subject``) shows, for each failure class, the smallest program and
what the real framework and the module under test print for it. The programs are the repro
programs the report writes from validated case data, the ones a person would paste and run.

One interpreter per framework imports it once; each program then runs in a forked child of it,
so a program that changes global state (the default dtype, grad mode) or crashes costs nothing
to the next, and the framework is not imported again for each.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Optional

from conformance.run.trace import hide_paths

OUTPUT_LIMIT = 4000  # characters kept of what one program prints
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")  # object addresses differ from run to run
_MARK = "--- what the programs printed ---"  # after whatever the imports printed

_RUNNER = r"""
import importlib, io, json, os, sys, tempfile, time, traceback, warnings
warnings.simplefilter("ignore")
job = json.load(sys.stdin)
MARK = job["mark"]
sys.path[:] = job["path"]
if job["module"]:
    sys.modules[job["dialect"]] = importlib.import_module(job["module"])
else:
    importlib.import_module(job["dialect"])
printed = []
for program in job["programs"]:
    with tempfile.TemporaryFile("w+") as out:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), line_buffering=True)
            try:
                exec(compile(program, "<repro>", "exec"), {"__name__": "__main__"})
            except BaseException as exc:
                print(f"{type(exc).__name__}: {exc}")
            sys.stdout.flush()
            os._exit(0)
        deadline = time.monotonic() + job["timeout"]
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                status = None
                break
            time.sleep(0.005)
        out.seek(0)
        text = out.read()
        if status is None:
            text += f"(no end within {job['timeout']} s)\n"
        elif os.WIFSIGNALED(status):
            text += f"(the process died: signal {os.WTERMSIG(status)})\n"
        printed.append(text)
sys.__stdout__.write("\n" + MARK + "\n" + json.dumps(printed))
"""


class ProgramRunError(RuntimeError):
    """The framework or module could not be imported to run the programs."""


def run_programs(programs: list[str], dialect: str, module: Optional[str] = None,
                 timeout: float = 60.0) -> list[str]:
    """What each program prints (its last line an exception's class and message where it
    raised), run on the ``dialect``'s framework, or with ``module`` imported in its place
    (``import torch`` in the program then gets ``module``). File paths are written ``<path>``
    and object addresses ``0x…``: they say where it ran, not what it did."""
    if not programs:
        return []
    job = json.dumps({"dialect": dialect, "module": module, "programs": programs, "timeout": timeout,
                      "mark": _MARK, "path": sys.path})
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=job, capture_output=True,
                          text=True, timeout=timeout * len(programs) + 120)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise ProgramRunError(f"running the programs on {module or dialect} failed: "
                              f"{lines[-1] if lines else done.returncode}")
    printed = (hide_paths(_ADDRESS.sub("0x…", text)) for text in json.loads(done.stdout.rpartition(_MARK)[2]))
    return [text if len(text) <= OUTPUT_LIMIT else text[:OUTPUT_LIMIT] + "…\n" for text in printed]
