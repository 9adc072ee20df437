"""Run a backend's cases in a child process, so a crash or a hang costs that case only.

One child per backend per test process, started on first use and kept for the following cases.
Cases are queued to the child ahead of need, several to a message (see ``Pool``): it runs them one
after another and sends each result back as it finishes, while this process judges and reports
the ones before.
A case that does not answer within the timeout of its start is ``timeout`` and its child is
killed; a child that dies (segmentation fault, abort) makes the case it was running ``crashed``.
Either way the cases queued behind it go to a fresh child.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import queue
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence

from conformance.run.backends import Backend, BackendUnavailable
from conformance.run.memory import format_size, is_out_of_memory, limit_memory

_CONTEXT = multiprocessing.get_context("spawn")


@dataclass
class Outcome:
    """What running one case produced: a trace, or why there is none."""

    status: str  # "ok", "crashed", "timeout", "unavailable"
    observations: Optional[list[dict[str, Any]]] = None
    oracle: Optional[dict[str, Any]] = None
    detail: str = ""
    seconds: float = 0.0
    subject: Optional[dict[str, str]] = None  # what the backend's module is (``describe_module``)


def _receive_into(conn: Any, inbox: queue.SimpleQueue) -> None:
    """The child's reader: take batches of cases off the pipe as they come, so the parent never
    blocks sending while the child is busy. None: stop."""
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            batch = None
        inbox.put(batch)
        if batch is None:
            return


def _reply(conn: Any, message: tuple[str, Any, float]) -> None:
    """Send the parent one message; if it is gone (it stopped early, on a usage error say),
    there is no one left to answer: exit quietly."""
    try:
        conn.send(message)
    except OSError:  # BrokenPipeError, ConnectionResetError
        os._exit(0)


def _serve(conn: Any, spec: tuple[Any, ...], with_oracle: bool,
           memory: Optional[int] = None) -> None:
    """The child: load the backend once, then run each case it is sent, in order. Under a
    memory cap (``memory``, bytes), a case that runs out of memory is reported as such and the
    child exits, to be replaced by a fresh one."""
    import warnings

    if spec[3] == "cpu":
        limit_memory(memory)

    warnings.simplefilter("ignore", DeprecationWarning)
    # paddle's import warns that the C++ extension builder finds no ccache: nothing a run uses
    warnings.filterwarnings("ignore", message="No ccache found", category=UserWarning)
    backend = Backend(*spec)
    try:
        from conformance.corpus.case import Case
        from conformance.run.backends import describe_module
        from conformance.run.gradient_check import check_gradients
        from conformance.run.interpreter import run_case

        adapter = backend.load()
    except BackendUnavailable as exc:
        _reply(conn, ("unavailable", str(exc), 0.0))
        return
    except BaseException as exc:  # noqa: BLE001 - whatever stops it loading is the reason to give
        _reply(conn, ("unavailable", loading_failure(backend.name, exc, memory), 0.0))
        return
    if hasattr(adapter.m, "set_num_threads"):
        adapter.m.set_num_threads(1)
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_receive_into, args=(conn, inbox), daemon=True).start()
    _reply(conn, ("ready", describe_module(adapter.m).to_json(), time.monotonic()))
    waiting: deque[dict[str, Any]] = deque()
    while True:
        if not waiting:
            batch = inbox.get()
            if batch is None:  # asked to stop: every result is sent, nothing is left to save
                os._exit(0)  # and the framework's own teardown would keep the parent waiting
            waiting.extend(batch)
        raw = waiting.popleft()
        case = Case.trusted(raw, "<ipc>")  # validated by the process that loaded it
        try:
            trace = run_case(case, adapter, backend.name)
            oracle = None
            if with_oracle:
                result = check_gradients(case, trace, adapter)
                oracle = {"checked": result.checked, "skipped": result.skipped,
                          "failures": result.failures}
        except MemoryError as exc:  # the cap: this process's memory may be in any state now
            _reply(conn, ("out of memory", str(exc)[:300], time.monotonic()))
            os._exit(0)
        _reply(conn, ("ok", {"observations": trace.observations, "oracle": oracle},
                      time.monotonic()))


def loading_failure(name: str, exc: BaseException, memory: Optional[int]) -> str:
    """Why a backend process could not load its backend, in one line: the error, and the
    memory cap where running out of memory is what stopped it."""
    lines = str(exc).strip().splitlines()
    what = type(exc).__name__ + (f": {lines[0]}" if lines else "")
    if memory is not None and is_out_of_memory(exc):
        return (f"{name} could not load: its memory cap ({format_size(memory)}; run --memory) is "
                f"below what it needs to start ({what})")
    return f"{name} could not load: {what}"


class _Sent(NamedTuple):
    case_id: str
    raw: dict[str, Any]
    at: float  # time.monotonic() when it was sent


class IsolatedBackend:
    """A backend running in its own child process, with cases queued to it in order."""

    def __init__(self, backend: Backend, timeout: float = 60.0, start_timeout: float = 300.0,
                 oracle: Optional[bool] = None, memory: Optional[int] = None):
        """``oracle``: check the gradients of each trace against finite differences in the child
        (default: for reference backends); ``memory``: the child's memory cap in bytes (None:
        none)."""
        self.backend = backend
        self.memory = memory
        self.oracle = backend.is_reference if oracle is None else oracle
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.process: Optional[Any] = None
        self.conn: Optional[Any] = None
        self.asked_to_stop = False  # the child was told to exit
        self.unavailable: Optional[str] = None
        self.in_flight: deque[_Sent] = deque()  # sent, result not read yet; oldest first
        self.queued: set[str] = set()  # their case ids
        self.last_finished = 0.0  # when the child finished its previous case (monotonic)
        self.ready = False  # the child said it loaded its backend
        self.subject: Optional[dict[str, str]] = None  # what it said its module is

    def launch(self) -> None:
        """Start the child, without waiting for it to load its backend: it imports the framework
        while this process does other work (``submit`` waits for it to be ready)."""
        if self.process is not None or self.unavailable is not None:
            return
        # one thread per backend process: cases are tiny, and idle OpenMP threads spinning in
        # several backend processes would take the cores the other processes need
        for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.setdefault(name, "1")
        # paddle's C++ log ("W1202 … backward.cc:685] While running Node …") would interleave with
        # the run's output: errors only, unless AUTOGRAD_ORACLE_DEBUG asks for everything
        if not os.environ.get("AUTOGRAD_ORACLE_DEBUG"):
            os.environ.setdefault("GLOG_minloglevel", "2")
        parent, child = _CONTEXT.Pipe()
        b = self.backend
        self.process = _CONTEXT.Process(
            target=_serve, args=(child, dataclasses.astuple(b), self.oracle,
                                 self.memory),
            daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        self.asked_to_stop = False

    def _start(self) -> None:
        """Launch the child if needed and wait until it has loaded its backend."""
        self.launch()
        if self.ready or self.unavailable is not None:
            return
        parent, b = self.conn, self.backend
        assert parent is not None
        if not parent.poll(self.start_timeout):
            self.stop()
            self.unavailable = f"{b.name} did not start within {self.start_timeout:.0f} s"
            return
        try:
            status, detail, self.last_finished = parent.recv()
        except EOFError:
            status, detail = "unavailable", self._exited_while_loading()
        if status == "unavailable":
            self.unavailable = detail
            self.stop()
            return
        self.ready, self.subject = True, detail

    def _exited_while_loading(self) -> str:
        """Why the child ended before it said it had loaded: its exit status, and the memory
        cap, which a child that dies on its first allocations cannot report itself."""
        assert self.process is not None
        self.process.join(timeout=5)
        code = self.process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else \
            f"exited with status {code}"
        cap = "" if self.memory is None else \
            f"; its memory cap ({format_size(self.memory)}; run --memory) may be below what it needs to start"
        return f"{self.backend.name} {how} while loading{cap}"

    def ask_to_stop(self) -> None:
        """Tell the child to exit once it has finished what it was sent (``stop`` waits)."""
        if self.conn is not None and not self.asked_to_stop:
            self.asked_to_stop = True
            with contextlib.suppress(OSError, BrokenPipeError):
                self.conn.send(None)

    def stop(self) -> list[_Sent]:
        """Stop the child; returns the cases it had been sent and not answered."""
        if self.conn is not None:
            self.ask_to_stop()
            self.conn.close()
        if self.process is not None:
            self.process.join(timeout=2)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()
        self.process = self.conn = None
        self.ready = False
        unanswered = list(self.in_flight)
        self.in_flight.clear()
        self.queued.clear()
        return unanswered

    def submit(self, *raw_cases: dict[str, Any]) -> None:
        """Queue cases to the child, in one message, without waiting: they run while this
        process does other work. Results come back one by one, in the order the cases were
        submitted (``next_result``)."""
        if not raw_cases:
            return
        if not self.ready and self.unavailable is None:
            self._start()
        now = time.monotonic()
        for raw in raw_cases:
            self.in_flight.append(_Sent(raw["id"], raw, now))
            self.queued.add(raw["id"])
        if self.unavailable is not None:
            return
        assert self.conn is not None
        with contextlib.suppress(OSError, BrokenPipeError):  # a dead child: next_result says so
            self.conn.send(raw_cases)

    def next_result(self) -> tuple[str, Outcome]:
        """The oldest queued case and its outcome: within the timeout of its start (else
        ``timeout`` and the child is killed), or ``crashed`` if the child died running it. The
        cases queued behind a killed or dead child are sent to a fresh one."""
        assert self.in_flight, "nothing submitted"
        sent = self.in_flight[0]
        if self.unavailable is not None:
            self._answered()
            return sent.case_id, Outcome("unavailable", detail=self.unavailable)
        assert self.conn is not None and self.process is not None
        started = max(sent.at, self.last_finished)
        try:
            if not self.conn.poll(max(started + self.timeout - time.monotonic(), 0.0)):
                self.process.kill()
                return sent.case_id, self._restart(Outcome(
                    "timeout", detail=f"no result within {self.timeout:g} s",
                    seconds=time.monotonic() - started, subject=self.subject))
            status, payload, self.last_finished = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self.process.join(timeout=5)
            return sent.case_id, self._restart(Outcome(
                "crashed", detail=f"the backend process died (exit code {self.process.exitcode})",
                seconds=time.monotonic() - started, subject=self.subject))
        if status == "out of memory":
            return sent.case_id, self._restart(Outcome(
                "crashed", detail=f"out of memory: the case needs more than the backend process's "
                                  f"memory cap ({format_size(self.memory)}; run --memory): {payload}",
                seconds=self.last_finished - started, subject=self.subject))
        self._answered()
        return sent.case_id, Outcome(status, payload["observations"], payload["oracle"],
                                     seconds=self.last_finished - started, subject=self.subject)

    def _answered(self) -> None:
        self.queued.discard(self.in_flight.popleft().case_id)

    def _restart(self, outcome: Outcome) -> Outcome:
        """Drop the child that failed the oldest case; queue the rest to a fresh one."""
        behind = self.stop()[1:]
        self.submit(*(sent.raw for sent in behind))
        return outcome

    def run(self, raw_case: dict[str, Any]) -> Outcome:
        """Run one case and wait for its outcome (after those queued before it)."""
        self.submit(raw_case)
        while True:
            case_id, outcome = self.next_result()
            if case_id == raw_case["id"] and not self.in_flight:
                return outcome


Upcoming = Callable[[], Iterable[tuple[dict[str, Any], Sequence[Backend]]]]


def _nothing_upcoming() -> Iterable[tuple[dict[str, Any], Sequence[Backend]]]:
    return ()


class Pool:
    """The isolated backends of one test process, by name, and the outcomes they computed.

    ``outcome(case, backend, together, upcoming)`` queues the case to every backend in
    ``together`` that has not run it; when ``backend``'s queue is down to half of ``depth``,
    it tops the queues up with the cases ``upcoming()`` lists (the cases this process runs
    next), one message per backend. Then it waits for ``backend``'s outcome. The children work
    through their queues side by side, on as many cores as there are, while this process judges
    and reports. A message per case would wake each child's reader once per case, which costs
    the child about a tenth of its time.
    """

    def __init__(self, timeout: float, depth: int = 16, kept: int = 4096,
                 memory: Optional[int] = None) -> None:
        self.timeout = timeout
        self.memory = memory  # each backend process's cap, bytes
        self.depth = depth
        self.backends: dict[str, IsolatedBackend] = {}
        self.outcomes: OrderedDict[tuple[str, str], Outcome] = OrderedDict()
        self.kept = kept

    def launch(self, backends: Iterable[Backend]) -> None:
        """Start these backends' children now, so that they load their frameworks while this
        process generates and collects the corpus."""
        for backend in backends:
            self.get(backend).launch()

    def get(self, backend: Backend) -> IsolatedBackend:
        if backend.name not in self.backends:
            self.backends[backend.name] = IsolatedBackend(backend, self.timeout, memory=self.memory)
        return self.backends[backend.name]

    def outcome(self, raw_case: dict[str, Any], backend: Backend,
                together: Sequence[Backend] = (), upcoming: Upcoming = _nothing_upcoming) -> Outcome:
        """``backend``'s outcome for the case, computed now or earlier in this process."""
        case_id = raw_case["id"]
        isolated = self.get(backend)
        if (case_id, backend.name) not in self.outcomes:
            batches: dict[str, list[dict[str, Any]]] = {}
            self._queue(raw_case, [backend, *together], None, batches)
            if len(isolated.in_flight) <= self.depth // 2:
                self._top_up(upcoming(), batches)
            for name, raws in batches.items():
                self.backends[name].submit(*raws)
        while (case_id, backend.name) not in self.outcomes:
            done, outcome = isolated.next_result()
            self._keep(done, backend.name, outcome)
        return self.outcomes[(case_id, backend.name)]

    def _top_up(self, upcoming: Iterable[tuple[dict[str, Any], Sequence[Backend]]],
                batches: dict[str, list[dict[str, Any]]]) -> None:
        seen: set[str] = set()
        for raw, backends in upcoming:
            if raw["id"] not in seen:
                seen.add(raw["id"])
                if not self._queue(raw, backends, self.depth, batches):
                    return

    def _queue(self, raw_case: dict[str, Any], backends: Sequence[Backend], limit: Optional[int],
               batches: dict[str, list[dict[str, Any]]]) -> bool:
        """Add the case to the batches of those of ``backends`` that have not run it or been
        sent it; with a ``limit``, only of backends with fewer cases in flight and batched.
        False when every backend was full."""
        room = False
        for backend in backends:
            isolated = self.get(backend)
            batch = batches.setdefault(backend.name, [])
            if limit is not None and len(isolated.in_flight) + len(batch) >= limit:
                continue
            room = True
            case_id = raw_case["id"]
            if case_id not in isolated.queued and (case_id, backend.name) not in self.outcomes \
                    and all(raw["id"] != case_id for raw in batch):
                batch.append(raw_case)
        return room

    def forget(self, case_id: str, backend: Backend) -> None:
        """Drop a kept outcome (so that a case run again runs again)."""
        self.outcomes.pop((case_id, backend.name), None)

    def _keep(self, case_id: str, name: str, outcome: Outcome) -> None:
        self.outcomes[(case_id, name)] = outcome
        if len(self.outcomes) > self.kept:
            self.outcomes.popitem(last=False)

    def close(self) -> None:
        for b in self.backends.values():  # every child exits at once, not one after another
            b.ask_to_stop()
        for b in self.backends.values():
            b.stop()
