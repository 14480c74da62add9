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

from .cards import card_list, parse_cards
from .engine import Config, GameState, Phase, Ruleset
from ..errors import CardError, PresidentError

_PHASES = {"play": Phase.PLAY, "deal_over": Phase.DEAL_OVER, "game_over": Phase.GAME_OVER,
           "exchange": Phase.EXCHANGE}


@lru_cache(maxsize=1)
def reference_rules() -> Ruleset:
    """The shipped spec's rules, built once (about 40 ms)."""
    return Ruleset.from_spec()


class PositionError(PresidentError, ValueError):
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


class BadPosition(PositionError):
    """A `new_game.position` refused: `field` names what is wrong (`position.to_act`, `hands[2]`...)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


#: The fields of a `new_game.position` (docs/protocol.md); the hands are the request's own.
POSITION_FIELDS = ("to_act", "trick", "passed", "finished", "order", "scores", "deal", "phase")
#: Scores stay integers a JSON reader of any language reads exactly.
MAX_SCORE = 2 ** 53 - 1


def _int(value: Any, field: str, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadPosition(field, f"must be {what}, got {_show(value)}")
    if not low <= value <= high:
        raise BadPosition(field, f"must be {what} ({low} to {high}), got {value}")
    return value


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _seats(value: Any, field: str, n: int) -> list[int]:
    if not isinstance(value, list):
        raise BadPosition(field, f"must be a list of seats, got {_show(value)}")
    seats = [_int(s, f"{field}[{i}]", 0, n - 1, "a seat") for i, s in enumerate(value)]
    if len(set(seats)) != len(seats):
        raise BadPosition(field, f"lists a seat twice: {seats}")
    return seats


def _card_mask(value: Any, field: str, deck: int) -> int:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadPosition(field, f"must be a list of card strings like \"10H\", got {_show(value)}")
    try:
        mask = parse_cards(value)
    except CardError as exc:
        raise BadPosition(field, str(exc)) from None
    if mask & ~deck:
        raise BadPosition(field, f"card {card_list(mask & ~deck)[0]} is not in this table's deck")
    return mask


def position_game(rules: Ruleset, config: Config, hands: list[int], position: Any) -> GameState:
    """Deal `deal` (1 by default) of a game with `config`, at the point of play `position` gives, with
    these hands (the seats that have finished hold none). Every field is checked for its type, its
    range and its consistency with the deck and the table; anything else raises `BadPosition`."""
    n, deck = config.players, config.deck
    if not isinstance(position, dict):
        raise BadPosition("position", f"must be an object with at least \"to_act\", got {_show(position)}")
    for key in position:
        if key not in POSITION_FIELDS:
            raise BadPosition(f"position.{str(key)[:40]}", "unknown field; a position has "
                              + ", ".join(POSITION_FIELDS) + " (the hands are the request's)")
    if position.get("phase", "play") != "play":
        raise BadPosition("position.phase", f"a position is a point of play: \"play\", got {_show(position['phase'])}")
    deal = _int(position.get("deal", 1), "position.deal", 1, config.deals, "a deal number of this game")
    if len(hands) != n:
        raise BadPosition("hands", f"{n} players need {n} hands, got {len(hands)}")
    seen = 0
    for seat, h in enumerate(hands):
        if h & ~deck:
            raise BadPosition(f"hands[{seat}]", f"card {card_list(h & ~deck)[0]} is not in this table's deck")
        if seen & h:
            raise BadPosition(f"hands[{seat}]", f"card {card_list(seen & h)[0]} is in two hands")
        seen |= h
    finished = _seats(position.get("finished", []), "position.finished", n)
    if len(finished) > n - 2:
        raise BadPosition("position.finished", f"{len(finished)} of {n} seats finished: the deal would be over")
    for seat, h in enumerate(hands):
        if seat in finished and h:
            raise BadPosition(f"hands[{seat}]", f"seat {seat} has finished (position.finished) but holds cards")
        if seat not in finished and not h:
            raise BadPosition(f"hands[{seat}]", f"seat {seat} holds no card but is not in position.finished")
    if "to_act" not in position:
        raise BadPosition("position.to_act", "is required: the seat to act")
    to_act = _int(position["to_act"], "position.to_act", 0, n - 1, "a seat")
    if to_act in finished:
        raise BadPosition("position.to_act", f"seat {to_act} has finished this deal")
    order = position.get("order", "normal")
    if order not in ("normal", "reversed"):
        raise BadPosition("position.order", f"must be \"normal\" or \"reversed\", got {_show(order)}")
    if order == "reversed" and not config.revolution:
        raise BadPosition("position.order", "is reversed, but this table plays without revolution")
    trick, by = _trick(rules, config, position.get("trick"), seen, to_act)
    passed = _seats(position.get("passed", []), "position.passed", n)
    for seat in passed:
        if seat in finished or seat == to_act or seat == by:
            why = ("has finished" if seat in finished else "is to act" if seat == to_act else "played the trick")
            raise BadPosition("position.passed", f"seat {seat} {why}: it cannot have passed")
    if passed and not trick and not config.leader_may_pass:
        raise BadPosition("position.passed", "seats passed on an empty table, which only leader_may_pass allows")
    scores = position.get("scores", [0] * n)
    if not isinstance(scores, list) or len(scores) != n:
        raise BadPosition("position.scores", f"must be a list of {n} integers, got {_show(scores)}")
    scores = [_int(s, f"position.scores[{i}]", -MAX_SCORE, MAX_SCORE, "an integer") for i, s in enumerate(scores)]
    g = GameState.__new__(GameState)
    g.rules, g.config, g.n, g.rng = rules, config, n, None
    g.hands, g.phase, g.deal, g.scores, g.finished = list(hands), Phase.PLAY, deal, scores, finished
    g.history, g.exchanges, g.pending, g.last_ranking = [], [], [], []
    g._legal, g.must = None, 0
    g.to_act, g.reversed, g.trick, g.trick_by = to_act, order == "reversed", trick, by
    g.passed = sum(1 << s for s in passed)
    return g


def _trick(rules: Ruleset, config: Config, value: Any, held: int, to_act: int) -> tuple[int, int | None]:
    """(cards, by) of a position's trick: a play the table allows, of cards no hand holds."""
    if value is None:
        return 0, None
    if not isinstance(value, dict) or set(value) != {"cards", "by"}:
        raise BadPosition("position.trick", f"must be null or {{\"cards\": [...], \"by\": seat}}, got {_show(value)}")
    n = config.players
    by = _int(value["by"], "position.trick.by", 0, n - 1, "a seat")
    cards = _card_mask(value["cards"], "position.trick.cards", config.deck)
    if not cards:
        raise BadPosition("position.trick.cards", "an empty trick is null, not a trick of no card")
    if cards & held:
        raise BadPosition("position.trick.cards", f"card {card_list(cards & held)[0]} is also in a hand")
    if by == to_act:
        raise BadPosition("position.trick.by", f"seat {by} played the trick and is to act: every other seat "
                          "would have passed, and the trick would be over")
    lead = GameState.__new__(GameState)  # could `by` lead these cards on an empty table of this config?
    lead.rules, lead.config, lead.n, lead.phase, lead.to_act = rules, config, n, Phase.PLAY, by
    lead.hands = [0] * n
    lead.hands[by] = cards
    lead.trick, lead.trick_by, lead.passed, lead.reversed, lead.must = 0, None, 0, False, 0
    why = lead.check(by, cards)
    if why is not None:
        raise BadPosition("position.trick.cards", f"{' '.join(card_list(cards))} is not a play: {why.message}")
    return cards, by
