"""Seeded deals: a seed belongs to the engine, so its deal is compared by the rule observables.

An engine that deals from a seed shuffles as it likes. Its deal is right when the hands are a
partition of the deck the config asks for (`setup.players`: every card dealt once), the hand
sizes per seat are those of a deal one card at a time from seat 0 (`setup.dealing`), and the
rest of STATE (who leads, the phase, the exchange that follows a later deal) is what the
reference has with the engine's own hands. The cards themselves are compared only for an engine
that declares the spec's own shuffle (`hello.options.shuffle = "spec"`, docs/protocol.md).
After a seeded deal the reference adopts the engine's hands and goes on.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..game.cards import card_list
from ..game.engine import Ruleset
from ..game.position import PositionError, game_from_state
from ..protocol.server import Session
from ..scenarios.model import canonical_state
from .diagnose import Finding, diverge

SPEC_SHUFFLE = "spec"


def declares_spec_shuffle(options: dict[str, Any] | None) -> bool:
    """Does the engine deal a seed exactly as the spec does (`hello.options.shuffle = "spec"`)?"""
    return (options or {}).get("shuffle") == SPEC_SHUFFLE


def is_seeded(req: dict[str, Any]) -> bool:
    """A request whose cards the engine deals itself: `new_game` with a seed, `deal` without hands."""
    cmd = req.get("cmd")
    return "hands" not in req and ((cmd == "new_game" and "seed" in req) or cmd == "deal")


def _round_robin(deck_cards: list[str], players: int) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(deck_cards):
        hands[i % players].append(card)
    return hands


def check_seeded(req: dict[str, Any], ref: Session, actual: Any, before: dict[str, Any] | None,
                 rules: Ruleset, last_ranking: list[int] | None = None
                 ) -> tuple[Finding | None, dict[str, Any], Session | None]:
    """Compare the engine's reply to a seeded deal by its observables.

    `ref` is the reference before the request (left unchanged); `actual` a reply with a boolean
    `ok` (its shape already checked). Returns the finding (None when the
    deal is right), the reference's reply to compare with (the engine's hands put in), and the
    reference that adopted the engine's deal (None when the engine refused or the reference did)."""
    if req.get("cmd") == "new_game":
        own = Session(rules)
        first = own.handle(req)  # the config as the reference reads it (or its refusal)
        if not first.get("ok"):
            return diverge(req, first, actual, before), first, None
        config = own.game.config  # type: ignore[union-attr]
    elif ref.game is None:
        first = Session(rules).handle(req)
        return diverge(req, first, actual, before), first, None
    else:
        config = ref.game.config
    deck = config.deck
    canon_req = {k: v for k, v in req.items() if k != "seed"}
    canon_req["hands"] = _round_robin(card_list(deck), config.players)
    canon = Session(rules)
    canon.game = ref.game.copy() if ref.game is not None and req.get("cmd") == "deal" else None
    expected = canon.handle(canon_req)
    if not expected.get("ok"):
        return diverge(req, expected, actual, before), expected, None
    if not actual.get("ok"):
        return diverge(req, expected, actual, before), expected, None
    state = actual["state"]
    hands = state.get("hands") or []
    got = Counter(c for h in hands for c in h)
    want = Counter(card_list(deck))
    if got != want:
        extra = sorted(set(got) - set(want)) + sorted(c for c, n in got.items() if n > 1)
        missing = sorted(set(want) - set(got))
        what = (f"{extra[0]!r} is dealt twice or is not in the deck" if extra
                else f"{missing[0]!r} is not dealt" if missing else "the hands are not the deck")
        return Finding("setup.players", f"after the seeded {req.get('cmd')}: {what} ({sum(got.values())} cards "
                       f"dealt, the deck has {sum(want.values())})"), expected, None
    sizes = [len(h) for h in hands]
    want_sizes = [len(h) for h in expected["state"]["hands"]]
    if sizes != want_sizes:
        # the deck is all dealt: sizes that differ are a deal from another seat (or, after the
        # exchange of a later deal, sizes moved from the seats the exchange moves them between)
        clause = "setup.dealing" if sorted(sizes) == sorted(want_sizes) or req.get("cmd") == "deal" else "setup.players"
        return Finding(clause, f"after the seeded {req.get('cmd')}: hand sizes are {sizes}, the reference deals "
                       f"{want_sizes}"), expected, None
    # the engine's own hands: what follows from them is compared like any reply
    adopted = Session(rules)
    if req.get("cmd") == "new_game":
        expected = adopted.handle(dict(canon_req, hands=[list(h) for h in hands]))
    else:
        expected = {**expected, "state": {**expected["state"], "hands": [list(h) for h in hands]}}
        try:
            adopted.game = game_from_state(rules, config, canonical_state(state),
                                           last_ranking if last_ranking is not None else ref.game.last_ranking)  # type: ignore[union-attr]
        except (PositionError, KeyError, TypeError, ValueError):
            adopted = None  # type: ignore[assignment]
    return diverge(req, expected, actual, before), expected, adopted
