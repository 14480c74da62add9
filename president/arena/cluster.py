"""Tournaments on an existing Dask distributed cluster (`president tournament --cluster ADDRESS`).

Games are independent and fully determined by (seed, game) (see `president.arena.tournament`), so they
are sent as small batches of game numbers to whatever workers the scheduler has, and the results
are put back in game order: the same numbers as `--jobs 1`, for any cluster. Progress advances as
batches complete. When a worker is lost, the scheduler runs its unfinished batches again on
another worker (Dask's own recovery; a batch that kills `allowed-failures` workers is reported as
an error). Workers must have this package installed (the `[cluster]` extra).
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..errors import PresidentError
from .tournament import GameResult, play_game, seating


class ClusterError(PresidentError):
    """The cluster could not be reached or could not play the games."""


def play_batch(tasks: tuple[tuple[tuple[str, ...], int], ...], deals: int, seed: int) -> list[GameResult]:
    """The games (entries, game number) of a tournament, in order: the unit of work a worker runs."""
    return [play_game(levels, deals, seed, g) for levels, g in tasks]


def batch_size(games: int) -> int:
    """Games per task: about 200 tasks or more, at most 16 games each."""
    return max(1, min(16, games // 200))


def run_games_cluster(levels: Sequence[str] | Callable[[int], Sequence[str]], games: int, deals: int, seed: int, address: str,
                      progress: Callable[[int], None] | None = None, timeout: float = 30) -> list[GameResult]:
    """Play the games on the Dask cluster whose scheduler is at `address`; results in game order.
    `levels` as for `run_games` (one seating, or one per game)."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - the [cluster] extra is not installed
        raise ClusterError("--cluster needs Dask distributed: pip install 'president[cluster]'") from exc
    size = batch_size(games)
    batches = [tuple((tuple(seating(levels, g)), g) for g in range(start, min(games, start + size)))
               for start in range(0, games, size)]
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc
    out: list[GameResult | None] = [None] * games
    try:
        futures = {client.submit(play_batch, b, deals, seed, pure=False): b for b in batches}
        for fut in as_completed(list(futures), loop=client.loop):
            batch = futures[fut]
            try:
                results = fut.result()
            except Exception as exc:  # noqa: BLE001 - a task error or a batch that keeps killing workers
                raise ClusterError(f"games {batch[0][1]}-{batch[-1][1]} failed on the cluster: {exc}") from exc
            for (_levels, g), r in zip(batch, results):
                out[g] = r
            if progress:
                progress(len(batch))
    finally:
        client.close()
    return out  # type: ignore[return-value]
