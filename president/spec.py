"""Load and validate spec/president.yaml into typed, frozen dataclasses.

Raw YAML never leaves this module: everything downstream reads `Spec`.
A broken spec raises `SpecError` listing every problem with file, line and path.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import yaml

from .errors import Problem, SpecError
from .spectext import Counted, SpecText, SpecTextError, parse_spec_text  # noqa: F401  (Counted: re-exported)

def spec_text(text: str, data: dict[str, Any], path: str | None = None, line: int | None = None) -> SpecText:
    """The SpecText of a clause title or an example name (one truth for numbers: a title says what
    the spec says): `{players.max}` values and `{name=path|one|other}` counted phrases
    (president.spectext); SpecError with file and line if one names no spec value."""
    try:
        return parse_spec_text(text, data)
    except SpecTextError as exc:
        raise SpecError([Problem(path or "<spec>", line, "", str(exc), exc.hint)]) from None


from .resources import default_spec_path, schema_path


@dataclass(frozen=True)
class Deck:
    """The natural cards. Jokers ("X1", "X2") come from the option `jokers`, not from here."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits)


@dataclass(frozen=True)
class PlayerRange:
    min: int
    max: int

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.min <= n <= self.max


@dataclass(frozen=True)
class Combinations:
    min_cards: int
    max_cards: int
    same_rank: bool = True
    #: fewest cards of a run (option `sequences`)
    min_run: int = 3


#: Joker card codes on the wire, in order: the option jokers = k adds the first k.
JOKER_CODES: tuple[str, ...] = ("X1", "X2")
#: The one option value that is a pattern: "holder:<card>" stands for "holder:3C", "holder:4C"...
HOLDER_PATTERN = "holder:<card>"


@dataclass(frozen=True)
class OptionValue:
    value: bool | int | str  # HOLDER_PATTERN stands for every natural card
    clause: str


@dataclass(frozen=True)
class Option:
    """A table option: 1.1.0 default, lock as published, and the clause of each value."""

    name: str
    type: str  # "bool" | "int" | "choice"
    default: Any
    locked: bool
    min: int | None = None
    max: int | None = None
    #: one clause for every value (deals), or one clause per value
    clause: str | None = None
    values: tuple[OptionValue, ...] = ()

    def value_clause(self, value: Any) -> str | None:
        """The clause stating what `value` means, or None if the spec does not define it."""
        if self.clause is not None:
            top = self.max if self.max is not None else MAX_OPTION_INT
            return self.clause if _is_int(value) and (self.min or 0) <= value <= top else None
        for v in self.values:
            if _value_matches(v.value, value):
                return v.clause
        return None

    def clauses(self) -> tuple[str, ...]:
        """Every clause of this option, each once, in the spec's order."""
        out = [self.clause] if self.clause else [v.clause for v in self.values]
        return tuple(dict.fromkeys(out))


def _value_matches(listed: Any, value: Any) -> bool:
    """Whether `value` is the listed option value (HOLDER_PATTERN matches any "holder:..." text;
    the engine checks the card)."""
    if listed == HOLDER_PATTERN:
        return isinstance(value, str) and value.startswith("holder:")
    return type(listed) is type(value) and listed == value


#: The largest value of an int option without its own max (`deals`: a game of at most 1,000 deals).
MAX_OPTION_INT = 1000
#: `legal` never lists more actions than this (docs/protocol.md): a spec whose exchange could ask
#: for more (C(largest hand, cards)) is refused. Plays are far below it: 1,003 at most for a hand
#: of all 54 cards with every house rule on.
MAX_LEGAL_ACTIONS = 10_000


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class ExchangeRule:
    """Before each later deal, place `giver` (negative: from the end) gives its best `cards`
    to place `receiver`, who chooses as many to give back. Applies from `min_players` players."""

    giver: int
    receiver: int
    cards: int
    min_players: int

    def applies(self, n: int) -> bool:
        return n >= self.min_players


@dataclass(frozen=True)
class Scoring:
    """The points of scoring = "places"; the option `scoring` picks the scheme."""

    first: str
    step: int

    def points(self, place: int, n: int, scheme: str = "places") -> int:
        """Points for 1-based `place` among `n` players: n - place + 1 with the shipped data
        (option.scoring: 1 for first place only with "president_only", 0 with "none")."""
        if scheme == "president_only":
            return 1 if place == 1 else 0
        if scheme == "none":
            return 0
        return n - (place - 1) * self.step


def place_index(place: int, n: int) -> int:
    """0-based finishing index of a spec place among n players: 1 = first out, -1 = last."""
    return place - 1 if place > 0 else n + place


@dataclass(frozen=True)
class Title:
    place: int
    id: str
    name: str

    def index(self, n: int) -> int:
        """0-based finishing index this title applies to among n players."""
        return place_index(self.place, n)


@dataclass(frozen=True)
class AILevel:
    id: str
    clause: str
    decision_ms_p50: float | None = None
    decision_ms_p99: float | None = None


@dataclass(frozen=True)
class Section:
    id: str
    title: str


@dataclass(frozen=True)
class Expect:
    """Expected fields of the engine STATE (or other observable results) after a step."""

    fields: tuple[tuple[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return {k: _thaw(v) for k, v in self.fields}


@dataclass(frozen=True)
class Step:
    seat: int | None
    kind: str  # "play" | "pass" | "give" | "deal" | "ai"
    cards: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    refused: str | None = None
    ai: str | None = None
    expect: Expect | None = None


@dataclass(frozen=True)
class Example:
    """A small scenario: a game started from explicit `hands` (or shuffled with `seed` for
    `num_players`), then `steps`. `refused` names the clause that refuses the new game itself."""

    name: str
    hands: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]
    #: (option, value) pairs the example sets explicitly, in spec order; `deals` apart
    options: tuple[tuple[str, Any], ...] = ()
    deals: int | None = None
    expect: Expect | None = None
    line: int | None = None
    seed: int | None = None
    num_players: int | None = None
    refused: str | None = None
    #: the name with its spec numbers (president.spectext); None: `name` as written
    name_text: SpecText | None = field(default=None, compare=False)

    @property
    def players(self) -> int:
        return self.num_players if self.num_players is not None else len(self.hands)

    @property
    def revolution(self) -> bool | None:
        return dict(self.options).get("revolution")


@dataclass(frozen=True)
class Clause:
    id: str
    section: str
    title: str
    decision: bool = False
    testable: bool = True
    examples: tuple[Example, ...] = ()
    line: int | None = None
    #: Examples still to come from another owner (e.g. "ai"): coverage reports the gap apart.
    pending: str | None = None
    #: Table sizes its examples knowingly do not reach (president.project.sizes_check), and why.
    uncovered_sizes: tuple[int, ...] = ()
    uncovered_why: str = ""
    #: the title with its spec numbers (president.spectext): what the catalogs translate
    title_text: SpecText | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Spec:
    game: str
    variant: str
    id: str
    version: str
    deck: Deck
    players: PlayerRange
    combinations: Combinations
    options: tuple[Option, ...]
    revolution_cards: int
    exchange: tuple[ExchangeRule, ...]
    scoring: Scoring
    titles: tuple[Title, ...]
    ai_levels: tuple[AILevel, ...]
    sections: tuple[Section, ...]
    clauses: tuple[Clause, ...]
    path: str = field(default="", compare=False)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def clause(self, clause_id: str) -> Clause:
        for c in self.clauses:
            if c.id == clause_id:
                return c
        raise KeyError(clause_id)

    @property
    def clause_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clauses)

    def clauses_in(self, section: str) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if c.section == section)

class _FrozenMap(tuple):
    """A mapping frozen as a tuple of (key, value) pairs, thawed back into a dict."""

    __slots__ = ()


def _thaw(v: Any) -> Any:
    if isinstance(v, _FrozenMap):
        return {k: _thaw(x) for k, x in v}
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return _FrozenMap((k, _freeze(x)) for k, x in v.items())
    return v


# --- YAML with line numbers -------------------------------------------------------------

def _line_index(node: yaml.Node, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], int]]:
    yield path, node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield (*path, key.value), key.start_mark.line + 1
            for sub in _line_index(value, (*path, key.value)):
                if sub[0] != (*path, key.value):
                    yield sub
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _line_index(item, (*path, i))


def _path_text(path: tuple[Any, ...] | list[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top)"


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: A spec file larger than this is refused before parsing (the real one is about 40 KB).
MAX_SPEC_BYTES = 2_000_000
#: Nodes the document may expand to through aliases (an "alias bomb" expands exponentially).
MAX_SPEC_NODES = 200_000
#: Errors found after the construct that causes them: the construct's own line is reported.
_CONTEXT_FIRST = ("while scanning a simple key", "while scanning a quoted scalar", "while parsing a flow")


def _yaml_problem(exc: yaml.YAMLError, file: str) -> Problem:
    mark = getattr(exc, "problem_mark", None)
    context, context_mark = getattr(exc, "context", None) or "", getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark else None
    message = f"not valid YAML: {getattr(exc, 'problem', None) or exc}"
    if context_mark is not None and context.startswith(_CONTEXT_FIRST):
        if line and line != context_mark.line + 1:
            message += f" ({context} that starts here; noticed on line {line})"
        line = context_mark.line + 1
    return Problem(file, line, "", message, "fix the YAML syntax")


def _expanded_size(node: yaml.Node, limit: int) -> int:
    """How many nodes the tree holds once every alias is expanded (stops counting past `limit`)."""
    memo: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in memo:
            continue
        if isinstance(n, yaml.MappingNode):
            children = [c for pair in n.value for c in pair]
        elif isinstance(n, yaml.SequenceNode):
            children = list(n.value)
        else:
            memo[id(n)] = 1
            continue
        if done:
            memo[id(n)] = min(limit + 1, 1 + sum(memo[id(c)] for c in children))
        else:
            stack.append((n, True))
            stack.extend((c, False) for c in children if id(c) not in memo)
    return memo[id(node)]


def _duplicate_keys(node: yaml.Node) -> Iterator[tuple[str, int, int]]:
    """(key, first line, second line) for every key given twice in one mapping."""
    stack, seen_nodes = [node], set()
    while stack:
        n = stack.pop()
        if id(n) in seen_nodes:
            continue
        seen_nodes.add(id(n))
        if isinstance(n, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key, value in n.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    line = key.start_mark.line + 1
                    if key.value in seen:
                        yield key.value, seen[key.value], line
                    else:
                        seen[key.value] = line
                stack.extend((key, value))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


def _load_yaml(text: str, file: str) -> tuple[Any, dict[tuple[Any, ...], int]]:
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError([Problem(file, None, "", f"the spec is {len(text):,} characters long, over the limit of "
                                 f"{MAX_SPEC_BYTES:,}", "is this the right file? a spec is about 40 KB")])
    loader = _Loader(text)
    try:
        # Parse once: compose the node tree (it carries line numbers), then construct from it.
        node = loader.get_single_node()
        duplicates = list(_duplicate_keys(node)) if node is not None else []
        if duplicates:
            raise SpecError([Problem(file, second, "", f"duplicate key {key!r} (first on line {first})",
                                     "keep one of the two; YAML would silently keep the last")
                             for key, first, second in duplicates])
        if node is not None and _expanded_size(node, MAX_SPEC_NODES) > MAX_SPEC_NODES:
            raise SpecError([Problem(file, None, "", f"the YAML expands to more than {MAX_SPEC_NODES:,} values "
                                     "through its aliases (*name)", "write the values out; a spec needs no "
                                     "nested aliases")])
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        raise SpecError([_yaml_problem(exc, file)]) from None
    except RecursionError:
        raise SpecError([Problem(file, None, "", "the YAML nests too deeply", "flatten it")]) from None
    finally:
        loader.dispose()
    lines = dict(_line_index(node)) if node is not None else {}
    # keys come out of YAML as strings; sequence indexes as ints, which matches jsonschema paths
    return data, lines


def _line_for(lines: dict[tuple[Any, ...], int], path: tuple[Any, ...]) -> int | None:
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _semantic_problems(data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """Checks JSON Schema cannot express: references between parts of the spec."""
    players = data["players"]
    if players["min"] > players["max"]:
        yield ("players",), f"min {players['min']} is greater than max {players['max']}", "swap them"
    comb = data["combinations"]
    if comb["min_cards"] > comb["max_cards"]:
        yield ("combinations",), "min_cards is greater than max_cards", "swap them"
    yield from _option_problems(data)
    yield from _holder_problems(data)
    yield from _exchange_problems(data)
    places: dict[int, int] = {}
    for i, t in enumerate(data["titles"]):
        if t["place"] in places:
            yield (("titles", i, "place"), f"place {t['place']} already has a title (titles[{places[t['place']]}])",
                   "give each place one title")
        places.setdefault(t["place"], i)
    if data["revolution"]["cards"] > len(data["deck"]["suits"]):
        yield ("revolution", "cards"), "more cards than there are suits", "use at most one per suit"
    sections = {s["id"] for s in data["sections"]}
    seen: dict[str, int] = {}
    for i, clause in enumerate(data["clauses"]):
        if clause["section"] not in sections:
            yield (("clauses", i, "section"), f"unknown section {clause['section']!r}",
                   f"use one of {', '.join(sorted(sections))}")
        if clause["id"] in seen:
            yield ("clauses", i, "id"), f"duplicate clause id {clause['id']!r}", "clause ids must be unique"
        seen[clause["id"]] = i
    for name, opt in data["options"].items():
        for path, cid in _option_clause_refs(name, opt):
            if cid not in seen:
                yield path, f"unknown clause {cid!r}", "declare it under clauses"
    for i, level in enumerate(data["ai"]["levels"]):
        if level["clause"] not in seen:
            yield ("ai", "levels", i, "clause"), f"unknown clause {level['clause']!r}", "declare it under clauses"
    card_re_ranks = set(data["deck"]["ranks"])
    card_re_suits = set(data["deck"]["suits"])
    clause_ids = {c["id"] for c in data["clauses"]}
    for cid in data.get("uncovered_sizes", {}):  # sizes outside players.min..max are simply not asked for
        if cid not in clause_ids:
            yield ("uncovered_sizes", cid), f"unknown clause {cid!r}", "name a clause declared under clauses"
    for i, clause in enumerate(data["clauses"]):
        for j, ex in enumerate(clause.get("examples", [])):
            for path, card in _cards_in(ex, ("clauses", i, "examples", j)):
                if card in JOKER_CODES:
                    continue
                if card[:-1] not in card_re_ranks or card[-1] not in card_re_suits:
                    yield path, f"unknown card {card!r}", "write the rank symbol then the suit letter, e.g. 10H"
            if "refused" in ex and ex["refused"] not in seen:
                yield (("clauses", i, "examples", j, "refused"), f"unknown clause {ex['refused']!r}",
                       "name a clause declared under clauses")
            names = [e["name"] for e in clause.get("examples", [])]
            if names.count(ex["name"]) > 1:
                yield (("clauses", i, "examples", j, "name"), f"duplicate example name {ex['name']!r}",
                       "scenario ids are clause/name: give each example of a clause its own name")
            for k, step in enumerate(ex.get("steps", [])):
                kinds = [key for key in ("play", "pass", "give", "deal", "ai") if key in step]
                if len(kinds) != 1:
                    yield (("clauses", i, "examples", j, "steps", k),
                           f"a step needs exactly one of play, pass, give, deal, ai (found {kinds or 'none'})",
                           "split it into several steps")
                if "refused" in step and step["refused"] not in seen:
                    yield (("clauses", i, "examples", j, "steps", k, "refused"),
                           f"unknown clause {step['refused']!r}", "name a clause declared under clauses")


_OPTION_TYPES = {"bool": bool, "int": int, "choice": str}


def _largest_deck(data: dict[str, Any]) -> int:
    """Cards in play at most: the natural deck and every joker the option jokers may add."""
    jokers = data["options"].get("jokers", {})
    values = [v["value"] for v in jokers.get("values", [])] + [jokers.get("default"), jokers.get("max")]
    most = max([v for v in values if _is_int(v)] + [0])
    return len(data["deck"]["ranks"]) * len(data["deck"]["suits"]) + min(most, len(JOKER_CODES))


def _exchange_problems(data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """The receiver of an exchange chooses `cards` of its hand: C(hand, cards) legal actions, where
    the hand is at most an even share of the largest deck plus every card the exchanges give."""
    import math
    deck = _largest_deck(data)
    players = data["players"]
    for n in range(players["min"], players["max"] + 1):
        rules = [(i, r) for i, r in enumerate(data["exchange"]) if n >= r["min_players"]]
        hand = -(-deck // n) + sum(r["cards"] for _, r in rules)
        for i, r in rules:
            count = math.comb(hand, r["cards"])
            if count > MAX_LEGAL_ACTIONS:
                yield (("exchange", i, "cards"), f"{r['cards']} cards to give back from a hand of up to {hand} "
                       f"({n} players) is {count:,} choices, over the {MAX_LEGAL_ACTIONS:,} legal actions an engine "
                       "must list", "give fewer cards")
                return


def _option_problems(data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    for name, opt in data["options"].items():
        want = _OPTION_TYPES[opt["type"]]
        for path, v in [(("options", name, "default"), opt["default"])] + [
                (("options", name, "values", i, "value"), x["value"]) for i, x in enumerate(opt.get("values", []))]:
            if type(v) is not want:
                yield path, f"{v!r} is not a {opt['type']}", f"option {name} is of type {opt['type']}"
        if "values" in opt:
            vals = [x["value"] for x in opt["values"]]
            if not any(_value_matches(v, opt["default"]) for v in vals):
                yield ("options", name, "default"), f"default {opt['default']!r} is not one of the values", \
                    "give the default value a clause under values"
            if len(set(map(repr, vals))) != len(vals):
                yield ("options", name, "values"), "a value is listed twice", "list each value once"
        elif _is_int(opt["default"]):
            low, high = opt.get("min", 0), opt.get("max", MAX_OPTION_INT)
            if name == "deals" and low < 1:
                yield ("options", name, "min"), f"min {low}: a game has at least 1 deal", "write min: 1"
            if low > high:
                yield ("options", name, "min"), f"min {low} is greater than max {high}", "swap them"
            elif not max(low, 1 if name == "deals" else 0) <= opt["default"] <= high:
                yield (("options", name, "default"), f"default {opt['default']} is outside {max(low, 1 if name == 'deals' else 0)}..{high}",
                       "choose a default inside the option's range")


def _holder_problems(data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """A `holder:<card>` value (an option's default, or an example's setting) names a card of the
    deck: the first lead goes to whoever holds it, so a card that does not exist (holder:1C) or a
    joker (holder:X1) would give a sheet and a feature about no card."""
    ranks, suits = data["deck"]["ranks"], data["deck"]["suits"]
    places: list[tuple[tuple[Any, ...], Any]] = []
    for name, opt in data["options"].items():
        if any(v.get("value") == HOLDER_PATTERN for v in opt.get("values", [])):
            places.append((("options", name, "default"), opt.get("default")))
            for i, clause in enumerate(data["clauses"]):
                for j, ex in enumerate(clause.get("examples", [])):
                    if name in ex:
                        places.append((("clauses", i, "examples", j, name), ex[name]))
    for path, value in places:
        if not isinstance(value, str) or not value.startswith("holder:") or value == HOLDER_PATTERN:
            continue
        card = value[len("holder:"):]
        if card in JOKER_CODES:
            yield (path, f"{value}: {card} is a joker; the first lead goes to the holder of one of the "
                   f"{len(ranks) * len(suits)} natural cards",
                   f"name a card of the deck: holder:<rank><suit>, e.g. holder:{ranks[0]}{suits[0]}")
        elif card[:-1] not in ranks or card[-1:] not in suits:
            yield (path, f"{value}: {card!r} is not a card of the deck",
                   f"write holder:<rank><suit> with a rank of deck.ranks ({' '.join(ranks)}) and a suit of "
                   f"deck.suits ({' '.join(suits)}), e.g. holder:{ranks[0]}{suits[0]}")


def _option_clause_refs(name: str, opt: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str]]:
    if "clause" in opt:
        yield ("options", name, "clause"), opt["clause"]
    for i, v in enumerate(opt.get("values", [])):
        yield ("options", name, "values", i, "clause"), v["clause"]


#: Example keys that set a table option (besides `deals`, which has its own step).
EXAMPLE_OPTIONS = ("revolution", "equality", "sequences", "jokers", "first_lead", "leader_may_pass", "scoring")


def _cards_in(obj: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("play", "give", "cards"):
                if isinstance(v, list):
                    for n, c in enumerate(v):
                        if isinstance(c, str):
                            yield (*path, k, n), c
            elif k in ("hands", "deal"):
                if isinstance(v, list):
                    for a, hand in enumerate(v):
                        for b, c in enumerate(hand if isinstance(hand, list) else []):
                            if isinstance(c, str):
                                yield (*path, k, a, b), c
            elif k not in ("legal", "ai_action"):
                yield from _cards_in(v, (*path, k))
    elif isinstance(obj, list):
        for n, v in enumerate(obj):
            yield from _cards_in(v, (*path, n))


def _expect(raw: dict[str, Any] | None) -> Expect | None:
    return None if raw is None else Expect(_freeze(raw))


def _step(raw: dict[str, Any]) -> Step:
    expect = _expect(raw.get("expect"))
    seat = raw.get("seat")
    if "play" in raw:
        return Step(seat, "play", tuple(raw["play"]), refused=raw.get("refused"), expect=expect)
    if "pass" in raw:
        return Step(seat, "pass", refused=raw.get("refused"), expect=expect)
    if "give" in raw:
        return Step(seat, "give", tuple(raw["give"]), refused=raw.get("refused"), expect=expect)
    if "deal" in raw:
        return Step(None, "deal", hands=tuple(tuple(h) for h in raw["deal"]), expect=expect)
    return Step(seat, "ai", ai=raw["ai"], expect=expect)


def parse_spec(text: str, file: str = "<spec>") -> Spec:
    """Validate YAML text and build the Spec. Raises SpecError with every problem at once."""
    data, lines = _load_yaml(text, file)
    if not isinstance(data, dict):
        raise SpecError([Problem(file, 1, "", "the spec must be a YAML mapping", "start from spec/president.yaml")])
    problems = []
    for err in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        problems.append(Problem(file, _line_for(lines, path), _path_text(path), err.message,
                                f"see schema rule {'/'.join(map(str, err.absolute_schema_path))}"))
    if not problems:
        for path, message, hint in _semantic_problems(data):
            problems.append(Problem(file, _line_for(lines, path), _path_text(path), message, hint))
    if problems:
        raise SpecError(problems)

    opts = tuple(Option(name, o["type"], o["default"], o["locked"], o.get("min"), o.get("max"), o.get("clause"),
                        tuple(OptionValue(v["value"], v["clause"]) for v in o.get("values", ())))
                 for name, o in data["options"].items())
    clauses = []
    uncovered = data.get("uncovered_sizes", {})
    for i, c in enumerate(data["clauses"]):
        examples = tuple(
            Example(name=(nt := spec_text(e["name"], data, file, _line_for(lines, ("clauses", i, "examples", j)))).english(),
                    name_text=nt, hands=tuple(tuple(h) for h in e.get("hands", ())),
                    steps=tuple(_step(s) for s in e.get("steps", ())),
                    options=tuple((k, e[k]) for k in EXAMPLE_OPTIONS if k in e), deals=e.get("deals"), expect=_expect(e.get("expect")),
                    line=_line_for(lines, ("clauses", i, "examples", j)),
                    seed=e.get("seed"), num_players=e.get("players"), refused=e.get("refused"))
            for j, e in enumerate(c.get("examples", [])))
        title = spec_text(c["title"], data, file, _line_for(lines, ("clauses", i)))
        clauses.append(Clause(c["id"], c["section"], title.english(),
                              c.get("decision", False),
                              c.get("testable", True), examples, _line_for(lines, ("clauses", i)),
                              c.get("pending"), tuple(uncovered.get(c["id"], {}).get("sizes", ())),
                              uncovered.get(c["id"], {}).get("why", ""), title))
    return Spec(
        game=data["game"], variant=data["variant"], id=data["id"], version=data["version"],
        deck=Deck(tuple(data["deck"]["ranks"]), tuple(data["deck"]["suits"])),
        players=PlayerRange(data["players"]["min"], data["players"]["max"]),
        combinations=Combinations(**data["combinations"]),
        options=opts,
        revolution_cards=data["revolution"]["cards"],
        exchange=tuple(ExchangeRule(**r) for r in data["exchange"]),
        scoring=Scoring(**data["scoring"]),
        titles=tuple(Title(**t) for t in data["titles"]),
        ai_levels=tuple(AILevel(**a) for a in data["ai"]["levels"]),
        sections=tuple(Section(**s) for s in data["sections"]),
        clauses=tuple(clauses),
        path=file,
    )


def read_spec_bytes(path: str | Path) -> bytes:
    """The bytes of a spec file: a regular file, read with MAX_SPEC_BYTES applied while reading
    (a device such as /dev/zero or a FIFO is refused at once, never read). SpecError otherwise."""
    from .resources import read_regular
    try:
        return read_regular(Path(path), MAX_SPEC_BYTES)
    except OSError as exc:
        raise SpecError([Problem(str(path), None, "", f"cannot read the spec: {exc.strerror or exc}",
                                 "give a regular YAML file (a spec is about 40 KB)")]) from None


def decode_spec(data: bytes, file: str) -> str:
    """UTF-8 text of a spec; SpecError naming the file, line and byte offset otherwise."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SpecError([Problem(file, line, "", f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset "
                                 f"{exc.start}", "save the spec as UTF-8")]) from None


def load_spec(path: str | Path | None = None) -> Spec:
    """Load a spec file (default: the packaged spec/president.yaml)."""
    p = Path(path) if path is not None else default_spec_path()
    return parse_spec(decode_spec(read_spec_bytes(p), str(p)), str(p))


@lru_cache(maxsize=4)
def _cached(path: str) -> Spec:
    return load_spec(path)


def default_spec() -> Spec:
    """The packaged spec (CardVerse 1.1.0 as shipped), loaded once; never the current folder's."""
    return _cached(str(default_spec_path()))
