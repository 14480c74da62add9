"""Medium: keeps its top-rank cards and quads to win back the lead, and does not break pairs or
triples without need (`ai.medium` and its sub-clauses).

Words used by the clauses: the *top rank* is the strongest rank of the current order (2, or 3 in
revolution); the *second rank* is the next one (A, or 4 in revolution). A *reserve* rank is the top
rank, a rank the hand holds four of, or the second rank while the hand holds more than six ranks. A
*clean* play uses every card the hand holds of one non-reserve rank. "Without need" is counted in
ranks: the hand needs at least one play per rank it holds to go out, so medium spends its reserve
and breaks groups only when few ranks are left.

- ai.medium.lead-low: leading, it plays all its cards of its lowest non-reserve rank in the current
  order; but with one non-reserve rank left (or none) it leads all its top-rank cards first, and with
  only quads left, its lowest quad;
- ai.medium.follow-clean: following, it plays the lowest clean play that beats the trick (so it keeps
  its aces while it holds more than six ranks);
- ai.medium.keep-top: with no clean play, it plays top-rank cards (lowest suits) only when, besides
  them, it holds at most four ranks, plus one per top-rank card it would keep; otherwise
- ai.medium.no-break: with no clean play it breaks a pair or triple, or plays from a quad, only
  when it holds at most four ranks in all (the lowest play that beats the trick); otherwise it passes;
- ai.medium.keep-quads: so a quad is never split while the hand holds more than four ranks, and it is
  led only when nothing else is left;
- ai.medium.give-singles: in the exchange it gives back its lowest single cards (ranks it holds one
  of) first, then its lowest other cards.

`medium_play` is a pure function of masks: the hard AI uses it as its rollout policy.

Under house rules (`medium_house`) it plays the same policy on its natural cards, the trick read
as plain cards of its rank; the jokers are kept as reserve like the top rank (a lone joker wins the
lead back on a single when at most four other ranks are left); on a run it plays the weakest run
without a top-rank card, or passes; leading with runs allowed, it first leads its longest run of
cards it holds alone (weakest first); a play bound to the first-lead card uses all its natural
cards of that rank. It never passes as leader.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..game.cards import NUM_RANKS, card_list
from ..game.engine import PASS, Action, Observation, Phase
from ..game.plays import JOKERS, LONE, NATURAL, RUN, combo, plays
from .base import LOW_SUITS, POP, house_key, house_rules, natural_trick, register, top_rank

#: Ranks stronger than rank t in the current order, weakest first: ABOVE[reversed][t].
ABOVE = (tuple(tuple(range(t + 1, NUM_RANKS)) for t in range(NUM_RANKS)),
         tuple(tuple(range(t - 1, -1, -1)) for t in range(NUM_RANKS)))


#: keep-top: top-rank cards follow only when the hand holds at most this many other ranks
#: (plus one per top-rank card it keeps).
TOP_OTHERS = 4
#: follow-clean: the second rank is a reserve while the hand holds more than this many ranks.
SECOND_RANKS = 6
#: no-break: a pair, triple or quad is broken to follow only when the hand holds at most this many ranks.
BREAK_RANKS = 4
#: lead-low: with at most this many non-reserve ranks left, lead the top-rank cards first.
LEAD_TOP = 1


#: One bit per rank, at the rank's lowest card: the nibble-wise arithmetic below works on it.
_ONES = sum(1 << (4 * r) for r in range(NUM_RANKS))
#: _ABOVE_MASK[reversed][t]: the _ONES bits of the ranks stronger than t in the current order.
_ABOVE_MASK = (tuple(_ONES & ~((1 << (4 * t + 4)) - 1) for t in range(NUM_RANKS)),
               tuple(_ONES & ((1 << (4 * t)) - 1) for t in range(NUM_RANKS)))


def medium_play(hand: int, trick: int, reversed_: bool) -> Action:
    """Medium's play for this hand on this trick (0 = pass). Always a legal action.

    Written with nibble-wise bit arithmetic (one bit per rank) rather than a loop over ranks: it is
    the rollout policy of the hard AI, so it runs millions of times."""
    ones = _ONES
    b1, b2, b3 = hand >> 1, hand >> 2, hand >> 3
    held = (hand | b1 | b2 | b3) & ones  # ranks held
    quads = hand & b1 & b2 & b3 & ones
    if reversed_:
        top, topbit = 0, 1
    else:
        top, topbit = NUM_RANKS - 1, 1 << (4 * (NUM_RANKS - 1))
    if not trick:
        groups = held & ~quads & ~topbit
        if hand & (0xF << (4 * top)) and (not groups or groups.bit_count() <= LEAD_TOP):
            return hand & (0xF << (4 * top))
        if groups:
            low = groups & -groups if not reversed_ else 1 << (groups.bit_length() - 1)
            return hand & (low * 0xF)
        q = quads & -quads if not reversed_ else 1 << (quads.bit_length() - 1)
        return q * 0xF
    t = (trick.bit_length() - 1) >> 2
    k = (trick >> (4 * t) & 0xF).bit_count()
    ranks = held.bit_count()
    if k < 4:
        # count of each rank, one nibble per rank; nibbles equal to k
        diff = ((hand & ones) + (b1 & ones) + (b2 & ones) + (b3 & ones)) ^ (k * ones)
        clean = ones & ~(diff | diff >> 1 | diff >> 2) & held & _ABOVE_MASK[reversed_][t] & ~topbit
        if clean:
            c = clean & -clean if not reversed_ else 1 << (clean.bit_length() - 1)
            if not (ranks > SECOND_RANKS and c == (topbit << 4 if reversed_ else topbit >> 4)):
                return hand & (c * 0xF)
    if t != top:
        nib = hand >> (4 * top) & 0xF
        if POP[nib] >= k and ranks - 1 <= TOP_OTHERS + POP[nib] - k:
            return LOW_SUITS[nib][k] << (4 * top)
    if ranks <= BREAK_RANKS:
        for r in ABOVE[reversed_][t]:
            nib = hand >> (4 * r) & 0xF
            if POP[nib] >= k:
                return LOW_SUITS[nib][k] << (4 * r)
    return PASS


def medium_give(hand: int, k: int) -> int:
    """The k cards medium gives back: lowest singles first, then the lowest other cards."""
    counts: dict[int, int] = {}
    for c in range(hand.bit_length()):
        if hand >> c & 1:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
    cards = sorted((c for c in range(hand.bit_length()) if hand >> c & 1), key=lambda c: (counts[c >> 2] != 1, c))
    out = 0
    for c in cards[:k]:
        out |= 1 << c
    return out


def medium_house(hand: int, trick: int, reversed_: bool, legal: Sequence[Action]) -> Action:
    """Medium over the legal actions of any option combination (see the module text)."""
    plays = [a for a in legal if a != PASS]
    if not plays:
        return PASS
    nat = hand & NATURAL
    top = top_rank(reversed_)
    key = lambda a: house_key(a, reversed_)  # noqa: E731
    t = combo(trick, True) if trick else None
    if t is not None and t[0] == RUN:
        runs = [a for a in plays if not a & (0xF << (4 * top))]
        return min(runs, key=key) if runs else PASS
    if t is None:
        common = plays[0]
        for a in plays:
            common &= a
        if common:  # the lead is bound to a card: all its natural cards of that rank
            r = (common & -common).bit_length() - 1 >> 2
            whole = hand & (0xF << (4 * r))
            if whole in plays:
                return whole
            return min(plays, key=lambda a: (-(a & NATURAL).bit_count(), key(a)))
        runs = [a for a in plays if combo(a, True)[0] == RUN and not a & (0xF << (4 * top))  # type: ignore[index]
                and all(POP[hand >> (4 * r) & 0xF] == 1 for r in range(NUM_RANKS) if a >> (4 * r) & 0xF)]
        if runs:
            return min(runs, key=lambda a: (-a.bit_count(), key(a)))
    if nat:
        action = medium_play(nat, natural_trick(trick), reversed_)
        if action != PASS and action in plays:
            return action
        if action == PASS and t is not None:
            ranks = sum(1 for r in range(NUM_RANKS) if nat >> (4 * r) & 0xF)
            lone = [a for a in plays if not a & NATURAL]
            if t[1] == 1 and lone and ranks <= TOP_OTHERS:
                return lone[0]  # a lone joker wins the lead back near the end
            helped = [a for a in plays if a & JOKERS and a & NATURAL]
            if helped and ranks <= BREAK_RANKS:
                return min(helped, key=key)  # near the end a joker completes a set
            return PASS
    if t is not None and t[0] == LONE:
        return PASS
    # only jokers left, or the policy's play is not allowed here: the weakest play, fewest jokers
    return min(plays, key=lambda a: ((a & JOKERS).bit_count(), key(a)))


def medium_move(hand: int, trick: int, reversed_: bool, table: tuple | None = None) -> Action:
    """Medium's play as a pure function of the position, for any table: `table` is None for the
    1.1.0 plays, else (Config, Ruleset) of the game (its plays come from `president.game.plays`)."""
    if table is None:
        return medium_play(hand, trick, reversed_)
    config, rules = table
    legal = plays(hand, trick, reversed_, config.equality, config.sequences, rules.min_cards, rules.max_cards,
                  rules.min_run)
    return medium_house(hand, trick, reversed_, [PASS, *legal] if trick else legal)


@register("medium")
def medium(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if obs.phase == Phase.EXCHANGE:
        return medium_give(obs.hand, legal[0].bit_count())
    if house_rules(obs, legal):
        return medium_house(obs.hand, obs.trick, obs.reversed, legal)
    action = medium_play(obs.hand, obs.trick, obs.reversed)
    if action not in legal:  # pragma: no cover - medium_play only builds legal plays
        raise AssertionError(f"medium built an illegal play {card_list(action)}")
    return action
