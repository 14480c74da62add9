"""Seeded deals: a seed belongs to the engine, so its deal is compared by the rule observables.

An engine that deals from a seed shuffles as it likes. Its deal is right when the hands are a
partition of the deck the config asks for (`setup.players`: every card dealt once), the hand
sizes per seat are those of a deal one card at a time from seat 0 (`setup.dealing`), and the
rest of STATE (who leads, the phase, the exchange that follows a later deal) is what the
reference has with the engine's own hands. The cards themselves are compared only for an engine
that declares the spec's own shuffle (`hello.options.shuffle = "spec"`, docs/protocol.md).
After a seeded deal the reference adopts the engine's hands and goes on (`diagnose.check_seeded`
compares a seeded deal).
"""
from __future__ import annotations

from typing import Any

SPEC_SHUFFLE = "spec"


def declares_spec_shuffle(options: dict[str, Any] | None) -> bool:
    """Does the engine deal a seed exactly as the spec does (`hello.options.shuffle = "spec"`)?"""
    return (options or {}).get("shuffle") == SPEC_SHUFFLE


def is_seeded(req: dict[str, Any]) -> bool:
    """A request whose cards the engine deals itself: `new_game` with a seed, `deal` without hands."""
    cmd = req.get("cmd")
    return "hands" not in req and ((cmd == "new_game" and "seed" in req) or cmd == "deal")


def round_robin(deck_cards: list[str], players: int) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(deck_cards):
        hands[i % players].append(card)
    return hands
