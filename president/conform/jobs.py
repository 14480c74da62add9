"""`--jobs N`: work split over N engine processes, merged back in order.

The items (scenario indexes, lock-step game numbers) are split by number, item i to worker
i % N, a partition that does not depend on timing. This process takes share 0 on the caller's
own engine client; each other worker is a forked process that opens its own engine client
(`factory`), says hello, works through its share and sends back one (index, result) pair per
item as it goes; the parent puts them back in index order. With one job nothing is forked.
"""
from __future__ import annotations

import multiprocessing
import traceback
from typing import Any, Callable, Sequence, TypeVar

from ..protocol.client import Client, RunStopped

T = TypeVar("T")
R = TypeVar("R")
Work = Callable[[Client, T], R]


class WorkerFailed(RunStopped):
    """A worker stopped: its engine hung, its budget was spent, or it crashed."""


def partition(n: int, jobs: int) -> list[list[int]]:
    """Item numbers 0..n-1 split over `jobs` workers: item i goes to worker i % jobs."""
    return [list(range(k, n, jobs)) for k in range(jobs)]


def _worker(factory: Callable[[], Client], work: Work, items: Sequence[Any], share: list[int], out: Any) -> None:
    client = None
    try:
        client = factory()
        client.hello()
        for i in share:
            out.put(("item", i, work(client, items[i])))
        out.put(("end", None, None))
    except RunStopped as exc:
        out.put(("stopped", None, str(exc)))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which stops the run
        out.put(("crashed", None, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"))
    finally:
        if client is not None:
            client.close()


def run_parallel(items: Sequence[T], work: Work, client: Client, jobs: int = 1,
                 factory: Callable[[], Client] | None = None,
                 progress: Callable[[int], None] | None = None) -> list[R]:
    """`work(client, item)` for every item, in item order; over `jobs` forked workers when `factory`
    opens one engine client per worker (else in this process, on `client`)."""
    if jobs <= 1 or factory is None or len(items) <= 1:
        out = []
        for item in items:
            out.append(work(client, item))
            if progress:
                progress(len(out))
        return out
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    mine, *shares = [s for s in partition(len(items), jobs) if s]  # this process takes the first share
    procs = [ctx.Process(target=_worker, args=(factory, work, items, share, queue), daemon=True) for share in shares]
    for p in procs:
        p.start()
    results: dict[int, Any] = {}
    ended = 0
    try:
        for i in mine:  # on the caller's own engine, while the workers go through theirs
            results[i] = work(client, items[i])
            if progress:
                progress(len(results))
        while ended < len(procs):
            kind, index, value = queue.get()
            if kind == "item":
                results[index] = value
                if progress:
                    progress(len(results))
            elif kind == "end":
                ended += 1
            else:
                raise WorkerFailed(value if kind == "stopped" else f"a worker process crashed: {value}")
    finally:
        for p in procs:
            if p.is_alive() and ended < len(procs):
                p.terminate()
            p.join(timeout=5)
    return [results[i] for i in range(len(items))]

