"""Hard against three medium players with some of its constants changed: for tuning experiments.

    python benchmarks/hard_variants.py [GAMES] [--jobs J] [--seed S] [--set NAME=VALUE ...] [--work K,...]
    # e.g. four times the search work:  --work 4
    #      (the same as --set WORK=28000 --set MAX_ITER=1800 --set MIN_ITER=200 --set BURN_IN=800)
    #      hard's strength against its work: --work 1,4,8
    #      another President bonus:      --set PRESIDENT_BONUS=10

NAME is an upper-case constant of `president.ai.hard` (WORK, MIN_ITER, MAX_ITER, UCB_C, PLAYOUT_NOISE,
OPP_NOISE, PRESIDENT_BONUS, BETA, BURN_IN, THIN). `--work K` multiplies the search's iterations and the
belief chain's burn-in (WORK, MIN_ITER, MAX_ITER, BURN_IN) by K, after the --set values; with several
factors, one line is printed per factor. The games are the tournament's (same seeds, seats rotating),
so two variants run with the same GAMES and --seed play the same deals. Each line gives the President
rate and mean points of hard with 95% intervals, its decision-time percentiles and the wall time.
"""
from __future__ import annotations

import argparse
import json
import time

from president.ai import hard
from president.arena.tournament import tournament

#: The constants that `--work K` multiplies: the search's iterations and the belief chain's burn-in.
WORK_CONSTANTS = ("WORK", "MIN_ITER", "MAX_ITER", "BURN_IN")


def parse_set(item: str) -> tuple[str, float]:
    """NAME=VALUE for a numeric constant of president.ai.hard (ValueError otherwise)."""
    name, _, value = item.partition("=")
    old = getattr(hard, name, None)
    if not name.isupper() or not isinstance(old, (int, float)) or isinstance(old, bool):
        raise ValueError(f"--set {item}: {name!r} is not a numeric constant of president.ai.hard")
    try:
        return name, float(value)
    except ValueError:
        raise ValueError(f"--set {item}: {value!r} is not a number") from None


def run(games: int, seed: int, jobs: int, sets: list[tuple[str, float]], factor: float = 1.0) -> dict:
    """Hard vs three medium with the constants changed (then the work multiplied by `factor`); the
    constants are restored afterwards. The worker processes are forked from this one, so they play
    with the constants set here."""
    names = [n for n, _ in sets] + list(WORK_CONSTANTS)
    saved = {n: getattr(hard, n) for n in names}
    try:
        for name, value in sets:
            setattr(hard, name, type(saved[name])(value))
        for name in WORK_CONSTANTS:
            setattr(hard, name, max(1, round(getattr(hard, name) * factor)))
        start = time.perf_counter()
        r = tournament(["hard", "medium", "medium", "medium"], games, seed=seed, jobs=jobs)
        seconds = time.perf_counter() - start
        constants = {n: getattr(hard, n) for n in names}
    finally:
        for name, value in saved.items():
            setattr(hard, name, value)
    return {"set": [f"{n}={v:g}" for n, v in sets], "work": factor, "constants": constants, "games": games,
            "seed": seed, "president_rate": r["president_rate"][0], "president_ci95": r["president_ci95"][0],
            "mean_points": r["mean_points"][0], "points_ci95": r["ci95"][0],
            "decision_ms_p50": r["decision_ms_p50"][0], "decision_ms_p99": r["decision_ms_p99"][0],
            "seconds": round(seconds, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int, nargs="?", default=600)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--work", default="1", metavar="K[,K...]", help="multiply the search work by K (several: one run each)")
    args = ap.parse_args()
    try:
        sets = [parse_set(item) for item in args.sets]
    except ValueError as e:
        ap.error(str(e))
    try:
        factors = [float(k) for k in args.work.split(",")]
    except ValueError:
        ap.error(f"--work {args.work}: not a number")
    if any(k <= 0 for k in factors):
        ap.error(f"--work {args.work}: factors must be positive")
    for k in factors:
        print(json.dumps(run(args.games, args.seed, args.jobs, sets, k)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
