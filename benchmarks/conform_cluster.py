"""Lock-step games of `conform --cluster` on a Dask LocalCluster of 1, then 2 workers: steps/s, and
what a run of 10,000 games costs.

    python benchmarks/conform_cluster.py [GAMES] [WORKERS...]     # 1000 games on 1 then 2 workers

For each cluster size: a LocalCluster of that many single-thread worker processes (started and
warmed up, i.e. the package imported and the spec loaded on every worker, before the clock starts),
then `run_lockstep(..., cluster=ADDRESS)` against the reference engine (`president engine`, one
engine per batch of games, started on the worker that runs the batch). It prints the wall time and
steps/s, the CPU seconds spent on the workers (their engines included, once reaped) and here, the
peak memory of this process (every game's trace comes back to it), and a linear extrapolation to
10,000 games (run `python benchmarks/conform_cluster.py 10000 2` to measure it instead). The first
line is `--jobs 1` on this machine, for comparison. On a loaded machine the wall figures say more
about the load than about the code; the CPU figures say what the work costs.
"""
from __future__ import annotations

import os
import resource
import sys
import time

from distributed import Client, LocalCluster

from president.conform.lockstep import run_lockstep
from president.conform.runner import handshake
from president.protocol.client import open_client
from president.spec import default_spec

TARGET = 10_000


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (a worker's engines)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _warm() -> None:
    default_spec()


def _reference() -> object:
    return open_client(None)


def one(games: int, workers: int) -> str:
    spec = default_spec()
    client = open_client(None)
    options = handshake(client)["options"]
    load = os.getloadavg()[0]
    try:
        if workers == 0:  # --jobs 1, here (the engine's CPU counts once it is closed and reaped)
            c0, w0 = _cpu(), time.perf_counter()
            res = run_lockstep(spec, client, games=games, seed=0, options=options)
            wall, where = time.perf_counter() - w0, "--jobs 1 (no cluster)"
            client.close()
            cpu = _cpu() - c0
        else:
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                              silence_logs=40) as cluster, Client(cluster.scheduler_address) as dask:
                dask.run(_warm)
                before = sum(dask.run(_cpu).values())
                c0, w0 = _cpu(), time.perf_counter()
                res = run_lockstep(spec, client, games=games, seed=0, options=options, factory=_reference,
                                   cluster=cluster.scheduler_address)
                wall, here = time.perf_counter() - w0, _cpu() - c0
                cpu = sum(dask.run(_cpu).values()) - before + here
                where = f"cluster of {workers} worker(s) (CPU here {here:.1f} s)"
    finally:
        client.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    scale = TARGET / games
    return (f"{where}: {res.games} games, {res.steps} steps in {wall:.1f} s = {res.steps / wall:,.0f} steps/s "
            f"(load {load:.1f}); CPU {cpu:.1f} s = {res.steps / cpu:,.0f} steps per CPU-second; peak memory here "
            f"{peak:,.0f} MB; {TARGET:,} games: ~{wall * scale / 60:.1f} min wall, ~{cpu * scale / 60:.1f} CPU-min"
            + (" (extrapolated)" if games != TARGET else " (measured)"))


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 1000
    sizes = [int(a) for a in argv[1:]] or [1, 2]
    print(one(games, 0), flush=True)
    for workers in sizes:
        print(one(games, workers), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
