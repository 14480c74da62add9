"""Hard against three medium players with some of its constants changed: for tuning experiments.

    python benchmarks/hard_variants.py [GAMES] [--jobs J] [--seed S] [--set NAME=VALUE ...]
    # e.g. four times the search work:  --set WORK=28000 --set MAX_ITER=1800 --set MIN_ITER=200
    #      another President bonus:      --set PRESIDENT_BONUS=10

NAME is an upper-case constant of `president.ai.hard` (WORK, MIN_ITER, MAX_ITER, UCB_C, PLAYOUT_NOISE,
OPP_NOISE, PRESIDENT_BONUS, BETA, BURN_IN, THIN). The games are the tournament's (same seeds, seats
rotating), so two variants run with the same GAMES and --seed play the same deals. Prints the
President rate and mean points of hard with 95% intervals, and its decision-time percentiles.
"""
from __future__ import annotations

import argparse
import json

from president.ai import hard
from president.tournament import tournament


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int, nargs="?", default=600)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    for item in args.sets:
        name, _, value = item.partition("=")
        old = getattr(hard, name, None)
        if not name.isupper() or not isinstance(old, (int, float)) or isinstance(old, bool):
            ap.error(f"--set {item}: {name!r} is not a numeric constant of president.ai.hard")
        setattr(hard, name, type(old)(float(value)) if isinstance(old, int) else float(value))
    # the worker processes are forked from this one, so they play with the constants set here
    r = tournament(["hard", "medium", "medium", "medium"], args.games, seed=args.seed, jobs=args.jobs)
    print(json.dumps({"set": args.sets, "games": args.games, "seed": args.seed,
                      "president_rate": r["president_rate"][0], "president_ci95": r["president_ci95"][0],
                      "mean_points": r["mean_points"][0], "points_ci95": r["ci95"][0],
                      "decision_ms_p50": r["decision_ms_p50"][0], "decision_ms_p99": r["decision_ms_p99"][0]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
