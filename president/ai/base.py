"""What every AI is: a function of (Observation, legal actions, seeded rng) returning an action.

The type is the enforcement of `ai.observation-only`: a `Player` receives an `Observation`
(the seat's own hand, the public cards and history, the exchanges it took part in, the legal
actions) and never the engine state. `choose()` is the one door through which callers (the
tournament, tests, the conformance runner) ask an AI for a move; it refuses anything else.

Levels register themselves (`register`) by the ids of the spec's `ai.levels`; the package's
`__init__` imports them, so the registry is full wherever `president.ai` is imported.
"""
from __future__ import annotations

import random
from typing import Callable, Final, Sequence

from ..game.cards import NUM_RANKS, CardMask
from ..game.engine import Action, Observation
from ..spec import Spec, default_spec

Player = Callable[[Observation, Sequence[Action], random.Random], Action]

#: POP[nibble]: how many cards a 4-bit rank nibble holds.
POP: Final[tuple[int, ...]] = tuple(bin(i).count("1") for i in range(16))


def _lowest(nib: int, k: int) -> int:
    out = 0
    for _ in range(k):
        low = nib & -nib
        if not low:
            return 0
        out |= low
        nib ^= low
    return out


#: LOW_SUITS[nibble][k]: the k lowest suits of a nibble (0 when it holds fewer than k cards).
LOW_SUITS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(_lowest(nib, k) for k in range(5)) for nib in range(16))
#: Ranks in the current order, weakest first.
ASCENDING: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (tuple(range(NUM_RANKS)), tuple(range(NUM_RANKS - 1, -1, -1)))


def top_rank(reversed_: bool) -> int:
    """The strongest rank of the current order: 2 normally, 3 in revolution."""
    return 0 if reversed_ else NUM_RANKS - 1


def strength(rank: int, reversed_: bool) -> int:
    """Position of a rank in the current order, 0 = weakest."""
    return NUM_RANKS - 1 - rank if reversed_ else rank


def play_rank(action: Action) -> int:
    return (action.bit_length() - 1) >> 2


def house_key(action: Action, reversed_: bool) -> tuple[int, int, int, int]:
    """Order of plays under the house rules, weakest first: by the strength of the play's rank in
    the current order (a run by its top, a lone joker above all), then sets before runs, fewer
    jokers, lowest cards. One-rank 1.1.0 plays keep the engine's order."""
    from ..game.plays import JOKERS, LONE, RUN, combo

    c = combo(action, True)
    if c is None or c[0] == LONE:
        return (NUM_RANKS, 2, 1, action)
    kind, size, rank = c
    top = rank if not (kind == RUN and not reversed_) else rank + size - 1
    return (strength(top, reversed_), kind, (action & JOKERS).bit_count(), action)


def house_rules(obs: Observation, legal: Sequence[Action]) -> bool:
    """Whether the 1.1.0 policy cannot be used as is: the table plays house rules, or the lead is
    bound to a card (option.first-lead.holder: every legal play holds it)."""
    if obs.config is not None and not obs.config.plain:
        return True
    if obs.trick:
        return False
    common = legal[0]
    for a in legal:
        common &= a
    return bool(common)


def natural_trick(trick: CardMask) -> CardMask:
    """A one-rank trick with its jokers replaced by the lowest missing suits of its rank, so that the
    1.1.0 policies (which read a trick's rank and size from its mask) can read it."""
    from ..game.plays import NATURAL

    nat = trick & NATURAL
    if nat == trick or not nat:
        return trick
    r = play_rank(nat)
    nib = nat >> (4 * r) & 0xF
    free = ~nib & 0xF
    for _ in range(trick.bit_count() - POP[nib]):
        nib |= free & -free
        free &= free - 1
    return nib << (4 * r)


_REGISTRY: dict[str, Player] = {}


def register(level: str) -> Callable[[Player], Player]:
    def deco(fn: Player) -> Player:
        _REGISTRY[level] = fn
        return fn
    return deco


def levels(spec: Spec | None = None) -> tuple[str, ...]:
    """Level ids in the spec's order (`ai.levels`)."""
    return tuple(lv.id for lv in (spec or default_spec()).ai_levels)


def player(level: str, spec: Spec | None = None) -> Player:
    """The AI of a level id declared in the spec's `ai.levels`."""
    known = levels(spec)
    if level not in known or level not in _REGISTRY:
        raise KeyError(f"unknown AI level {level!r}; the spec declares {', '.join(known)}")
    return _REGISTRY[level]


def choose(level: str | Player, obs: Observation, rng: random.Random) -> Action:
    """Ask an AI for its action. It gets the observation (and its legal actions) only."""
    if not isinstance(obs, Observation):
        raise TypeError(f"an AI receives an Observation only (ai.observation-only), not {type(obs).__name__}")
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has nothing to do: it is not its turn")
    fn = player(level) if isinstance(level, str) else level
    action = fn(obs, obs.legal, rng)
    if action not in obs.legal:
        raise AssertionError(f"AI returned an illegal action {action:#x}")
    return action
