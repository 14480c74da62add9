"""Lock-step speed against `president engine` with 1 and 2 jobs (issue 19: 2 jobs >= 1.6x the steps/s of 1).

    python benchmarks/lockstep_jobs.py [GAMES] [REPEATS]     # 100 games, 2 repeats by default

For each repeat, 1 job then 2 jobs (alternating, so that a change of load hits both): the wall
steps/s, the CPU seconds of this process and of its children (the workers and engines, once
reaped), and the load average before the run. On a loaded machine the wall figures say more
about the load than about the code; the CPU figures say what the work costs.
"""
from __future__ import annotations

import os
import resource
import sys
import time

from president.conform.lockstep import run_lockstep
from president.conform.runner import handshake
from president.protocol.client import open_client
from president.spec import default_spec


def one(jobs: int, games: int) -> str:
    spec = default_spec()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    client = open_client(None)
    options = handshake(client)["options"]
    load = os.getloadavg()[0]
    w0, p0 = time.perf_counter(), time.process_time()
    res = run_lockstep(spec, client, games=games, seed=0, options=options, jobs=jobs, factory=lambda: open_client(None))
    wall, parent = time.perf_counter() - w0, time.process_time() - p0
    client.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return (f"jobs {jobs}: {res.steps} steps in {wall:.1f} s = {res.steps / wall:,.0f} steps/s (load {load:.1f}); "
            f"CPU {parent:.1f} s here + {child:.1f} s in workers and engines = "
            f"{res.steps / (parent + child):,.0f} steps per CPU-second")


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 100
    repeats = int(argv[1]) if len(argv) > 1 else 2
    for _ in range(repeats):
        for jobs in (1, 2):
            print(one(jobs, games), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
