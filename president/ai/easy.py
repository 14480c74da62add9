"""Easy: exactly the lowest legal combination (`ai.easy` and its sub-clauses).

- ai.easy.follow-lowest: following, the lowest rank of the current order that beats the trick,
  with the lowest suits;
- ai.easy.lead-lowest-rank: leading, all its cards of its lowest rank in the current order;
- ai.easy.never-pass: it passes only when it has no play;
- ai.easy.give-lowest: in the exchange it gives back its lowest cards (normal order, then suit).
"""
from __future__ import annotations

import random
from typing import Sequence

from ..cards import worst_cards
from ..engine import PASS, Action, Observation, Phase
from .base import ASCENDING, register


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


@register("easy")
def easy(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if obs.phase == Phase.EXCHANGE:
        return worst_cards(obs.hand, legal[0].bit_count())
    return easy_play(obs.hand, obs.trick, obs.reversed, legal)
