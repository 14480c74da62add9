"""`--jobs N` and `--cluster ADDRESS`: work split over engine processes, merged back in order.

With `--jobs N` the items (scenario indexes, lock-step game numbers) are split by number, item i
to worker i % N, a partition that does not depend on timing. This process takes share 0 on the
caller's own engine client; each other worker is a forked process that opens its own engine
client (`factory`), says hello, works through its share and sends back one (index, result) pair
per item as it goes, over a pipe of its own; the parent puts them back in index order. With one
job nothing is forked.

A worker that dies (`kill -9`, the out-of-memory killer) closes its pipe: the parent notices it
between two of its own items and while it waits (never blocking on a read), and starts a fresh
worker for the items the lost one had not sent back. When that one is lost too, those items get
an error record each (`lost`, its text starting with `LOST`) and the run goes on to its report;
`worker_errors` lists them (the command exits 3: the toolkit's machinery failed, not the engine).

With `--cluster ADDRESS` the items go in batches to a Dask cluster (`president.cluster`): each
batch opens its own engine client on the worker that runs it, from the same `factory` (the
engine's command line, run there), and Dask runs a lost worker's batches again elsewhere.
"""
from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
import traceback
from functools import partial
from multiprocessing import connection
from typing import Any, Callable, Sequence, TypeVar

from ..cluster import DEFAULT_CONNECT_TIMEOUT, run_batches
from ..protocol.client import Client, RunStopped

T = TypeVar("T")
R = TypeVar("R")
Work = Callable[[Client, T], R]
Lost = Callable[[T, str], R]

#: How every error record of a lost worker's item begins (`worker_errors` finds them by it).
LOST = "worker lost"
#: Seconds between two looks at the workers while this process waits for them.
POLL = 0.5
#: Items per cluster batch at most (each batch starts its own engine: ~0.3 s for the reference).
MAX_BATCH = 100


class WorkerFailed(RunStopped):
    """A worker stopped: its engine hung, its budget was spent, or it crashed."""

    def __init__(self, message: str, kind: str = "worker", request: dict[str, Any] | None = None,
                 lines: Sequence[dict[str, Any]] = ()):
        super().__init__(message, kind, request, lines)


def partition(n: int, jobs: int) -> list[list[int]]:
    """Item numbers 0..n-1 split over `jobs` workers: item i goes to worker i % jobs."""
    return [list(range(k, n, jobs)) for k in range(jobs)]


def run_parallel(items: Sequence[T], work: Work, client: Client, jobs: int = 1,
                 factory: Callable[[], Client] | None = None,
                 progress: Callable[[int], None] | None = None, *, cluster: str | None = None,
                 connect_timeout: float = DEFAULT_CONNECT_TIMEOUT, lost: Lost | None = None,
                 what: str = "items", least: int = 1, sink: Callable[[Any], None] | None = None) -> list[R]:
    """`work(client, item)` for every item, in item order: on the Dask cluster at `cluster`, or over
    `jobs` forked workers when `factory` opens one engine client per worker (else in this process,
    on `client`). `lost(item, why)` is the record of an item whose worker was lost twice (without
    it, a lost worker stops the run); `what` names the items in messages ("lock-step games"); a
    cluster batch holds `least` items or more (each batch starts an engine: cheap items go in numbers).
    `sink(result)`: each result, in item order, as soon as it and those before it are done; none is
    kept then and [] is returned (this process holds only the results that came ahead of their turn)."""
    if cluster is not None and factory is not None and items:
        return _on_cluster(items, work, factory, cluster, connect_timeout, progress, what, least, sink)
    if jobs <= 1 or factory is None or len(items) <= 1:
        out: list[Any] = []
        done = 0
        try:
            for item in items:
                out.append(work(client, item))
                done += 1
                if sink is not None:
                    sink(out.pop())
                if progress:
                    progress(done)
        except RunStopped as exc:  # what was done before the stop is kept (`RunStopped.partial`; with a sink, handed on)
            exc.partial, exc.item = list(out), done
            raise
        return out
    return _Forked(items, work, factory, progress, lost, what, sink).run(client, jobs)


def worker_errors(results: Sequence[Any], lock: Any = None) -> list[str]:
    """The error records a lost worker left: scenario results and lock-step games (`LOST`)."""
    found = [f"{r.id}: {r.message}" for r in results if r.outcome == "error" and r.message.startswith(LOST)]
    if lock is not None:
        found += [f"game {g}: {why}" for g, why in lock.unfinished if why.startswith(LOST)]
    return found


def lost_scenario(sc: Any, why: str) -> Any:
    """The error record of a scenario whose worker was lost (`why` starts with `LOST`)."""
    from .runner import Outcome, ScenarioResult
    return ScenarioResult(sc.id, sc.clause, sc.section, sc.name, Outcome.ERROR, message=why)


def lost_game(number: int, seed: int, why: str) -> Any:
    """The record of a lock-step game whose worker was lost: not played (`unfinished`), one error."""
    from .records import Divergence, GameRecord
    from .trace import Trace
    return GameRecord(number, seed, Trace(f"game {number}"), unfinished=why,
                      divergences=[Divergence(number, seed, 0, {}, why, kind="error")])


# --- on a Dask cluster -------------------------------------------------------------------------

def cluster_batch(n: int, threads: int, least: int = 1) -> int:
    """Items per batch: four batches per worker thread or more, at least `least` items and at most
    `MAX_BATCH` (`least` wins)."""
    return max(1, least, min(MAX_BATCH, -(-n // (4 * max(1, threads)))))


def run_batch(factory: Callable[[], Client], work: Work, batch: tuple[tuple[int, Any], ...]) -> list[Any]:
    """What a cluster worker runs: one engine client for the batch, its items in order."""
    client = factory()
    try:
        client.hello()
        return [work(client, item) for _, item in batch]
    finally:
        client.close()


def _on_cluster(items: Sequence[T], work: Work, factory: Callable[[], Client], address: str, timeout: float,
                progress: Callable[[int], None] | None, what: str, least: int,
                sink: Callable[[Any], None] | None = None) -> list[R]:
    """The items in batches on the cluster; with a `sink`, each batch's results go to it in batch
    order as soon as the batches before it are done, and are dropped here (none is returned)."""
    indexed = list(enumerate(items))

    def batches(threads: int) -> list[tuple[tuple[int, Any], ...]]:
        size = cluster_batch(len(indexed), threads, least)
        return [tuple(indexed[s:s + size]) for s in range(0, len(indexed), size)]

    done = [0]
    waiting: dict[int, list] = {}  # batches done ahead of their turn, by their first item

    def advance(batch: tuple, results: list) -> None:
        done[0] += len(batch)
        if sink is not None:
            waiting[batch[0][0]] = results
            while done_in_order[0] in waiting:
                ready = waiting.pop(done_in_order[0])
                done_in_order[0] += len(ready)
                for r in ready:
                    sink(r)
                ready.clear()  # the list the cluster call returns at the end: nothing kept
        if progress:
            progress(done[0])

    done_in_order = [0]
    per_batch = run_batches(address, partial(run_batch, factory, work), batches,
                            lambda b: f"{what} {b[0][0]}-{b[-1][0]}", advance, timeout)
    return [r for results in per_batch for r in results]


# --- over forked workers -----------------------------------------------------------------------

def _worker(factory: Callable[[], Client], work: Work, items: Sequence[Any], share: list[int],
            conn: connection.Connection) -> None:
    """A forked worker: its share, each result sent back as soon as it is ready. A thread sends them,
    so that the work goes on while the parent is busy with its own share."""
    outbox: queue.SimpleQueue = queue.SimpleQueue()

    def send() -> None:
        while True:
            msg = outbox.get()
            try:
                conn.send(msg)
            except (OSError, ValueError):  # the parent is gone
                return
            except Exception as exc:  # noqa: BLE001 - a result that cannot be pickled: the parent is told
                conn.send(("crashed", None, f"{type(exc).__name__}: {exc}"))
                return
            if msg[0] != "item":
                return

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    client = None
    try:
        client = factory()
        client.hello()
        for i in share:
            outbox.put(("item", i, work(client, items[i])))
        outbox.put(("end", None, None))
    except RunStopped as exc:  # sent whole: its kind, request and stray lines too
        outbox.put(("stopped", None, exc))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which stops the run
        outbox.put(("crashed", None, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"))
    finally:
        sender.join()
        if client is not None:
            client.close()


def _death(proc: Any) -> str:
    """How a worker process ended, in words."""
    proc.join(timeout=2)
    code = proc.exitcode
    if code is None:
        return "still running but silent (its pipe closed)"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code} before sending all its results"


class _Worker:
    """One forked worker: its process, its pipe, the items it has not sent back yet."""

    def __init__(self, ctx: Any, run: "_Forked", share: list[int], attempt: int):
        reader, writer = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_worker, args=(run.factory, run.work, run.items, share, writer), daemon=True)
        self.proc.start()
        writer.close()  # only the child holds the write end: its death is an end of file here
        self.conn: connection.Connection = reader
        self.pending = list(share)
        self.attempt = attempt
        self.ended = False  # nothing more will come from it: its end, or it was lost
        self.finished = False  # it sent its end: it is closing its engine

    def stop(self) -> None:
        """Let a finished worker close its engine; end any other (the run stops early)."""
        if self.finished:
            self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join(timeout=5)
        self.conn.close()


class _Forked:
    """One `--jobs` run: share 0 here, the other shares in forked workers, results by index."""

    def __init__(self, items: Sequence[Any], work: Work, factory: Callable[[], Client],
                 progress: Callable[[int], None] | None, lost: Lost | None, what: str,
                 sink: Callable[[Any], None] | None = None):
        self.items, self.work, self.factory, self.progress, self.lost, self.what = items, work, factory, progress, lost, what
        self.results: dict[int, Any] = {}
        self.sink, self.done, self.delivered = sink, 0, 0  # with a sink: results handed on in order
        self.ctx = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []

    def run(self, client: Client, jobs: int) -> list[Any]:
        mine, *shares = [s for s in partition(len(self.items), jobs) if s]  # this process takes the first share
        try:
            self.workers = [_Worker(self.ctx, self, share, 1) for share in shares]
            for i in mine:  # on the caller's own engine, while the workers go through theirs
                self._got(i, self.work(client, self.items[i]))
                self._collect(0)
            while any(not w.ended for w in self.workers):
                self._collect(POLL)
        except RunStopped as exc:  # the items done before the stop are kept, in item order
            exc.partial = [self.results[i] for i in sorted(self.results)]
            raise
        finally:
            for w in self.workers:
                w.stop()
        if self.sink is not None:
            return []
        return [self.results[i] for i in range(len(self.items))]

    def _got(self, index: int, value: Any) -> None:
        self.results[index] = value
        self.done += 1
        if self.sink is not None:
            while self.delivered in self.results:  # in item order: what came early waits its turn
                self.sink(self.results.pop(self.delivered))
                self.delivered += 1
        if self.progress:
            self.progress(self.done)

    def _collect(self, timeout: float) -> None:
        """Take what the workers sent (waiting up to `timeout` seconds for something); a worker
        whose pipe is closed before its end is lost: its pending items go to a fresh worker, once."""
        live = [w for w in self.workers if not w.ended]
        if not live:
            return
        connection.wait([w.conn for w in live] + [w.proc.sentinel for w in live], timeout)
        for w in live:
            closed = False
            while not closed and w.conn.poll():
                try:
                    kind, index, value = w.conn.recv()
                except (EOFError, OSError):  # its end of the pipe is closed: the worker is gone
                    closed = True
                    break
                if kind == "item":
                    w.pending.remove(index)
                    self._got(index, value)
                elif kind == "end":
                    w.ended = w.finished = True
                    break
                elif kind == "stopped":
                    raise value if isinstance(value, RunStopped) else WorkerFailed(str(value))
                else:
                    raise WorkerFailed(f"a worker process crashed: {value}")
            if not w.ended and (closed or not w.proc.is_alive() and not w.conn.poll()):
                self._lost(w, _death(w.proc))

    def _lost(self, w: _Worker, why: str) -> None:
        w.ended = True
        if not w.pending:
            return
        if w.attempt == 1:  # its items again, in a fresh worker (and a fresh engine)
            self.workers.append(_Worker(self.ctx, self, w.pending, 2))
            return
        first = f"{LOST}: the worker process running it was lost twice (the second time {why})"
        if self.lost is None:
            raise WorkerFailed(f"{first} ({self.what} {w.pending[0]}-{w.pending[-1]})")
        for i in list(w.pending):
            self._got(i, self.lost(self.items[i], first))
        w.pending.clear()
