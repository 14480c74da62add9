"""Easy: exactly the lowest legal combination (`ai.easy` and its sub-clauses).

- ai.easy.follow-lowest: following, the lowest rank of the current order that beats the trick,
  with the lowest suits;
- ai.easy.lead-lowest-rank: leading, all its cards of its lowest rank in the current order;
- ai.easy.never-pass: it passes only when it has no play;
- ai.easy.give-lowest: in the exchange it gives back its lowest cards (normal order, then suit).

Under house rules (runs, jokers, equality, a leader's pass, the first-lead card) it keeps the same
idea over the legal actions: following, the weakest play that beats the trick (an equal rank
counts as the lowest; natural cards before jokers; a lone joker last); leading, the longest run
holding a card of its lowest rank, else all its natural cards of that rank, or, when that is not
allowed, the weakest legal play with the most cards;
it never passes while it can play.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..game.cards import worst_cards
from ..game.engine import PASS, Action, Observation, Phase
from ..game.plays import NATURAL, RUN, combo
from .base import ASCENDING, house_key, house_rules, register


def easy_play(hand: int, trick: int, reversed_: bool, legal: Sequence[Action]) -> Action:
    if trick:
        # legal plays come weakest first in the current order, lowest suits first (engine order)
        plays = [a for a in legal if a != PASS]
        if not plays:
            return PASS
        return min(plays, key=lambda a: (_pos(a, reversed_), a))
    for r in ASCENDING[reversed_]:
        cards = hand >> (4 * r) & 0xF
        if cards:
            return cards << (4 * r)
    raise ValueError("an empty hand cannot lead")


def _pos(action: Action, reversed_: bool) -> int:
    r = (action.bit_length() - 1) >> 2
    return -r if reversed_ else r


def easy_house(hand: int, trick: int, reversed_: bool, legal: Sequence[Action]) -> Action:
    """Easy over the legal actions of any option combination."""
    plays = [a for a in legal if a != PASS]
    if not plays:
        return PASS
    if not trick and hand & NATURAL:
        for r in ASCENDING[reversed_]:
            cards = hand >> (4 * r) & 0xF
            if cards:
                runs = [a for a in plays if a & (cards << (4 * r)) and combo(a, True)[0] == RUN]  # type: ignore[index]
                if runs:  # its lowest rank starts a run: the longest one
                    return min(runs, key=lambda a: (-a.bit_count(), house_key(a, reversed_)))
                if cards << (4 * r) in plays:
                    return cards << (4 * r)
                break
        return min(plays, key=lambda a: (house_key(a, reversed_)[0], -(a & NATURAL).bit_count(),
                                         house_key(a, reversed_)))
    return min(plays, key=lambda a: house_key(a, reversed_))


@register("easy")
def easy(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if obs.phase == Phase.EXCHANGE:
        return worst_cards(obs.hand, legal[0].bit_count())
    if house_rules(obs, legal):
        return easy_house(obs.hand, obs.trick, obs.reversed, legal)
    return easy_play(obs.hand, obs.trick, obs.reversed, legal)

