"""The one step vocabulary of the conformance scenarios.

`STEP_TEMPLATES` is the single table of step phrases. The feature generator
(`president.features`) renders scenario operations through it, the pytest-bdd step
definitions (tests/conftest.py) are registered from it, and the conformance runner executes
the same operations. A translation of the features only has to translate each template's
`text` (gettext domain `steps`, msgctxt = the template `key`), keeping its `{placeholders}`.

Placeholders use the `parse` format (`{seat:d}`, `{cards:Cards}`); `PARSE_TYPES` holds the
typed parsers, `format_value` the matching writers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

#: Step kinds, as Gherkin keywords.
GIVEN, WHEN, THEN = "given", "when", "then"


@dataclass(frozen=True)
class StepTemplate:
    key: str  # stable id of the phrase; msgctxt when translated
    kind: str  # given | when | then | fragment (a piece of another phrase, e.g. one legal action)
    text: str  # English phrase with parse-format placeholders (a counted phrase: the singular)
    plural: str = ""  # a counted phrase's English plural (msgid_plural; see `texts`, `count_field`)
    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(m.group(1) for m in re.finditer(r"\{(\w+)(?::\w+)?\}", self.text))


STEP_TEMPLATES: tuple[StepTemplate, ...] = (
    # --- Given: the table --------------------------------------------------------------
    StepTemplate("table", GIVEN, "{players:d} players"),
    # one phrase per table option, only when a scenario sets it (see scenarios.model.OPTION_STEPS)
    StepTemplate("opt-revolution", GIVEN, "revolution is {revolution:OnOff}"),
    StepTemplate("opt-equality", GIVEN, "equality is {equality:OnOff}"),
    StepTemplate("opt-sequences", GIVEN, "sequences are {sequences:OnOff}"),
    StepTemplate("opt-jokers", GIVEN, "the deck holds {jokers:d} joker", "the deck holds {jokers:d} jokers"),
    StepTemplate("opt-first-lead", GIVEN, "the first lead is {first_lead:Value}"),
    StepTemplate("opt-leader-may-pass", GIVEN, "the leader may pass: {leader_may_pass:OnOff}"),
    StepTemplate("opt-scoring", GIVEN, "the scoring is {scoring:Value}"),
    StepTemplate("deals", GIVEN, "the game lasts {deals:d} deal", "the game lasts {deals:d} deals"),
    StepTemplate("seed", GIVEN, "the deck is shuffled with seed {seed:d}"),
    StepTemplate("holds", GIVEN, "seat {seat:d} holds {cards:Cards}"),
    # --- When: requests ------------------------------------------------------------------
    StepTemplate("start", WHEN, "the game starts"),
    StepTemplate("try-start", WHEN, "the game is asked to start"),
    StepTemplate("play", WHEN, "seat {seat:d} plays {cards:Cards}"),
    StepTemplate("try-play", WHEN, "seat {seat:d} tries to play {cards:Cards}"),
    StepTemplate("pass", WHEN, "seat {seat:d} passes"),
    StepTemplate("try-pass", WHEN, "seat {seat:d} tries to pass"),
    StepTemplate("give", WHEN, "seat {seat:d} gives back {cards:Cards}"),
    StepTemplate("try-give", WHEN, "seat {seat:d} tries to give back {cards:Cards}"),
    StepTemplate("deal", WHEN, "the next deal starts with hands {hands:Hands}"),
    StepTemplate("ai", WHEN, "the {level:Level} AI chooses for seat {seat:d}"),
    # --- Then: outcomes ------------------------------------------------------------------
    StepTemplate("refused", THEN, "the request is refused by rule {rule:Rule}"),
    StepTemplate("to-act", THEN, "seat {seat:d} is to act"),
    StepTemplate("nobody-to-act", THEN, "nobody is to act"),
    StepTemplate("phase-exchange", THEN, "the cards are being exchanged"),
    StepTemplate("phase-play", THEN, "the cards are being played"),
    StepTemplate("phase-deal-over", THEN, "the deal is over"),
    StepTemplate("phase-game-over", THEN, "the game is over"),
    StepTemplate("deal-number", THEN, "this is deal {deal:d}"),
    StepTemplate("order-normal", THEN, "the order is normal"),
    StepTemplate("order-reversed", THEN, "the order is reversed"),
    StepTemplate("trick-empty", THEN, "the trick is empty"),
    StepTemplate("trick", THEN, "the trick is {cards:Cards} played by seat {seat:d}"),
    StepTemplate("nobody-passed", THEN, "nobody has passed"),
    StepTemplate("passed", THEN, "the seats that passed are {seats:Numbers}"),
    StepTemplate("nobody-finished", THEN, "nobody has finished"),
    StepTemplate("finished", THEN, "the finishing order is {seats:Numbers}"),
    StepTemplate("scores", THEN, "the scores are {scores:Numbers}"),
    StepTemplate("hand", THEN, "seat {seat:d} has {cards:Cards}"),
    StepTemplate("hand-empty", THEN, "seat {seat:d} has no cards"),
    StepTemplate("hand-sizes", THEN, "the hands hold {sizes:Numbers} cards"),
    StepTemplate("legal", THEN, "the legal actions are {actions:Actions}"),
    StepTemplate("ai-action", THEN, "the AI's action is {action:Action}"),
    # --- fragments: pieces of the phrases above ----------------------------------------
    StepTemplate("word-on", "fragment", "on"),
    StepTemplate("word-off", "fragment", "off"),
    StepTemplate("action-pass", "fragment", "pass"),
    StepTemplate("action-play", "fragment", "play {cards:Cards}"),
    StepTemplate("action-give", "fragment", "give {cards:Cards}"),
    StepTemplate("list-separator", "fragment", ", "),
    StepTemplate("actions-separator", "fragment", "; "),
    StepTemplate("hands-separator", "fragment", " / "),
)

TEMPLATES: dict[str, StepTemplate] = {t.key: t for t in STEP_TEMPLATES}


def texts(t: StepTemplate) -> tuple[str, ...]:
    """Every English form of a phrase: its text, and the plural of a counted phrase."""
    return (t.text, t.plural) if t.plural else (t.text,)


def count_field(t: StepTemplate) -> str | None:
    """The field whose number picks the form of a counted phrase (its first `{name:d}`); None for the others."""
    m = re.search(r"\{(\w+):d\}", t.text) if t.plural else None
    return m.group(1) if m else None


def fragment(key: str) -> str:
    return TEMPLATES[key].text


# --- typed values ----------------------------------------------------------------------
_CARD = r"(?:(?:[0-9]{1,2}|[A-Z])[A-Z]|X[12])"
_CARDS = rf"{_CARD}(?: {_CARD})*"


def _typed(pattern: str) -> Callable[[Callable[[str], Any]], Callable[[str], Any]]:
    def deco(fn: Callable[[str], Any]) -> Callable[[str], Any]:
        fn.pattern = pattern  # type: ignore[attr-defined]
        return fn
    return deco


@_typed(_CARDS)
def parse_cards_text(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@_typed(r"\d+(?:, \d+)*")
def parse_numbers(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(fragment("list-separator").strip()))


@_typed(rf"{_CARDS}(?: / {_CARDS})*")
def parse_hands(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(parse_cards_text(h) for h in text.split(fragment("hands-separator").strip()))


@_typed(r"on|off")
def parse_on_off(text: str) -> bool:
    return text == fragment("word-on")


@_typed(r"[a-z][a-z0-9_]*(?::(?:[0-9]{1,2}|[A-Z])[A-Z])?")
def parse_value(text: str) -> str:
    """An option value written as the protocol spells it: seat0, holder:3C, president_only..."""
    return text


@_typed(r"easy|medium|hard")
def parse_level(text: str) -> str:
    return text


@_typed(r"[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+")
def parse_rule(text: str) -> str:
    return text


_ACTION = rf"(?:pass|play {_CARDS}|give {_CARDS})"


@_typed(_ACTION)
def parse_action_text(text: str) -> str:
    """An action in spec notation: 'pass', '3C 3D' (a play) or 'give 3C 4C'."""
    if text == fragment("action-pass"):
        return "pass"
    word, _, cards = text.partition(" ")
    return cards if word == "play" else f"give {cards}"


@_typed(rf"{_ACTION}(?:; {_ACTION})*")
def parse_actions(text: str) -> tuple[str, ...]:
    return tuple(parse_action_text(a) for a in text.split(fragment("actions-separator")))


PARSE_TYPES: dict[str, Callable[[str], Any]] = {
    "Cards": parse_cards_text, "Numbers": parse_numbers, "Hands": parse_hands, "OnOff": parse_on_off,
    "Level": parse_level, "Rule": parse_rule, "Value": parse_value, "Action": parse_action_text, "Actions": parse_actions,
}


def format_action(action: str) -> str:
    """Spec notation ('pass', '3C 3D', 'give 3C') to the phrase fragment ('pass', 'play 3C 3D', ...)."""
    if action == "pass":
        return fragment("action-pass")
    if action.startswith("give "):
        return _fill(fragment("action-give"), cards=action[5:])
    return _fill(fragment("action-play"), cards=action)


def _fill(text: str, **values: str) -> str:
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values[m.group(1)], text)


def format_value(type_name: str | None, value: Any) -> str:
    if type_name == "Cards":
        return " ".join(value)
    if type_name == "Numbers":
        return fragment("list-separator").join(str(v) for v in value)
    if type_name == "Hands":
        return fragment("hands-separator").join(" ".join(h) for h in value)
    if type_name == "OnOff":
        return fragment("word-on" if value else "word-off")
    if type_name == "Action":
        return format_action(value)
    if type_name == "Actions":
        return fragment("actions-separator").join(format_action(a) for a in value)
    return str(value)


def _field_types(text: str) -> dict[str, str | None]:
    return {m.group(1): m.group(2) for m in re.finditer(r"\{(\w+)(?::(\w+))?\}", text)}


def render(key: str, args: dict[str, Any]) -> str:
    """The phrase of template `key` with `args` written in."""
    tpl = TEMPLATES[key]
    counted = count_field(tpl)
    out = tpl.plural if counted is not None and args[counted] != 1 else tpl.text
    for name, type_name in _field_types(tpl.text).items():
        out = re.sub(r"\{%s(?::\w+)?\}" % name, lambda _m: format_value(type_name, args[name]), out)
    return out


def normalize_args(key: str, args: dict[str, Any]) -> dict[str, Any]:
    """Arguments as parsed back from a phrase (tuples), to compare with the generator's."""
    out = {}
    for name, type_name in _field_types(TEMPLATES[key].text).items():
        v = args[name]
        if type_name in ("Cards", "Numbers", "Actions"):
            v = tuple(v)
        elif type_name == "Hands":
            v = tuple(tuple(h) for h in v)
        out[name] = v
    return out

