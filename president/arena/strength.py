"""Paired strength comparisons between AI levels (used by the suite's short significance check and
by the slow strength benchmark in benchmarks/).

A paired comparison puts `level` instead of `base` at entry 0 of a table of `base` players and
plays the same deals on the same seats both ways, so the luck of the deal cancels.
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from .tournament import mean_ci95, play_game


def paired_diff(args: tuple[str, str, int, int]) -> int:
    """Points of entry 0 as `level` minus its points as `base`, on game `g` of `seed`."""
    level, base, seed, g = args
    n = 4
    return play_game([level] + [base] * (n - 1), 1, seed, g).points[0] - play_game([base] * n, 1, seed, g).points[0]


def paired_gain(level: str, base: str, games: int, seed: int, jobs: int = 1) -> tuple[float, float]:
    """Mean points gained by `level` over `base` on paired deals, and the half-width of its 95% CI."""
    tasks = [(level, base, seed, g) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            diffs = list(pool.map(paired_diff, tasks, chunksize=4))
    else:
        diffs = list(map(paired_diff, tasks))
    return mean_ci95(diffs)
