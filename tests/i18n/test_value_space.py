"""Every value the spec allows builds in every language (issue 26).

The value space is read from spec/schema.json and the spec itself, not from a hand list:
- each option at each of its values (an int option with a range at its min, default, max and
  one value between), locked and unlocked; `holder:<card>` for one card of every rank and of
  every suit of the deck;
- each number of the schema (players, cards per play, run length, exchange cards and player
  thresholds, ...) at its minimum, the spec's value, its maximum and one value between;
- every house rule on at once.

Each variant is rendered in every language (txt, md and html) with catalogs loaded once, and
every one must build: none is refused. The numbers the published sentences are written for
(revolution.cards 4, a quad; scoring.step 1, one point less per place) have their own plural
messages for every other value, so a sheet built with another value states it: it differs from
the sheet of the spec it was changed from.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from president.errors import SpecError
from president.i18n.catalogs import LANGS, BuildError, strip_isolates, translator_for
from president.i18n.render import FORMATS, SUIT_SYMBOLS, build_sheet, layout, missing_problems
from president.spec import HOLDER_PATTERN, MAX_OPTION_INT, parse_spec

pytestmark = pytest.mark.slow  # 864 sheet builds

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec" / "president.yaml"
SCHEMA = ROOT / "spec" / "schema.json"

#: Numbers the published sentences are written for (a quad, one point less per place): another
#: value takes the plural messages of sheet.j2, and its sheet must differ from the unchanged one.
STATED_NUMBERS = (("revolution", "cards"), ("scoring", "step"))


def _schema() -> dict[str, Any]:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def _spec_data() -> dict[str, Any]:
    """The spec without its clauses' examples: the sheet states clauses, not examples, and each
    variant is still validated in full (schema and semantics) by parse_spec, about 20 times faster."""
    data = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    for clause in data["clauses"]:
        clause.pop("examples", None)
    return data


def _points(low: int, default: int, high: int) -> list[int]:
    """Minimum, default, maximum and one value between (each once)."""
    between = (low + high) // 2 if (low + high) // 2 not in (low, default, high) else (low + high + 1) // 2
    return list(dict.fromkeys([low, default, high, between]))


def _number_fields(schema: dict[str, Any], data: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], int, int]]:
    """(path in the spec, minimum, maximum) of every integer the schema bounds, outside options,
    titles, AI levels and clauses (which the sheet does not count with)."""
    props = schema["properties"]
    for top in ("players", "combinations", "revolution", "scoring"):
        for key, rule in props[top]["properties"].items():
            if rule.get("type") == "integer":
                yield (top, key), rule["minimum"], rule["maximum"]
    items = props["exchange"]["items"]["properties"]
    for i in range(len(data["exchange"])):
        for key in ("cards", "min_players"):
            yield ("exchange", i, key), items[key]["minimum"], items[key]["maximum"]


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _paired(data: dict[str, Any], path: tuple[Any, ...], value: int) -> None:
    """Keep a min/max pair ordered when one of them moves (players, combinations)."""
    parent, key = _get(data, path[:-1]), path[-1]
    for low, high in (("min", "max"), ("min_cards", "max_cards")):
        if key == low and high in parent:
            parent[high] = max(parent[high], value)
        elif key == high and low in parent:
            parent[low] = min(parent[low], value)


def _option_values(data: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(option, value) for every value of every option; holder:<card> as one card of each rank and suit."""
    ranks, suits = data["deck"]["ranks"], data["deck"]["suits"]
    for name, opt in data["options"].items():
        if "values" in opt:
            for v in opt["values"]:
                if v["value"] == HOLDER_PATTERN:
                    for i, rank in enumerate(ranks):  # 13 cards: every rank, and every suit in turn
                        yield name, f"holder:{rank}{suits[i % len(suits)]}"
                else:
                    yield name, v["value"]
        else:
            low = max(opt.get("min", 0), 1 if name == "deals" else 0)
            for n in _points(low, opt["default"], opt.get("max", MAX_OPTION_INT)):
                yield name, n


HOUSE_RULES_ON = (("revolution", True), ("equality", True), ("sequences", True), ("jokers", 2),
                  ("first_lead", "holder:3C"), ("leader_may_pass", True), ("deals", 3))


def variants() -> list[tuple[str, dict[str, Any]]]:
    """(name, spec data) of every variant of the value space, the spec itself first. Each number
    is tried on the spec and with every house rule on (a run length shows only with runs on)."""
    base = _spec_data()
    everything = copy.deepcopy(base)
    for name, value in HOUSE_RULES_ON:
        everything["options"][name].update(default=value)
    out: list[tuple[str, dict[str, Any]]] = [("spec", base), ("every house rule on", everything)]
    for name, value in _option_values(base):
        for locked in (False, True):
            data = copy.deepcopy(base)
            data["options"][name].update(default=value, locked=locked)
            out.append((f"{name}={value}{' locked' if locked else ''}", data))
    for start, suffix in ((base, ""), (everything, " (house rules on)")):
        for path, low, high in _number_fields(_schema(), base):
            for n in _points(low, _get(base, path), high):
                data = copy.deepcopy(start)
                _set(data, path, n)
                _paired(data, path, n)
                out.append((f"{'.'.join(map(str, path))}={n}{suffix}", data))
    return out


def _changed_from(name: str, base: dict[str, Any]) -> str | None:
    """The variant a STATED_NUMBERS variant was made from ("spec" or "every house rule on"), when
    its value differs from the spec's; else None."""
    for path in STATED_NUMBERS:
        if name.startswith(".".join(path) + "=") and int(name.split("=")[1].split()[0]) != _get(base, path):
            return "every house rule on" if name.endswith("(house rules on)") else "spec"
    return None


@pytest.fixture(scope="module")
def translators() -> dict[str, Any]:
    """Each language's messages, read once (a fresh Translator per render records its own misses)."""
    return {lang: translator_for(ROOT, lang) for lang in LANGS}


def _fresh(tr: Any) -> Any:
    from dataclasses import replace
    return replace(tr, missing=[], used=[])


def test_every_value_of_the_spec_builds_in_every_language(translators, capsys):
    built, failures = 0, []
    all_variants = variants()
    base = dict(all_variants)["spec"]
    sheets: dict[tuple[str, str], str] = {}  # (variant, lang) -> txt sheet, for the unchanged variants
    for name, data in all_variants:
        try:
            spec = parse_spec(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), f"<{name}>")
        except SpecError as exc:  # outside the semantic rules (e.g. the exchange's choice limit)
            failures.append(f"{name}: the spec is refused: {exc}")
            continue
        start = _changed_from(name, base)
        for lang in LANGS:
            tr = _fresh(translators[lang])
            try:
                sheet = build_sheet(spec, tr)
                if tr.missing:
                    raise BuildError(missing_problems([tr]))
                texts = [layout(sheet, spec, lang, fmt) for fmt in FORMATS]
            except BuildError as exc:
                failures.append(f"{name} ({lang}): {exc}")
                continue
            assert all(texts) and not any("%(" in t for t in texts), (name, lang)
            if name in ("spec", "every house rule on"):
                sheets[name, lang] = texts[0]
            elif start is not None and texts[0] == sheets[start, lang]:
                failures.append(f"{name} ({lang}): the sheet does not state the changed number")
            if name.startswith("first_lead=holder:"):  # the card, as this language writes it, is on the sheet
                card = name.split(":")[1].split()[0]
                suit = tr.pgettext("suit", SUIT_SYMBOLS[card[-1]])
                assert strip_isolates(tr.pgettext("card", "%(rank)s%(suit)s", rank=card[:-1], suit=suit)) in texts[0]
            built += 1
    with capsys.disabled():
        print(f"\nvalue space: {len(all_variants)} variants x {len(LANGS)} languages = "
              f"{len(all_variants) * len(LANGS)}; built {built}")
    assert not failures, "\n".join(failures)
    assert built == len(all_variants) * len(LANGS)
