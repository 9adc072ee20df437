"""Run a backend's cases in a child process, so a crash or a hang costs that case only.

One child per backend per test process, started on first use and kept for the following cases.
A case that does not answer within the timeout is ``timeout`` and its child is killed; a child
that dies (segmentation fault, abort) makes the case ``crashed``. Either way the next case gets a
fresh child.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Any, Optional

from conformance.backends import Backend, BackendUnavailable

_CONTEXT = multiprocessing.get_context("spawn")


@dataclass
class Outcome:
    """What running one case produced: a trace, or why there is none."""

    status: str  # "ok", "crashed", "timeout", "unavailable"
    observations: Optional[list[dict[str, Any]]] = None
    oracle: Optional[dict[str, Any]] = None
    detail: str = ""
    seconds: float = 0.0


def _serve(conn: Any, spec: tuple[str, str, str, str], with_oracle: bool) -> None:
    """The child: load the backend once, then run each case it is sent."""
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)
    from conformance.case import Case
    from conformance.interpreter import run_case
    from conformance.oracle import check_gradients

    backend = Backend(*spec)
    try:
        adapter = backend.load()
    except BackendUnavailable as exc:
        conn.send(("unavailable", str(exc)))
        return
    if hasattr(adapter.m, "set_num_threads"):
        adapter.m.set_num_threads(1)
    conn.send(("ready", ""))
    while True:
        raw = conn.recv()
        if raw is None:
            return
        case = Case.trusted(raw, "<ipc>")  # validated by the process that loaded it
        trace = run_case(case, adapter, backend.name)
        oracle = None
        if with_oracle:
            result = check_gradients(case, trace, adapter)
            oracle = {"checked": result.checked, "skipped": result.skipped,
                      "failures": result.failures}
        conn.send(("ok", {"observations": trace.observations, "oracle": oracle}))


class IsolatedBackend:
    """A backend running in its own child process."""

    def __init__(self, backend: Backend, timeout: float = 60.0, start_timeout: float = 300.0,
                 oracle: Optional[bool] = None):
        """``oracle``: check the gradients of each trace against finite differences in the child
        (default: for reference backends)."""
        self.backend = backend
        self.oracle = backend.is_reference if oracle is None else oracle
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.process: Optional[Any] = None
        self.conn: Optional[Any] = None
        self.unavailable: Optional[str] = None

    def _start(self) -> None:
        # one thread per backend process: cases are tiny, and idle OpenMP threads spinning in
        # several backend processes would take the cores the other processes need
        for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.setdefault(name, "1")
        parent, child = _CONTEXT.Pipe()
        b = self.backend
        self.process = _CONTEXT.Process(
            target=_serve, args=(child, (b.name, b.dialect, b.module, b.device), self.oracle),
            daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        if not parent.poll(self.start_timeout):
            self.stop()
            self.unavailable = f"{b.name} did not start within {self.start_timeout:.0f} s"
            return
        try:
            status, detail = parent.recv()
        except EOFError:
            status, detail = "unavailable", f"{b.name} exited while loading"
        if status == "unavailable":
            self.unavailable = detail
            self.stop()

    def stop(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                self.conn.send(None)
            self.conn.close()
        if self.process is not None:
            self.process.join(timeout=2)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()
        self.process = self.conn = None

    def run(self, raw_case: dict[str, Any]) -> Outcome:
        if self.process is None and self.unavailable is None:
            self._start()
        if self.unavailable is not None:
            return Outcome("unavailable", detail=self.unavailable)
        assert self.conn is not None and self.process is not None
        start = time.perf_counter()
        try:
            self.conn.send(raw_case)
            if not self.conn.poll(self.timeout):
                self.process.kill()
                self.stop()
                return Outcome("timeout", detail=f"no result within {self.timeout:g} s",
                               seconds=time.perf_counter() - start)
            status, payload = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self.process.join(timeout=5)
            code = self.process.exitcode
            self.stop()
            return Outcome("crashed", detail=f"the backend process died (exit code {code})",
                           seconds=time.perf_counter() - start)
        return Outcome(status, payload["observations"], payload["oracle"],
                       seconds=time.perf_counter() - start)


class Pool:
    """The isolated backends of one test process, by name."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.backends: dict[str, IsolatedBackend] = {}

    def get(self, backend: Backend) -> IsolatedBackend:
        if backend.name not in self.backends:
            self.backends[backend.name] = IsolatedBackend(backend, self.timeout)
        return self.backends[backend.name]

    def close(self) -> None:
        for b in self.backends.values():
            b.stop()
