"""Positions: a game of the reference engine set up from a STATE (like FEN in chess).

`game_from_state` builds the reference's `GameState` from a protocol STATE (hands, seat to act,
trick, passes, finishing order, order, scores). Lock-step uses it to follow an engine whose
choice is legal under a house rule (the reference goes on from the engine's position), and the
`position` capability of `new_game` (docs/protocol.md) uses it to start a scenario mid-deal.
An exchange position needs the previous deal's ranking (`last_ranking`): the give-backs still
due are those the ranking imposes, from the seat to act on (the forced gives were made at the deal).
"""
from __future__ import annotations

from dataclasses import replace
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


class Unfollowable(PositionError):
    """A STATE no play of the rules reaches: the reference cannot follow an engine there.
    `clause` names the rule whose invariant it breaks, `message` says how (with the STATE's values)."""

    def __init__(self, clause: str, message: str):
        self.clause, self.message = clause, message
        super().__init__(f"{message}: {clause}")


def game_from_state(rules: Ruleset, config: Config, state: Any, last_ranking: list[int] | None = None,
                    deal: int | None = None) -> GameState:
    """A reference game at the position `state` describes (phase play, exchange with the previous
    deal's `last_ranking`, deal_over or game_over), after checking that the rules can reach it:
    the validator of `new_game.position` (`position_game`) for a point of play, its trick one
    combination and its passes ones the spec's options can allow (`widest`: a run, a leader's pass,
    even at a table without that house rule), and for every phase the invariants of a state the
    rules reach. `deal`: the deal number the caller knows
    (the reference's own count), in place of the STATE's. Raises `Unfollowable` (a `PositionError`)
    naming the clause whose invariant the STATE breaks."""
    if not isinstance(state, dict):
        raise Unfollowable("protocol", f"STATE must be an object, got {_show(state)}")
    phase = _PHASES.get(state.get("phase", ""))
    if phase is None:
        raise Unfollowable("protocol", f"cannot set up a position in phase {_show(state.get('phase'))}")
    n = config.players
    hands = _hands(state.get("hands"), n, config.deck)
    number = deal if deal is not None else state.get("deal", 1)
    number = _int_or(number, "game.end", "deal", 1, config.deals)
    scores = state.get("scores", [0] * n)
    if not isinstance(scores, list) or len(scores) != n or not all(
            isinstance(s, int) and not isinstance(s, bool) and abs(s) <= MAX_SCORE for s in scores):
        raise Unfollowable("score.points", f"scores must be {n} integers, got {_show(scores)}")
    if phase == Phase.PLAY:
        return _play_position(rules, config, hands, state, number, scores, last_ranking)
    g = GameState.__new__(GameState)
    g.rules, g.config, g.n, g.rng = rules, config, n, None
    g.hands, g.phase, g.deal, g.scores = hands, phase, number, list(scores)
    g.history, g.exchanges, g.pending = [], [], []
    g._legal, g.must = None, 0
    g.reversed, g.trick, g.trick_by, g.passed = False, 0, None, 0
    if phase == Phase.EXCHANGE:
        if number < 2:
            raise Unfollowable("exchange.order", "an exchange in the first deal: the exchange follows a deal with a ranking")
        if not all(hands):
            raise Unfollowable("setup.partial-hands", f"seat {hands.index(0)} holds no card in the exchange: a deal "
                               "gives every seat cards")
        if not last_ranking or sorted(last_ranking) != list(range(n)):
            raise Unfollowable("exchange.order", "an exchange position needs the previous deal's ranking")
        g.to_act, g.finished, g.last_ranking = state.get("to_act"), [], list(last_ranking)
        pending = [(r, gv, k, rule) for gv, r, k, rule in g._forced_gives() if k > 0]
        while pending and pending[0][0] != g.to_act:
            pending.pop(0)
        if not pending:
            raise Unfollowable("exchange.order", f"seat {_show(g.to_act)} is to act in the exchange, but has no card "
                               f"to give back after ranking {last_ranking}")
        if any(hands[c].bit_count() <= k for c, _r, k, _rule in pending):  # it received as many before
            raise Unfollowable("exchange.order", "a seat to give back holds no more cards than it must give")
        g.pending = pending
        return g
    finished = state.get("finished")  # the deal is over: every seat ranked, the last one alone holds cards
    if not isinstance(finished, list) or sorted(f for f in finished if isinstance(f, int)) != list(range(n)) \
            or any(isinstance(f, bool) for f in finished):
        raise Unfollowable("deal.end", f"the deal is over but finished {_show(finished)} does not rank every seat "
                           f"once")
    holding = [s for s in range(n) if hands[s]]
    if any(s != finished[-1] for s in holding):
        raise Unfollowable("deal.end", f"the deal is over but seat {holding[0]} still holds cards and is not last")
    if (phase == Phase.GAME_OVER) != (number >= config.deals):
        raise Unfollowable("game.end", f"phase {state.get('phase')} after deal {number} of {config.deals}")
    g.to_act, g.finished, g.last_ranking = None, list(finished), list(finished)
    return g


def counted_passes(state: dict[str, Any], asked: bool = True) -> dict[str, Any] | None:
    """The point of play `state` with the passes a final pass can still count (pass.final): its
    `passed` without the seat to act (with `asked`), the trick's player and the seats that hold no
    card (each of them passed once, then was asked again). An engine whose passes are not final
    shows such a STATE (`passed` as every pass since the trick was reset); the reference follows it
    as if the earlier pass of the seat asked again no longer counted. None when nothing is to drop."""
    passed = state.get("passed")
    if state.get("phase") != "play" or not isinstance(passed, list):
        return None
    trick, hands = state.get("trick"), state.get("hands")
    by = trick.get("by") if isinstance(trick, dict) else None
    out = {s for s, h in enumerate(hands) if not h} if isinstance(hands, list) else set()
    again = {s for s in ((state.get("to_act"), by) if asked else (by,)) if isinstance(s, int) and not isinstance(s, bool)}
    kept = [s for s in passed if isinstance(s, bool) or s not in again | out]
    return None if kept == passed else {**state, "passed": kept}


def _play_position(rules: Ruleset, config: Config, hands: list[int], state: dict[str, Any], deal: int,
                   scores: list[int], last_ranking: list[int] | None) -> GameState:
    n = config.players
    finished = state.get("finished") or []
    to_act = state.get("to_act")
    if isinstance(to_act, int) and not isinstance(to_act, bool) and 0 <= to_act < n and not hands[to_act]:
        trick = state.get("trick")
        clause = "flow.out" if trick else "lead.next-active"
        raise Unfollowable(clause, f"seat {to_act} is to act but has finished")
    position = {"to_act": to_act, "trick": state.get("trick"), "passed": state.get("passed") or [],
                "finished": finished, "order": state.get("order", "normal"), "scores": scores, "deal": deal}
    try:
        g = position_game(rules, config, hands, position, widest(rules, config))
    except BadPosition as exc:
        raise Unfollowable(exc.rule or _FIELD_CLAUSE.get(exc.field.split("[")[0], "flow.follow"),
                           str(exc)) from None
    g.last_ranking = list(last_ranking or [])
    return g


#: The clause whose invariant each field of a point of play embodies (`position_game`'s fields).
_FIELD_CLAUSE = {"hands": "flow.out", "position.finished": "deal.end", "position.to_act": "turn.order",
                 "position.order": "revolution.option-off", "position.trick": "trick.end",
                 "position.trick.by": "trick.end", "position.trick.cards": "play.own-cards",
                 "position.passed": "pass.final", "position.scores": "score.points", "position.deal": "game.end"}


def _int_or(value: Any, clause: str, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Unfollowable(clause, f"{what} must be {low} to {high}, got {_show(value)}")
    return value


def _hands(value: Any, n: int, deck: int) -> list[int]:
    """The hands of a STATE as masks: n lists of distinct cards of this table's deck."""
    if not isinstance(value, list) or len(value) != n:
        raise Unfollowable("setup.players", f"{n} players need {n} hands, got {_show(value)}")
    out, seen = [], 0
    for seat, h in enumerate(value):
        if not isinstance(h, list) or not all(isinstance(c, str) for c in h):
            raise Unfollowable("protocol", f"hands[{seat}] must be a list of cards, got {_show(h)}")
        try:
            mask = parse_cards(h)
        except CardError as exc:
            raise Unfollowable("protocol", f"hands[{seat}]: {exc}") from None
        if mask.bit_count() != len(h) or seen & mask:
            raise Unfollowable("play.own-cards", f"a card of hands[{seat}] {_show(h)} is held twice")
        if mask & ~deck:
            raise Unfollowable("setup.players", f"card {card_list(mask & ~deck)[0]} is not in this table's deck")
        seen |= mask
        out.append(mask)
    return out


class BadPosition(PositionError):
    """A `new_game.position` refused: `field` names what is wrong (`position.to_act`, `hands[2]`...)."""

    def __init__(self, field: str, message: str, rule: str = ""):
        self.field, self.rule = field, rule  # rule: the clause a trick that is no play breaks
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


def widest(rules: Ruleset, config: Config) -> Config:
    """The table with every combination and pass the spec's options can allow switched on (runs,
    a leader's pass): what the spec can hold at this table, whatever its house rules."""
    names = {o.name for o in rules.spec.options}
    wide: dict[str, Any] = {k: True for k in ("sequences", "leader_may_pass") if k in names}
    return replace(config, **wide) if wide else config


def position_game(rules: Ruleset, config: Config, hands: list[int], position: Any,
                  allows: Config | None = None) -> GameState:
    """Deal `deal` (1 by default) of a game with `config`, at the point of play `position` gives, with
    these hands (the seats that have finished hold none). Every field is checked for its type, its
    range and its consistency with the deck and the table; anything else raises `BadPosition`.
    `allows`: the table whose plays and passes the trick may hold (default: `config`'s own)."""
    n, deck = config.players, config.deck
    allows = allows or config
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
    trick, by = _trick(rules, config, position.get("trick"), seen, to_act, allows)
    passed = _seats(position.get("passed", []), "position.passed", n)
    for seat in passed:
        if seat in finished or seat == to_act or seat == by:
            why = ("has finished" if seat in finished else "is to act" if seat == to_act else "played the trick")
            raise BadPosition("position.passed", f"seat {seat} {why}: it cannot have passed")
    if passed and not trick and not allows.leader_may_pass:
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


def _trick(rules: Ruleset, config: Config, value: Any, held: int, to_act: int,
           allows: Config | None = None) -> tuple[int, int | None]:
    """(cards, by) of a position's trick: a play the table (`allows`) allows, of cards no hand holds."""
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
        raise BadPosition("position.trick.cards", f"card {card_list(cards & held)[0]} is also in a hand",
                          "play.own-cards")
    if by == to_act:
        raise BadPosition("position.trick.by", f"seat {by} played the trick and is to act: every other seat "
                          "would have passed, and the trick would be over")
    if _lead_check(rules, allows or config, by, cards) is not None:
        why = _lead_check(rules, config, by, cards)  # named by the table's own rule
        assert why is not None
        raise BadPosition("position.trick.cards", f"{' '.join(card_list(cards))} is not a play: {why.message}",
                          why.rule)
    return cards, by


def _lead_check(rules: Ruleset, config: Config, by: int, cards: int) -> Any:
    """Why `by` could not lead these cards on an empty table of `config` (None: it could)."""
    lead = GameState.__new__(GameState)
    lead.rules, lead.config, lead.n, lead.phase, lead.to_act = rules, config, config.players, Phase.PLAY, by
    lead.hands = [0] * config.players
    lead.hands[by] = cards
    lead.trick, lead.trick_by, lead.passed, lead.reversed, lead.must = 0, None, 0, False, 0
    return lead.check(by, cards)
