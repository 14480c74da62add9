"""AI tournaments: N games between AI levels, seats rotating, results identical for any --jobs.

Game g is fully determined by (seed, g): its deck seeds are `game_seed(seed, g)` plus the deal
number, each seat's AI rng is seeded from the same numbers, and the entries of `--seats` sit at
rotated seats (entry e plays seat (e + g) mod n), so position bias cancels over n games. Games
are independent, so they can be played in any process and in any order.
"""
from __future__ import annotations

import math
import random
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..ai.base import choose, player
from ..game.engine import GameState, Phase, Ruleset


def game_seed(seed: int, game: int) -> int:
    return seed * 1_000_003 + game * 7_919


@dataclass
class GameResult:
    """One game, per entry of --seats: total points, places per deal (1 = President), decision times."""

    points: list[int]
    places: list[list[int]]
    decision_ms: list[list[float]]


def play_game(levels: Sequence[str], deals: int, seed: int, game: int) -> GameResult:
    n = len(levels)
    rules = Ruleset.from_spec()
    base = game_seed(seed, game)
    seat_of = [(e + game) % n for e in range(n)]
    entry_at = {s: e for e, s in enumerate(seat_of)}
    players = [player(levels[entry_at[s]]) for s in range(n)]
    rngs = [random.Random(base * 8 + s) for s in range(n)]
    g = GameState(rules, rules.config(n, deals=deals), seed=base)
    places: list[list[int]] = [[] for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    clock = time.perf_counter
    while True:
        while g.phase in (Phase.EXCHANGE, Phase.PLAY):
            s = g.to_act
            if s is None:  # pragma: no cover - a seat is to act in these phases
                raise AssertionError(f"no seat to act in phase {g.phase}")
            obs = g.observation(s)
            t0 = clock()
            action = choose(players[s], obs, rngs[s])
            times[entry_at[s]].append((clock() - t0) * 1000)
            if g.phase == Phase.EXCHANGE:
                g.act(s, action, give=True)
            else:
                g.apply(action)
        for place, s in enumerate(g.last_ranking, start=1):
            places[entry_at[s]].append(place)
        if g.phase == Phase.GAME_OVER:
            break
        g.start_next_deal()
    return GameResult([g.scores[seat_of[e]] for e in range(n)], places, times)


def seating(levels: Sequence[str] | Callable[[int], Sequence[str]], game: int) -> Sequence[str]:
    """The entries of game `game`: `levels` itself, or `levels(game)` for a per-game seating."""
    return levels(game) if callable(levels) else levels


def _play(args: tuple[tuple[str, ...], int, int, int]) -> GameResult:
    return play_game(*args)


def run_games(levels: Sequence[str] | Callable[[int], Sequence[str]], games: int, deals: int = 1, seed: int = 0,
              jobs: int = 1, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play the games (in `jobs` processes); results in game order whatever `jobs` is. `levels`
    is the entries of every game, or a function of the game number giving them (a ladder)."""
    tasks = [(tuple(seating(levels, g)), deals, seed, g) for g in range(games)]
    for lv in sorted({lv for t in tasks for lv in t[0]}):
        player(lv)  # fail early on an unknown level
    out: list[GameResult] = []
    if jobs <= 1:
        results: Iterable[GameResult] = map(_play, tasks)
        for r in results:
            out.append(r)
            if progress:
                progress(1)
        return out
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)
    try:
        for r in pool.map(_play, tasks, chunksize=max(1, min(16, games // (jobs * 8) or 1))):
            out.append(r)
            if progress:
                progress(1)
    except BaseException:  # Ctrl-C or a failing game: end the workers now, do not wait for them
        end_workers(pool)
        raise
    pool.shutdown()
    return out


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which ends them: no traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's processes at once and drop the pending games."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for proc in processes:
        try:
            proc.kill()
        except (OSError, AttributeError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.join(1)


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    i = min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))
    return s[i]


def wald95(hits: int, trials: int) -> float:
    """Half-width of the normal-approximation 95% interval of a rate."""
    if not trials:
        return 0.0
    p = hits / trials
    return 1.96 * math.sqrt(p * (1 - p) / trials)


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its normal-approximation 95% interval (sample
    variance; 0 with fewer than two values)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n) if n else 0.0


def summarize(levels: Sequence[str], results: Sequence[GameResult], deals: int) -> dict:
    """Per entry of --seats, in order: mean points (95% CI), President rate (95% CI), last-place
    rate, decision time p50/p99 (ms)."""
    n = len(levels)
    games = len(results)
    out: dict = {"seats": list(levels), "games": games, "deals": deals, "mean_points": [], "ci95": [],
                 "president_rate": [], "president_ci95": [], "last_rate": [], "decision_ms_mean": [], "decision_ms_p50": [],
                 "decision_ms_p99": [], "decisions": []}
    for e in range(n):
        mean, half = mean_ci95([r.points[e] for r in results])
        places = [p for r in results for p in r.places[e]]
        ms = [t for r in results for t in r.decision_ms[e]]
        out["mean_points"].append(round(mean, 4))
        out["ci95"].append(round(half, 4))
        presidents = places.count(1)
        out["president_rate"].append(round(presidents / len(places), 4) if places else 0.0)
        out["president_ci95"].append(round(wald95(presidents, len(places)), 4))
        out["last_rate"].append(round(places.count(n) / len(places), 4) if places else 0.0)
        out["decision_ms_mean"].append(round(sum(ms) / len(ms), 3) if ms else 0.0)
        out["decision_ms_p50"].append(round(_percentile(ms, 50), 3))
        out["decision_ms_p99"].append(round(_percentile(ms, 99), 3))
        out["decisions"].append(len(ms))
    return out


def tournament(levels: Sequence[str], games: int, deals: int = 1, seed: int = 0, jobs: int = 1,
               progress: Callable[[int], None] | None = None) -> dict:
    return summarize(levels, run_games(levels, games, deals, seed, jobs, progress), deals)
