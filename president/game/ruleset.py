"""The frozen rules of one spec (`Ruleset`) and one table's options (`Config`).

`Ruleset.from_spec` reads every field the engine plays and refuses a spec value it cannot play;
`Ruleset.config` checks a table configuration (players and the options, by their protocol names)
and refuses an unknown option or a value the spec gives no clause. Re-exported by `president.game.engine`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from .cards import CARD_NAMES, DECK_SIZE, NUM_RANKS, RANK_SYMBOLS, SUBSETS, SUIT_SYMBOLS, CardMask, card_index
from ..errors import CardError, IllegalAction, Problem, SpecError
from ..spec import HOLDER_PATTERN, JOKER_CODES, Option, Spec, default_spec


@dataclass(frozen=True)
class Ruleset:
    """The rules of one spec, built once. Immutable and shared by every game."""

    spec: Spec
    min_players: int
    max_players: int
    min_cards: int
    max_cards: int
    revolution_cards: int
    revolution_default: bool
    revolution_locked: bool
    deals_default: int
    deals_min: int
    exchanges: tuple[tuple[int, int, int, int], ...]  # (giver place, receiver place, cards, min players)
    min_run: int = 3
    #: the table options of the spec (name -> Option), every one of them playable by this engine
    options: tuple[tuple[str, Option], ...] = ()
    #: lead_table[rank][nibble]: every play of min..max cards from those cards, fewer cards first.
    lead_table: tuple[tuple[tuple[int, ...], ...], ...] = ()

    def __post_init__(self) -> None:
        table = tuple(tuple(tuple(m for k in range(self.min_cards, self.max_cards + 1) for m in SUBSETS[r][nib][k])
                            for nib in range(16)) for r in range(NUM_RANKS))
        object.__setattr__(self, "lead_table", table)

    @classmethod
    def from_spec(cls, spec: Spec | None = None) -> "Ruleset":
        spec = spec or default_spec()
        if spec.deck.ranks != RANK_SYMBOLS or spec.deck.suits != SUIT_SYMBOLS:
            raise SpecError([Problem(spec.path, None, "deck", "the reference engine plays the 52-card deck "
                                     f"{' '.join(RANK_SYMBOLS)} × {' '.join(SUIT_SYMBOLS)} only",
                                     "keep deck.ranks and deck.suits as shipped")])
        problems = [Problem(spec.path, None, f"options.{o.name}", msg, "remove it or keep the values shipped")
                    for o in spec.options for msg in _unplayable(o)]
        if problems:
            raise SpecError(problems)
        rev = spec.option("revolution")
        deals = spec.option("deals")
        return cls(spec=spec, min_players=spec.players.min, max_players=spec.players.max,
                   min_cards=spec.combinations.min_cards, max_cards=spec.combinations.max_cards,
                   revolution_cards=spec.revolution_cards, revolution_default=bool(rev.default),
                   revolution_locked=rev.locked, deals_default=int(deals.default), deals_min=deals.min or 1,
                   exchanges=tuple((e.giver, e.receiver, e.cards, e.min_players) for e in spec.exchange),
                   min_run=spec.combinations.min_run, options=tuple((o.name, o) for o in spec.options))

    def option(self, name: str) -> Option:
        return dict(self.options)[name]

    def supported(self) -> dict[str, Any]:
        """Every value of every option this engine plays under this spec (`hello.options`);
        `deals` is True (any count from its minimum)."""
        out: dict[str, Any] = {}
        for name, opt in self.options:
            if opt.clause is not None:
                out[name] = True
                continue
            values: list[Any] = []
            for v in opt.values:
                values += [f"holder:{c}" for c in CARD_NAMES[:DECK_SIZE]] if v.value == HOLDER_PATTERN else [v.value]
            out[name] = values
        return out

    def points(self, place: int, n: int, scheme: str = "places") -> int:
        return self.spec.scoring.points(place, n, scheme)

    def config(self, players: int, revolution: bool | None = None, deals: int | None = None,
               **options: Any) -> "Config":
        """Check a table configuration against the spec; raise IllegalAction if it is not allowed.
        An option the spec does not define, or a value it gives no clause, is refused."""
        if not isinstance(players, int) or isinstance(players, bool) or not (
                self.min_players <= players <= self.max_players):
            raise IllegalAction("bad_config", "setup.players",
                                f"players must be {self.min_players} to {self.max_players}, got {players!r}")
        known = dict(self.options)
        for name in options:
            if name not in known:
                raise IllegalAction("unknown_option", None, f"unknown option {name!r}; known: players, "
                                    + ", ".join(known))
        values: dict[str, Any] = {}
        for name, opt in self.options:
            v = {"revolution": revolution, "deals": deals}.get(name, options.get(name))
            v = opt.default if v is None else v
            if opt.value_clause(v) is None or (opt.type == "int" and not isinstance(v, int)) or (
                    opt.type == "choice" and v != "seat0" and name == "first_lead" and _holder(v) is None):
                raise IllegalAction("bad_config", opt.clauses()[-1], _bad_value(opt, v))
            values[name] = v
        return Config(players, **values)


def _bad_value(opt: Option, v: Any) -> str:
    if opt.clause is not None:
        return f"{opt.name} must be an integer >= {opt.min or 0}, got {v!r}"
    allowed = ", ".join(json.dumps(x.value) for x in opt.values)
    return f"{opt.name} must be one of {allowed} (the values the spec defines), got {json.dumps(v)}"


#: What this engine plays: option name -> predicate on a spec value (HOLDER_PATTERN included).
_PLAYABLE: dict[str, Any] = {
    "revolution": lambda v: isinstance(v, bool), "equality": lambda v: isinstance(v, bool),
    "sequences": lambda v: isinstance(v, bool), "leader_may_pass": lambda v: isinstance(v, bool),
    "jokers": lambda v: v in range(len(JOKER_CODES) + 1) and not isinstance(v, bool),
    "first_lead": lambda v: v in ("seat0", HOLDER_PATTERN),
    "scoring": lambda v: v in ("places", "president_only", "none"),
}


def _unplayable(opt: Option) -> list[str]:
    if opt.name == "deals":
        return [] if opt.clause is not None and opt.type == "int" else ["deals is an int option with one clause"]
    ok = _PLAYABLE.get(opt.name)
    if ok is None:
        return [f"the reference engine does not know the option {opt.name!r}"]
    return [f"the reference engine cannot play {opt.name} = {v.value!r}" for v in opt.values if not ok(v.value)] + (
        [f"{opt.name} needs one clause per value"] if opt.clause is not None else [])


def _holder(value: Any) -> int | None:
    """The card of a "holder:<card>" value (a natural card), or None."""
    if not isinstance(value, str) or not value.startswith("holder:"):
        return None
    try:
        c = card_index(value[7:])
    except CardError:
        return None
    return c if c < DECK_SIZE else None


@dataclass(frozen=True)
class Config:
    """One table's options; every value checked by `Ruleset.config`."""

    players: int
    revolution: bool
    deals: int
    equality: bool = False
    sequences: bool = False
    jokers: int = 0
    first_lead: str = "seat0"
    leader_may_pass: bool = False
    scoring: str = "places"

    @property
    def holder(self) -> int | None:
        """The card whose holder leads the first deal (option.first-lead.holder), or None."""
        return _holder(self.first_lead)

    #: True when the plays are those of 1.1.0 (one-rank nibbles, the leader must play)
    plain: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plain", not (self.equality or self.sequences or self.jokers
                                               or self.leader_may_pass))

    @property
    def deck(self) -> CardMask:
        return (1 << DECK_SIZE) - 1 | sum(1 << (DECK_SIZE + i) for i in range(self.jokers))

    def options(self) -> dict[str, Any]:
        """The options as `new_game.config` spells them (players apart)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("players", "plain")}
