"""Speed benchmarks: random deals in-process, and protocol round trips through a subprocess."""
from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time

from .engine import GameState, Phase, Ruleset


def bench_engine(games: int, players: int = 4, seed: int = 0) -> dict[str, float]:
    """Play `games` uniformly random deals (seeded deal, uniform choice among legal actions)."""
    rules = Ruleset.from_spec()
    config = rules.config(players)
    rng = random.Random(seed)
    rand = rng.random  # uniform choice as legal[int(rand() * len)]: cheaper than rng.choice
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        game = GameState(rules, config, seed=seed * 1_000_003 + i)
        legal, apply = game.legal_actions, game.apply
        while game.phase == Phase.PLAY:
            actions = legal()
            apply(actions[int(rand() * len(actions))])
            steps += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 3),
            "games_per_s": round(games / elapsed, 1), "steps_per_s": round(steps / elapsed, 1)}


def bench_protocol(games: int, players: int = 4, seed: int = 0) -> dict[str, float]:
    """Round trips (`legal` then `act`) per second from a Python client through `president engine`."""
    proc = subprocess.Popen([sys.executable, "-m", "president", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    assert proc.stdin and proc.stdout
    rng = random.Random(seed)
    out_fd = proc.stdin.fileno()
    readline = io.BufferedReader(proc.stdout, buffer_size=1 << 16).readline  # type: ignore[arg-type]
    dumps, loads, write = json.dumps, json.loads, os.write

    def call(req: dict) -> dict:
        write(out_fd, (dumps(req) + "\n").encode())
        return loads(readline())

    trips = 0
    start = time.perf_counter()
    for i in range(games):
        state = call({"cmd": "new_game", "config": {"players": players}, "seed": seed * 1_000_003 + i})["state"]
        while state["phase"] == "play":
            legal = call({"cmd": "legal"})
            state = call({"cmd": "act", "player": legal["player"], "action": rng.choice(legal["actions"])})["state"]
            trips += 2
    elapsed = time.perf_counter() - start
    call({"cmd": "quit"})
    proc.wait(timeout=5)
    return {"games": games, "round_trips": trips, "seconds": round(elapsed, 3),
            "round_trips_per_s": round(trips / elapsed, 1)}
