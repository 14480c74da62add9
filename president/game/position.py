"""Positions: a game of the reference engine set up from a STATE (like FEN in chess).

`game_from_state` builds the reference's `GameState` from a protocol STATE (hands, seat to act,
trick, passes, finishing order, order, scores). Lock-step uses it to follow an engine whose
choice is legal under a house rule (the reference goes on from the engine's position), and the
`position` capability of `new_game` (docs/protocol.md) uses it to start a scenario mid-deal.
An exchange position needs the previous deal's ranking (`last_ranking`): the give-backs still
due are those the ranking imposes, from the seat to act on (the forced gives were made at the deal).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import parse_cards
from .engine import Config, GameState, Phase, Ruleset

_PHASES = {"play": Phase.PLAY, "deal_over": Phase.DEAL_OVER, "game_over": Phase.GAME_OVER,
           "exchange": Phase.EXCHANGE}


@lru_cache(maxsize=1)
def reference_rules() -> Ruleset:
    """The shipped spec's rules, built once (about 40 ms)."""
    return Ruleset.from_spec()


class PositionError(ValueError):
    """A STATE that cannot be set up as a reference position."""


def game_from_state(rules: Ruleset, config: Config, state: dict[str, Any],
                    last_ranking: list[int] | None = None) -> GameState:
    """A reference game at the position `state` describes (phase play, exchange with the previous
    deal's `last_ranking`, deal_over or game_over)."""
    phase = _PHASES.get(state.get("phase"))
    if phase is None:
        raise PositionError(f"cannot set up a position in phase {state.get('phase')!r}")
    n = config.players
    hands = [parse_cards(h) for h in state["hands"]]
    if len(hands) != n:
        raise PositionError(f"{n} players need {n} hands, got {len(hands)}")
    g = GameState.__new__(GameState)
    g.rules, g.config, g.n, g.rng = rules, config, n, None
    g.hands = hands
    g.phase, g.deal = phase, int(state.get("deal") or 1)
    g.scores = list(state.get("scores") or [0] * n)
    g.finished = list(state.get("finished") or [])
    g.history, g.exchanges, g.pending = [], [], []
    g._legal = None
    g.must = 0  # a position: no first-lead card is still due (option.first-lead.holder)
    if phase == Phase.EXCHANGE:
        if not last_ranking or len(last_ranking) != n:
            raise PositionError("an exchange position needs the previous deal's ranking")
        g.to_act, g.reversed, g.trick, g.trick_by, g.passed = state.get("to_act"), False, 0, None, 0
        g.finished, g.last_ranking = [], list(last_ranking)
        pending = [(r, gv, k, rule) for gv, r, k, rule in g._forced_gives() if k > 0]
        while pending and pending[0][0] != g.to_act:
            pending.pop(0)
        if not pending:
            raise PositionError(f"seat {g.to_act!r} has no card to give back after ranking {last_ranking}")
        g.pending = pending
    elif phase == Phase.PLAY:
        trick = state.get("trick")
        g.to_act = state.get("to_act")
        g.reversed = state.get("order") == "reversed"
        g.trick = parse_cards(trick["cards"]) if trick else 0
        g.trick_by = trick["by"] if trick else None
        g.passed = sum(1 << s for s in state.get("passed") or [])
        g.last_ranking = list(last_ranking or [])
    else:  # the deal is over: the table is clear, the ranking decides the next exchange
        g.to_act, g.reversed, g.trick, g.trick_by, g.passed = None, False, 0, None, 0
        g.last_ranking = list(g.finished)
    return g
