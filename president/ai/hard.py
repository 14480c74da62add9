"""Hard: counts the cards still out and plans its way out of its hand (`ai.hard`).

Card counting (`unseen_cards`): the cards still out are the deck minus its own hand, minus every
card played publicly this deal; the cards it gave in this deal's exchange are known to sit in the
receiver's hand until played, and a player that had to give it their best cards holds nothing
better than the worst of them.

Planning: determinized Monte-Carlo. It samples hidden hands of exactly the observed sizes that are
consistent with those counts, builds a GameState of the public position with them, and for each
candidate action plays the deal out with the medium policy at every seat (the same sampled worlds
for every candidate, so they are compared on equal terms), scoring the points of its own final
place. The exchange is planned the same way: each candidate give is played out in sampled worlds.
The number of rollouts is fixed (not timed), so a decision depends only on the observation and the
seeded rng.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Sequence

from ..cards import FULL_DECK, iter_cards
from ..engine import PASS, Action, Config, GameState, Observation, Phase, Ruleset
from .base import register
from .medium import medium_give, medium_play

#: Rollouts per decision (worlds x candidates) and the fewest / most sampled worlds.
ROLLOUTS = 500
MIN_WORLDS, MAX_WORLDS = 20, 120

_RULES: Ruleset | None = None


def _rules() -> Ruleset:
    global _RULES
    if _RULES is None:
        _RULES = Ruleset.from_spec()
    return _RULES


def _deal_exchanges(obs: Observation):
    return [e for e in obs.exchanges if e[0] == obs.deal]


def unseen_cards(obs: Observation) -> tuple[int, list[int], list[int]]:
    """(cards still out and unknown, cards known to sit in each seat's hand, highest card index + 1
    each seat may hold) from the observation alone."""
    n = obs.players
    played = 0
    for deal, _seat, action in obs.history:
        if deal == obs.deal:
            played |= action
    known = [0] * n
    cap = [64] * n
    place = {s: i for i, s in enumerate(obs.last_ranking)}
    for _deal, giver, receiver, cards in _deal_exchanges(obs):
        if giver == obs.seat:
            known[receiver] |= cards & ~obs.hand & ~played
        elif receiver == obs.seat and place.get(giver, 0) > place.get(receiver, 0):
            # the giver had to give its best cards: it kept nothing better than the worst of them
            cap[giver] = min(cap[giver], (cards & -cards).bit_length() - 1)
    out = FULL_DECK & ~obs.hand & ~played
    for k in known:
        out &= ~k
    return out, known, cap


def sample_hands(obs: Observation, rng: random.Random, unseen: int, known: list[int], cap: list[int],
                 sizes: Sequence[int] | None = None, hand: int | None = None) -> list[int]:
    """Hidden hands of exactly the observed sizes, consistent with the counted cards."""
    n = obs.players
    sizes = obs.hand_sizes if sizes is None else sizes
    hands = [0] * n
    hands[obs.seat] = obs.hand if hand is None else hand
    pool = list(iter_cards(unseen))
    rng.shuffle(pool)
    # capped seats first, from the cards under their cap
    order = sorted((s for s in range(n) if s != obs.seat and sizes[s]), key=lambda s: cap[s])
    for s in order:
        need = sizes[s] - known[s].bit_count()
        hands[s] = known[s]
        if need <= 0:
            continue
        take = [c for c in pool if c < cap[s]][:need] if cap[s] < 64 else pool[:need]
        if len(take) < need:  # inconsistent caps (partial hands): fill from anything left
            take += [c for c in pool if c not in take][:need - len(take)]
        chosen = set(take)
        pool = [c for c in pool if c not in chosen]
        for c in take:
            hands[s] |= 1 << c
    return hands


def world_state(obs: Observation, hands: list[int], to_act: int | None = None) -> GameState:
    """A GameState of the public position of `obs` with these hands, that ends with this deal."""
    g = GameState.__new__(GameState)
    g.rules = _rules()
    g.config = Config(obs.players, obs.revolution, obs.deal)
    g.n = obs.players
    g.hands = hands
    g.phase = Phase.PLAY
    g.deal = obs.deal
    g.to_act = obs.to_act if to_act is None else to_act
    g.reversed = obs.reversed
    g.trick = obs.trick
    g.trick_by = obs.trick_by
    g.passed = sum(1 << s for s in obs.passed)
    g.finished = list(obs.finished)
    g.scores = [0] * obs.players
    g.history, g.exchanges, g.pending = [], [], []
    g.last_ranking = list(obs.last_ranking)
    g.rng = None
    g._legal = None
    return g


def rollout(g: GameState, me: int) -> int:
    """Play the deal out with the medium policy everywhere; the points of `me`'s place."""
    hands, apply, play = g.hands, g.apply, medium_play
    while g.phase == Phase.PLAY and hands[me]:
        apply(play(hands[g.to_act], g.trick, g.reversed))  # type: ignore[index]
    fin = g.finished
    place = fin.index(me) + 1 if me in fin else g.n
    return g.n - place + 1


def play_candidates(legal: Sequence[Action], trick: int) -> list[Action]:
    """Legal plays that differ in rank or size (lowest suits kept); leading, whole ranks and singles."""
    seen: dict[tuple[int, int], Action] = {}
    for a in legal:
        key = ((a.bit_length() - 1) >> 2, a.bit_count())
        if key not in seen:
            seen[key] = a
    if trick:
        return list(seen.values())
    whole: dict[int, Action] = {}
    for (r, k), a in seen.items():
        if k >= whole.get(r, 0).bit_count():
            whole[r] = a
    out = []
    for (r, k), a in seen.items():
        if k == 1 or a == whole[r]:
            out.append(a)
    return out


def give_candidates(hand: int, k: int) -> list[Action]:
    """Gives made of its lowest cards (one per multiset of ranks): the sensible ones."""
    low = list(iter_cards(hand))[:k + 4]
    seen: dict[tuple[int, ...], Action] = {}
    for combo in combinations(low, k):
        key = tuple(c >> 2 for c in combo)
        if key not in seen:
            seen[key] = sum(1 << c for c in combo)
    return list(seen.values())


def _evaluate(obs: Observation, rng: random.Random, cands: list[Action], exchange: bool) -> Action:
    unseen, known, cap = unseen_cards(obs)
    me, n = obs.seat, obs.players
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, ROLLOUTS // len(cands)))
    totals = [0] * len(cands)
    if exchange:  # give back to the seat whose best cards it received; the last place then leads
        giver = next(g for _d, g, r, _c in _deal_exchanges(obs) if r == me)
        leader = obs.last_ranking[-1]
    for _ in range(worlds):
        base = sample_hands(obs, rng, unseen, known, cap)
        for i, action in enumerate(cands):
            hands = base[:]
            if exchange:
                hands[me] ^= action
                hands[giver] |= action
                g = world_state(obs, hands, to_act=leader)
            else:
                g = world_state(obs, hands)
                g.apply(action)
            totals[i] += rollout(g, me)
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


@register("hard")
def hard(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    if obs.phase == Phase.EXCHANGE:
        k = legal[0].bit_count()
        cands = give_candidates(obs.hand, k)
        fallback = medium_give(obs.hand, k)
        if fallback not in cands:
            cands.insert(0, fallback)
        return _evaluate(obs, rng, cands, exchange=True) if len(cands) > 1 else cands[0]
    cands = play_candidates(legal, obs.trick)
    if len(cands) == 1:
        return cands[0]
    return _evaluate(obs, rng, cands, exchange=False)


__all__ = ["hard", "unseen_cards", "sample_hands", "world_state", "rollout", "PASS"]
