"""How much of hard's gap is information? A diagnostic for issue 12, not an AI level.

The same simple planner (every candidate of `hard` played out in every world with the medium policy
at every seat, the same worlds for every candidate, the best mean reward chosen) plays single
4-player deals against three medium players, fed with different worlds:

- ``belief``: distinct worlds drawn by hard's own belief chain (`hard.sample_worlds`), i.e. what a
  player may know;
- ``oracle@K``: the true hands, once K cards of the deal have been played (before that, the belief
  worlds). These arms read hidden state ON PURPOSE, to measure what knowing it is worth; nothing
  outside this script does.

It also prints how well the belief chain places the hidden cards (share of hidden cards put in the
right hand, against 1/3 for a blind guess) and how many distinct worlds it yields, by cards played.

Usage: python benchmarks/hard_information.py [GAMES] [--jobs J] [--seed S]

Games use the tournament's seeds and seat rotation (game g: `tournament.game_seed(S, g)`, the
planner at seat g mod 4), so an arm's figures are reproducible.
"""
from __future__ import annotations

import argparse
import random
import statistics
from multiprocessing import Pool

from president.ai import hard as H
from president.ai.medium import medium, medium_play
from president.game.engine import GameState, Phase, Ruleset
from president.arena.tournament import game_seed, mean_ci95, wald95

WORLDS = 40
ARMS = {"belief": None, "oracle@0": 0, "oracle@8": 8, "oracle@20": 20, "oracle@32": 32}


def playout(g: GameState, me: int) -> float:
    """Medium at every seat until `me` is out; `me`'s reward as `hard` scores it (0..1)."""
    hands = g.hands
    while g.phase == Phase.PLAY and hands[me]:
        g.apply(medium_play(hands[g.to_act], g.trick, g.reversed))  # type: ignore[index]
    return H.place_reward(g, g.finished.index(me) + 1)


def plan(obs, legal, worlds) -> int:
    cands = H._medium_first(H.play_candidates(legal, obs.trick), medium(obs, legal, None))  # type: ignore[arg-type]
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    for hands in worlds:
        base = GameState.from_observation(obs, hands)
        for i, a in enumerate(cands):
            g = base.copy()
            g.apply(a)
            totals[i] += playout(g, obs.seat)
    return cands[max(range(len(cands)), key=lambda i: (totals[i], -i))]


def distinct(worlds: list[list[int]]) -> list[list[int]]:
    seen: dict[tuple[int, ...], list[int]] = {}
    for w in worlds:
        seen.setdefault(tuple(w), w)
    return list(seen.values())


def play(args: tuple[str, int, int]) -> tuple[str, int, list[tuple[int, float, int]]]:
    """One deal of an arm: (arm, the planner's place, [(cards played, belief accuracy, distinct worlds)])."""
    arm, seed, game = args
    rules = Ruleset.from_spec()
    g = GameState(rules, rules.config(4, deals=1), seed=game_seed(seed, game))
    me, rng, k = game % 4, random.Random(game_seed(seed, game) * 8), ARMS[arm]
    stats = []
    while g.phase == Phase.PLAY:
        s = g.to_act
        obs = g.observation(s)  # type: ignore[arg-type]
        if s != me or len(obs.legal) == 1:
            g.apply(medium(obs, obs.legal, rng))
            continue
        played = 52 - sum(obs.hand_sizes)
        if k is not None and played >= k:
            worlds = [list(g.hands)]  # hidden state, read on purpose (see the module text)
        else:
            worlds = distinct(H.sample_worlds(obs, rng, WORLDS))
            if arm == "belief":
                unseen = H.unseen_cards(obs)[0]
                if unseen:
                    hit = statistics.mean(sum((w[o] & g.hands[o] & unseen).bit_count() for o in range(4) if o != me)
                                          for w in worlds) / unseen.bit_count()
                    stats.append((played, hit, len(worlds)))
        g.apply(plan(obs, obs.legal, worlds))
    return arm, g.last_ranking.index(me) + 1, stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int, nargs="?", default=400)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arms", default=",".join(ARMS))
    args = ap.parse_args()
    arms = args.arms.split(",")
    tasks = [(arm, args.seed, g) for arm in arms for g in range(args.games)]
    with Pool(args.jobs) as pool:
        results = pool.map(play, tasks, chunksize=4)
    rules = Ruleset.from_spec()
    print(f"{args.games} single 4-player deals per arm against three medium players, seed {args.seed}")
    print(f"{'arm':<10} {'President':>16} {'points':>14}")
    for arm in arms:
        places = [p for a, p, _ in results if a == arm]
        n = len(places)
        presidents = sum(p == 1 for p in places)
        rate = presidents / n
        mean, ci = mean_ci95([rules.points(p, 4, "places") for p in places])
        print(f"{arm:<10} {rate:>8.1%} ± {wald95(presidents, n):>5.1%} {mean:>7.3f} ± {ci:.3f}")
    stats = [s for a, _, st in results if a == "belief" for s in st]
    if stats:
        print("\nbelief chain, by cards played: share of hidden cards in the right hand (blind guess 33%), distinct worlds of", WORLDS)
        for lo in range(0, 48, 8):
            band = [(h, d) for p, h, d in stats if lo <= p < lo + 8]
            if band:
                print(f"  {lo:>2}-{lo + 7:<2} {len(band):>5} decisions  {statistics.mean(h for h, _ in band):6.1%}"
                      f"  {statistics.mean(d for _, d in band):5.1f}")


if __name__ == "__main__":
    main()
