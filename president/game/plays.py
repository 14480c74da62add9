"""Combinations under the house-rule options: sets with jokers, runs (the ladder), lone jokers.

One function per rule, shared by the engine, the AIs and the tests:

- `combo(action, sequences, min_run)` reads a play as (kind, size, rank) or None;
- `beats(a, t, reversed_, equality)` says whether combination `a` may follow `t`;
- `plays(hand, ...)` generates every legal play of a hand on a trick, in the engine's order.

Cards are ints as in `president.game.cards`; the jokers are the bits 52 ("X1") and 53 ("X2"). A play
is read without ambiguity because a joker stands in a same-rank set only (`option.jokers.wild`):

- SET: cards of one natural rank r, plus jokers standing for r (at least one natural card);
- RUN: at least `min_run` natural cards of one suit, consecutive ranks of the normal order
  (no jokers, no wrap from 2 to 3); its rank is its lowest rank;
- LONE: one joker alone; it beats any single card and nothing beats it.
"""
from __future__ import annotations

from typing import Final

from .cards import NUM_RANKS, RANK_MASKS, SUBSETS

NATURAL: Final = (1 << (NUM_RANKS * 4)) - 1
X1: Final = 1 << (NUM_RANKS * 4)
X2: Final = X1 << 1
JOKERS: Final = X1 | X2
SET, RUN, LONE = 0, 1, 2

Combo = tuple[int, int, int]  # (kind, size, rank)

#: RUNS[suit][length]: every run mask of that suit and length, lowest rank first.
RUNS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(sum(1 << (4 * r + s) for r in range(r0, r0 + n)) for r0 in range(NUM_RANKS - n + 1))
          for n in range(NUM_RANKS + 1))
    for s in range(4))
#: JOKER_SUBSETS[jokers held >> 52][k]: the k-joker subsets of the jokers held.
JOKER_SUBSETS: Final = tuple(tuple(tuple(s << (NUM_RANKS * 4) for s in sub) for sub in SUBSETS[0][nib][:3])
                             for nib in range(4))


def combo(action: int, sequences: bool, min_run: int = 3) -> Combo | None:
    """(kind, size, rank) of a play, or None if the cards form no combination."""
    nat = action & NATURAL
    k = action.bit_count()
    if not nat:
        return (LONE, 1, NUM_RANKS) if k == 1 else None
    r = (nat.bit_length() - 1) >> 2
    if nat & RANK_MASKS[r] == nat:
        return (SET, k, r)
    if not sequences or action & JOKERS or k < min_run:
        return None
    low = (nat & -nat).bit_length() - 1
    r0 = low >> 2
    if r - r0 + 1 == k and nat == RUNS[low & 3][k][r0]:
        return (RUN, k, r0)
    return None


def why_not_combo(action: int, sequences: bool) -> str:
    """The clause a play that is no combination breaks."""
    nat = action & NATURAL
    if action & JOKERS:
        return "option.jokers.wild"
    suits = {(c & 3) for c in range(nat.bit_length()) if nat >> c & 1}
    if sequences and len(suits) == 1:
        return "option.sequences.on"
    return "play.same-rank"


def beats(a: Combo, t: Combo, reversed_: bool, equality: bool) -> bool:
    """Whether combination `a` may follow the trick's combination `t` (kind and size already match,
    or `a` is a lone joker on a single)."""
    if t[0] == LONE:
        return False
    if a[0] == LONE:
        return t[0] == SET and t[1] == 1
    if reversed_:
        return a[2] <= t[2] if equality else a[2] < t[2]
    return a[2] >= t[2] if equality else a[2] > t[2]


def is_equal(a: Combo, t: Combo) -> bool:
    """An equal play (option.equality.on): same kind, size and rank as the trick."""
    return a[0] == t[0] != LONE and a[1] == t[1] and a[2] == t[2]


def _sets(hand: int, r: int, sizes: range) -> list[int]:
    """Every set of rank r of these sizes from the hand, jokers standing in, fewer cards first,
    natural cards before jokers."""
    nib = (hand >> (r << 2)) & 0xF
    if not nib:
        return []
    jsub = JOKER_SUBSETS[hand >> (NUM_RANKS * 4)]
    table = SUBSETS[r][nib]
    out: list[int] = []
    for k in sizes:
        for j in range(0, min(k - 1, 2) + 1):
            if k - j > 4 or not jsub[j]:
                continue
            for m in table[k - j]:
                out += [m | js for js in jsub[j]]
    return out


_ONES: Final = sum(1 << (4 * r) for r in range(NUM_RANKS))


def _runs(hand: int, n: int, ranks: list[int]) -> list[int]:
    """Runs of length n held, by lowest rank in the order given, lowest suit first."""
    starts = []
    for s in range(4):
        x = hand >> s & _ONES  # one bit per rank held in suit s, at the rank's lowest card
        cur = x
        for i in range(1, n):
            cur &= x >> (4 * i)
            if not cur:
                break
        starts.append(cur)
    if not any(starts):
        return []
    out = []
    for r0 in ranks:
        for s in range(4):
            if starts[s] >> (4 * r0) & 1:
                out.append(RUNS[s][n][r0])
    return out


def _all_runs(hand: int, min_run: int, ranks: list[int]) -> list[int]:
    """Every run held, shorter first, then by lowest rank in the order given, lowest suit first."""
    out: list[int] = []
    for n in range(min_run, NUM_RANKS + 1):
        runs = _runs(hand, n, ranks)
        if not runs:
            break  # no run of n cards: none longer either
        out += runs
    return out


def plays(hand: int, trick: int, reversed_: bool, equality: bool, sequences: bool, min_cards: int,
          max_cards: int, min_run: int) -> list[int]:
    """Every legal play (no pass) of `hand` on `trick` (0 = lead), in a fixed order: sets by rank
    weakest first in the current order, then runs (shorter first, weakest first), then lone jokers."""
    order = range(NUM_RANKS - 1, -1, -1) if reversed_ else range(NUM_RANKS)
    jokers = [X1, X2] if hand & JOKERS == JOKERS else ([hand & JOKERS] if hand & JOKERS else [])
    if not trick:
        out = []
        for r in order:
            out += _sets(hand, r, range(min_cards, max_cards + 1))
        if sequences:
            out += _all_runs(hand, min_run, list(order))
        return out + jokers
    t = combo(trick, sequences, min_run)
    if t is None or t[0] == LONE:
        return []
    kind, size, tr = t
    if reversed_:
        ranks = [r for r in order if (r <= tr if equality else r < tr)]
    else:
        ranks = [r for r in order if (r >= tr if equality else r > tr)]
    if kind == RUN:
        return _runs(hand, size, ranks)
    out = []
    for r in ranks:
        out += _sets(hand, r, range(size, size + 1))
    return out + jokers if size == 1 else out
