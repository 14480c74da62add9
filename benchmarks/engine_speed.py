"""Engine and protocol speed, the figures the foundation issue targets.

    python benchmarks/engine_speed.py            # 20,000 random 4-player deals + 300 deals through the protocol

Targets: >= 4,000 deals/s in-process; >= 10,000 legal/act round trips/s through `president engine`
(client and engine on one core; the cross-core figure is printed too, see docs/protocol.md).
Each figure is the best of three runs, to damp noise from other processes on a 2-core machine.
"""
from __future__ import annotations

import json
import sys

from president.arena.bench import bench_engine, bench_protocol


def best(runs: list[dict], key: str) -> dict:
    return max(runs, key=lambda r: r[key])


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    engine = best([bench_engine(games, 4, seed) for seed in range(3)], "games_per_s")
    protocol = best([bench_protocol(games // 200 or 1, 4, seed) for seed in range(3)], "round_trips_per_s")
    unpinned = best([bench_protocol(games // 200 or 1, 4, seed, pin=False) for seed in range(3)], "round_trips_per_s")
    print(json.dumps({"engine": engine, "protocol": protocol, "protocol_unpinned": unpinned}, indent=2))
    ok = engine["games_per_s"] >= 4000 and protocol["round_trips_per_s"] >= 10_000
    print("targets met" if ok else "below target", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
