"""Hard's decision time, by wall clock and by CPU time, over single 4-player deals against 3 medium.

    python benchmarks/decision_time.py [GAMES] [LEVEL]      # default: 100 games of hard

The tournament's decision times are wall-clock times, which grow with the machine's load (the
2-core machines are shared); the CPU time of the deciding process is what an idle core would
take, so both are printed, with the load average before and after. Limits (spec ai.levels):
p50 <= 50 ms, p99 <= 250 ms.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time

from president.ai.base import choose, player
from president.game.engine import GameState, Phase, Ruleset
from president.arena.tournament import game_seed


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(-(-q * len(s) // 100)) - 1))]


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    level = sys.argv[2] if len(sys.argv) > 2 else "hard"
    rules = Ruleset.from_spec()
    load0 = os.getloadavg()
    wall: list[float] = []
    cpu: list[float] = []
    me_ai, other = player(level), player("medium")
    for g in range(games):
        base = game_seed(1, g)
        state = GameState(rules, rules.config(4), seed=base)
        me = g % 4
        rngs = [random.Random(base * 8 + s) for s in range(4)]
        while state.phase == Phase.PLAY:
            s = state.to_act
            obs = state.observation(s)  # type: ignore[arg-type]
            if s == me:
                w0, c0 = time.perf_counter(), time.process_time()
                action = choose(me_ai, obs, rngs[s])
                wall.append((time.perf_counter() - w0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            else:
                action = choose(other, obs, rngs[s])
            state.apply(action)
    out = {"level": level, "games": games, "decisions": len(wall),
           "wall_ms": {"p50": round(percentile(wall, 50), 1), "p99": round(percentile(wall, 99), 1)},
           "cpu_ms": {"p50": round(percentile(cpu, 50), 1), "p99": round(percentile(cpu, 99), 1)},
           "loadavg_before": [round(x, 2) for x in load0], "loadavg_after": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
