"""Speed benchmarks: random deals in-process, and protocol round trips through a subprocess."""
from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from typing import Any, cast

from ..game.engine import GameState, Phase, Ruleset


def bench_engine(games: int, players: int = 4, seed: int = 0, options: dict | None = None) -> dict[str, Any]:
    """Play `games` uniformly random deals (seeded deal, uniform choice among legal actions) with
    these table options (default: the spec's, i.e. 1.1.0)."""
    rules = Ruleset.from_spec()
    config = rules.config(players, **(options or {}))
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
    return {"games": games, "steps": steps, "seconds": round(elapsed, 3), "options": config.options(),
            "games_per_s": round(games / elapsed, 1), "steps_per_s": round(steps / elapsed, 1)}


def bench_protocol(games: int, players: int = 4, seed: int = 0, pin: bool = True) -> dict[str, float]:
    """Round trips (`legal` then `act`) per second from a Python client through `president engine`.

    A strict request/reply exchange keeps one message in flight, so each message wakes the other
    process. With `pin`, the client runs itself and the engine on one core: a wake-up on the same
    core is a plain context switch, while one across cores costs an inter-processor interrupt
    (about 50 µs per message on the 2-core CI machines, several times the engine's own work).
    """
    saved = os.sched_getaffinity(0) if pin and hasattr(os, "sched_setaffinity") else None
    if saved is not None:
        os.sched_setaffinity(0, {min(saved)})  # the child inherits the affinity
    try:
        proc = subprocess.Popen([sys.executable, "-m", "president", "engine"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        return _round_trips(proc, games, players, seed) | {"pinned": saved is not None}
    finally:
        if saved is not None:
            os.sched_setaffinity(0, saved)


def _round_trips(proc: subprocess.Popen, games: int, players: int, seed: int) -> dict[str, float]:
    assert proc.stdin and proc.stdout
    rng = random.Random(seed)
    out_fd = proc.stdin.fileno()
    raw = cast(io.RawIOBase, proc.stdout)  # bufsize=0: the pipe is an unbuffered FileIO
    readline = io.BufferedReader(raw, buffer_size=1 << 16).readline
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
