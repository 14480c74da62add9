"""Tournaments on an existing Dask distributed cluster (`president tournament --cluster ADDRESS`).

Games are independent and fully determined by (seed, game) (see `president.arena.tournament`), so they
are sent as small batches of game numbers to whatever workers the scheduler has, and the results
are put back in game order: the same numbers as `--jobs 1`, for any cluster. Progress advances as
batches complete. Reaching the scheduler, running the batches and Dask's recovery of a lost worker
are `president.cluster`'s, shared with `conform --cluster`.
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from ..cluster import DEFAULT_CONNECT_TIMEOUT, ClusterError, reach, run_batches
from .tournament import GameResult, play_game, seating

__all__ = ["DEFAULT_CONNECT_TIMEOUT", "ClusterError", "batch_size", "play_batch", "reach", "run_games_cluster"]

Batch = tuple[tuple[tuple[str, ...], int], ...]


def play_batch(tasks: Batch, deals: int, seed: int) -> list[GameResult]:
    """The games (entries, game number) of a tournament, in order: the unit of work a worker runs."""
    return [play_game(levels, deals, seed, g) for levels, g in tasks]


def batch_size(games: int) -> int:
    """Games per task: about 200 tasks or more, at most 16 games each."""
    return max(1, min(16, games // 200))


def run_games_cluster(levels: Sequence[str] | Callable[[int], Sequence[str]], games: int, deals: int, seed: int, address: str,
                      progress: Callable[[int], None] | None = None,
                      timeout: float = DEFAULT_CONNECT_TIMEOUT) -> list[GameResult]:
    """Play the games on the Dask cluster whose scheduler is at `address`; results in game order.
    `levels` as for `run_games` (one seating, or one per game). An unreachable scheduler is a
    `ClusterError` within `timeout` seconds."""
    size = batch_size(games)
    batches: list[Batch] = [tuple((tuple(seating(levels, g)), g) for g in range(start, min(games, start + size)))
                            for start in range(0, games, size)]
    done = (lambda batch, results: progress(len(batch))) if progress else None
    per_batch = run_batches(address, partial(play_batch, deals=deals, seed=seed), batches,
                            lambda b: f"games {b[0][1]}-{b[-1][1]}", done, timeout)
    return [r for results in per_batch for r in results]
