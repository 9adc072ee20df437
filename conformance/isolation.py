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
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable, Optional

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
        self.pending: Optional[tuple[str, float]] = None  # (case id, when it was sent)

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
        self.pending = None

    def submit(self, raw_case: dict[str, Any]) -> None:
        """Send a case to the child without waiting: it runs while this process does other work.
        One case at a time: ``result`` must be called before the next ``submit``."""
        assert self.pending is None, "one case at a time"
        if self.process is None and self.unavailable is None:
            self._start()
        self.pending = (raw_case["id"], time.perf_counter())
        if self.unavailable is not None:
            return
        assert self.conn is not None
        with contextlib.suppress(OSError, BrokenPipeError):  # a dead child: result() says so
            self.conn.send(raw_case)

    def result(self) -> Outcome:
        """The outcome of the case submitted last: within the timeout (else ``timeout`` and the
        child is killed), or ``crashed`` if the child died."""
        assert self.pending is not None, "nothing submitted"
        _, start = self.pending
        self.pending = None
        if self.unavailable is not None:
            return Outcome("unavailable", detail=self.unavailable)
        assert self.conn is not None and self.process is not None
        try:
            if not self.conn.poll(max(self.timeout - (time.perf_counter() - start), 0.0)):
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

    def run(self, raw_case: dict[str, Any]) -> Outcome:
        self.submit(raw_case)
        return self.result()


class Pool:
    """The isolated backends of one test process, by name, and the outcomes they computed.

    ``outcome(case, backend, together)`` sends the case to every backend in ``together`` that
    has not run it, then waits for ``backend``'s: the children run the case side by side, on as
    many cores as there are, while this process judges and reports. A case's items are collected
    next to each other, so the other backends' items then find their outcome ready.
    """

    def __init__(self, timeout: float, kept: int = 4096) -> None:
        self.timeout = timeout
        self.backends: dict[str, IsolatedBackend] = {}
        self.outcomes: OrderedDict[tuple[str, str], Outcome] = OrderedDict()
        self.kept = kept

    def get(self, backend: Backend) -> IsolatedBackend:
        if backend.name not in self.backends:
            self.backends[backend.name] = IsolatedBackend(backend, self.timeout)
        return self.backends[backend.name]

    def outcome(self, raw_case: dict[str, Any], backend: Backend,
                together: Iterable[Backend] = ()) -> Outcome:
        """``backend``'s outcome for the case, computed now or earlier in this process."""
        case_id = raw_case["id"]
        for other in [backend, *together]:
            isolated = self.get(other)
            if (case_id, other.name) in self.outcomes or (
                    isolated.pending is not None and isolated.pending[0] == case_id):
                continue
            if isolated.pending is not None:  # finish what it is running for another case
                self._keep(isolated.pending[0], other.name, isolated.result())
            isolated.submit(raw_case)
        isolated = self.get(backend)
        if (case_id, backend.name) not in self.outcomes:
            self._keep(case_id, backend.name, isolated.result())
        return self.outcomes[(case_id, backend.name)]

    def forget(self, case_id: str, backend: Backend) -> None:
        """Drop a kept outcome (so that a case run again runs again)."""
        self.outcomes.pop((case_id, backend.name), None)

    def _keep(self, case_id: str, name: str, outcome: Outcome) -> None:
        self.outcomes[(case_id, name)] = outcome
        if len(self.outcomes) > self.kept:
            self.outcomes.popitem(last=False)

    def close(self) -> None:
        for b in self.backends.values():
            b.stop()
