"""One cause, one deviation: the divergent steps of one symptom split by the causes behind them.

Divergent steps are first grouped by clause and mechanism (`records.Mechanism`: the request, the
action type, what differs). Two rules can share a symptom (the engine leaves out plays the
reference allows after a 7, and also some plays that are part of a rank's cards): one group then
holds two causes, and the second one hides behind the first. `causes_of` splits a group, bounded:

1. **Explained away by the fitted variant.** The steps the fitted option values remove are one
   cause (the house rule); the steps they leave are looked at again, as a cause of their own.
2. **Explained away by a context.** Where the engine refuses (or leaves out of `legal`) plays the
   reference allows, each play it refuses is described by generic features: lead or follow, the
   rank on the table, higher, equal or lower than it, as many cards as the trick or not, the number
   of cards, all or part of that rank's cards in the hand, the rank played, several ranks at once.
   A context (up to `MAX_FEATURES` features, one of them where it is played: a lead, the rank or
   the number of cards on the table) that matches a refused play at some steps, no play the engine and the reference
   both allow anywhere in the group, and more plays than chance would explain (`CHANCE`) explains
   those steps away: they are one cause, and the rest is looked at again (at most `MAX_SPLITS`
   times). A context that covers nearly all the steps (`WHOLE`) is the group's one cause: no split.
   Plays the engine accepts where the reference refuses are not split this way: which illegal
   plays it could have listed is not known, so no context can be checked against them.

Every part keeps its own steps, so it gets its own evidence, minimal scenario and confirmation.
Nothing here knows an engine: the features are the rules' own dimensions, fitted to the steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..game.cards import CARD_NAMES, RANK_MASKS, parse_cards, rank_counts, rank_of
from ..game.engine import GameState, Phase
from .trace import notations

if TYPE_CHECKING:
    from .baseline import Divergent, Key

PLAIN = (1 << 52) - 1  # the 52 cards of a deck without jokers
#: Plays of one step described, at most, on each side (those that differ, those agreed on).
MAX_PLAYS = 64
#: The mechanisms (what differs) whose steps are split by the plays that differ.
PLACED = ("refused", "accepted")

#: Splits of one group, at most (each a cause explained away before looking again).
MAX_SPLITS = 3
#: A context covering at least this share of the steps left is the one cause of them all.
WHOLE = 0.95
#: A cause split off covers at least this many steps, and this share of the group.
LEAST_STEPS, LEAST_SHARE = 5, 0.05
#: Positions a context is looked for in, per group (a sample over the group), to bound the time.
MAX_STEPS = 400
#: Features of a context, at most (a rule often reads three: the rank on the table, higher or
#: lower, as many cards as the trick).
MAX_FEATURES = 3
#: A context is a cause when its plays all differing is less likely than this by chance (at the
#: rate plays differ in the group).
CHANCE = 1e-3


@dataclass
class Part:
    """The steps of one cause within a group, and what sets it apart (empty: the group's only cause)."""

    divs: list[Divergent]
    context: str = ""
    explained: bool = False  # the fitted variant removes these steps


def _rank_name(rank: int) -> str:
    return CARD_NAMES[4 * rank][:-1] if 4 * rank < len(CARD_NAMES) else "joker"


def features(play: int, pos: GameState) -> frozenset[str]:
    """The generic features of one play (a card mask) at a position: what a rule may depend on."""
    counts = rank_counts(play)
    ranks = [r for r, c in enumerate(counts) if c]
    out = {"lead" if not pos.trick else "follow", f"{play.bit_count()} card(s)"}
    cards = pos.trick & PLAIN  # a joker in the trick stands for the rank of its other cards
    if pos.trick:
        out.add(f"on {_rank_name(rank_of(cards)) if cards else 'jokers'}")
        out.add(f"on {pos.trick.bit_count()} card(s)")
        out.add("as many cards as the trick" if play.bit_count() == pos.trick.bit_count() else "another count")
    if len(ranks) != 1 or play >> 52:
        out.add("several ranks")
        return frozenset(out)

    rank = ranks[0]
    out.add(f"rank {_rank_name(rank)}")
    if cards:
        top = rank_of(cards)
        higher = rank < top if pos.reversed else rank > top
        out.add("equal" if rank == top else "higher" if higher else "lower")
    seat = pos.to_act
    hand = pos.hands[seat] if seat is not None else 0
    held = (hand & RANK_MASKS[rank]).bit_count()
    out.add("all of its rank" if held == play.bit_count() else "part of its rank")
    return frozenset(out)


def _plays(notes: Iterable[str]) -> set[int]:
    out: set[int] = set()
    for n in notes:
        if n != "pass" and not n.startswith("give"):
            try:
                out.add(parse_cards(n.split()))
            except (KeyError, ValueError):
                continue
    return out


def _sides(d: Divergent, reply: Any, differs: str) -> tuple[list[frozenset[str]], list[frozenset[str]]] | None:
    """The features of the plays that differ at one step (in the mechanism's direction) and of those
    the engine and the reference agree on (both allow them where it refuses plays, both refuse them
    where it accepts plays); None when the step is not about plays."""
    pos = d.before
    if pos is None or pos.phase != Phase.PLAY or pos.to_act is None or differs not in PLACED:
        return None
    ref = {a for a in pos.legal_actions() if a}
    if d.request.get("cmd") == "act":
        action = d.request.get("action") or {}
        if action.get("type") != "play" or d.request.get("player") != pos.to_act:
            return None  # a play out of turn says nothing of which plays the engine allows
        plays = _plays([" ".join(action.get("cards") or [])])
        return ([features(p, pos) for p in plays], []) if plays else None
    if d.request.get("cmd") != "legal" or not isinstance(reply, dict) or not reply.get("ok"):
        return None
    mine = _plays(notations(reply.get("actions") or []))
    if differs == "refused":
        differ, agree = ref - mine, ref & mine
    else:
        differ, agree = mine - ref, _hand_plays(pos) - ref - mine
    if not differ:
        return None
    # a long list (up to the protocol's 10,000 actions) is read by its first plays in card order
    return [features(p, pos) for p in sorted(differ)[:MAX_PLAYS]], [features(p, pos) for p in sorted(agree)[:MAX_PLAYS]]


def differing(d: Divergent, differs: str) -> tuple[frozenset[str], ...]:
    """The features of the plays that differ at one step (`_sides`), () when it is not about plays:
    where the step belongs once a group is split."""
    sides = _sides(d, d.actual, differs)
    return tuple(sides[0]) if sides is not None else ()


def places_of(d: Divergent) -> tuple[frozenset[str], ...] | None:
    """`differing` by the step's own mechanism (None: a step not about plays): `baseline.Baseline`'s `place`."""
    differs = d.mechanism.differs if d.mechanism is not None else ""
    return differing(d, differs) if differs in PLACED else None


def _hand_plays(pos: GameState) -> set[int]:
    """Every play of cards of one rank the seat to act holds (a joker aside): the plays a rule of
    plays decides on."""
    hand = pos.hands[pos.to_act] if pos.to_act is not None else 0
    out: set[int] = set()
    for mask in RANK_MASKS:
        cards = [1 << i for i in range(52) if (hand & mask) >> i & 1]
        for k in range(1, len(cards) + 1):
            for combo in combinations(cards, k):
                out.add(sum(combo))
    return out


def _where(feature: str) -> bool:
    """Is it a feature of the position (when a rule applies: a lead, the rank on the table)?"""
    return feature in ("lead", "follow") or feature.startswith("on ")


def _contexts(sides: Sequence[tuple[list[frozenset[str]], list[frozenset[str]]]]) -> set[frozenset[str]]:
    """Every context of up to `MAX_FEATURES` features of a differing play, one of them where it is
    played (a context of the play alone describes what one rule affects, not when a second one applies)."""
    seen: set[frozenset[str]] = set()
    for f in {f for differ, _ in sides for f in differ}:
        for k in range(1, MAX_FEATURES + 1):
            seen.update(frozenset(p) for p in combinations(sorted(f), k) if any(map(_where, p)))
    return seen


def _best(sides: Sequence[tuple[list[frozenset[str]], list[frozenset[str]]]], where: Sequence[tuple[int, int]]
          ) -> tuple[frozenset[str], set[int]] | None:
    """The context matching a differing play at the most steps and no agreed play (fewest features,
    then by name, on a tie), with the steps it covers. `where`: each step's (trace, trick): the
    evidence of a context is counted in distinct tricks of at least two games (one game asks about
    the same hand many times)."""
    agreed = list({f for _, agree in sides for f in agree})
    differing = sum(len(differ) for differ, _ in sides)
    rate = differing / (differing + sum(len(agree) for _, agree in sides))
    best: tuple[int, int, str, frozenset[str], set[int]] | None = None
    for ctx in _contexts(sides):
        if any(ctx <= f for f in agreed):
            continue
        cover = {i for i, (differ, _) in enumerate(sides) if any(ctx <= f for f in differ)}
        if len({where[i][0] for i in cover}) < 2 or rate ** len({where[i] for i in cover}) > CHANCE:
            continue  # in so few games or tricks that its plays all differing could be chance
        rank = (-len(cover), len(ctx), " & ".join(sorted(ctx)))
        if best is None or rank < best[:3]:
            best = (*rank, ctx, cover)
    return (best[3], best[4]) if best is not None else None


def split_by_context(divs: list[Divergent], differs: str) -> list[Part]:
    """The group's steps split into causes by the contexts that explain them away (see the module
    docstring); one part when no context sets a cause apart. Contexts are found among the steps the
    baseline kept whole (`baseline.KEEP_WHOLE` of each group, with their position and replies); every
    step, light ones too, is then placed by the features of its differing plays (`Divergent.places`)."""
    whole = [d for d in divs if d.whole]
    step = max(1, len(whole) // MAX_STEPS)  # a sample over the whole steps, not the first ones only
    looked = [(d, _sides(d, d.actual, differs)) for d in whole[::step][:MAX_STEPS]]
    known = [(d, s) for d, s in looked if s is not None]
    if len(known) < 2 * LEAST_STEPS:
        return [Part(divs)]
    found_contexts: list[frozenset[str]] = []
    left = known
    for _ in range(MAX_SPLITS):
        found = _best([s for _, s in left], [(d.key[0], d.before.trick if d.before is not None else 0)
                                             for d, _ in left])
        if found is None:
            break
        ctx, cover = found
        least = max(LEAST_STEPS, LEAST_SHARE * len(known))
        if found_contexts and len(cover) >= least and len(left) - len(cover) < max(LEAST_STEPS, (1 - WHOLE) * len(left)):
            found_contexts.append(ctx)  # what is left is one cause: it is named by its context
            break
        if len(cover) >= WHOLE * len(left) or len(cover) < least or len(left) - len(cover) < LEAST_STEPS:
            break
        found_contexts.append(ctx)
        left = [x for i, x in enumerate(left) if i not in cover]
    if not found_contexts:
        return [Part(divs)]
    # every step goes to the first context matching one of its differing plays (`Divergent.places`,
    # found for every step as the baseline counted it, light ones too)
    parts = [Part([], " & ".join(sorted(ctx))) for ctx in found_contexts]
    rest = Part([], "other positions")
    for d in divs:
        places = d.places if d.places is not None else differing(d, differs)
        home = next((parts[i] for i, ctx in enumerate(found_contexts) if any(ctx <= f for f in places)), rest)
        home.divs.append(d)
    return [p for p in parts if p.divs] + ([rest] if rest.divs else [])


def causes_of(divs: list[Divergent], explained: set[Key], differs: str,
              fitted_label: str = "") -> list[Part]:
    """The causes behind one group of divergent steps: the part the fitted variant explains, then
    the rest split by context (each part its own deviation)."""
    mine = [d for d in divs if d.key in explained]
    rest = [d for d in divs if d.key not in explained]
    out = [Part(mine, "", True)] if mine else []
    if rest:
        parts = split_by_context(rest, differs)
        if mine:
            where = f"not explained by {fitted_label}" if fitted_label else "not explained by the fitted variant"
            for p in parts:
                p.context = f"{where}; {p.context}" if p.context else where
        out += parts
    return out
