"""Clause and scenario titles of spec variants with other numbers, in all six languages (issue 31, F1/F2).

A title carries the spec's numbers through counted phrases (`{name=path|one|other}`,
president/spectext.py), each a plural message of the steps catalogs. For several variants (player
ranges, exchange counts 1-4 and their thresholds, cards per play, run lengths, deals) the features
of every language are built from the same catalogs, and:

- no translated feature holds an English title, an English counted phrase or a run of English words
  on a `Rule:` or scenario line (nothing falls back to English);
- every counted phrase stands in the form that the catalog's plural function picks for its number,
  and in no other distinct form of the message (ru `3 карты`, never `3 карт`); that function agrees
  with CLDR's category of the number (Babel's locale data);
- the English titles read right (`1 card`, `2 cards`, "their best card" for one card, never `1 cards`,
  `2 card`, `their 1 best`).
"""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from babel import Locale

from president.i18n.catalogs import CATALOG_LANGS
from president.i18n.features import translated_features
from president.i18n.steps_catalog import StepLanguage, counted_context, step_language, strip_bidi
from president.scenarios.gherkin import feature_text
from president.spec import Spec, parse_spec
from president.spectext import SpecText

#: the tests of `built` are slow: six specs with their examples, features in six languages (about 15 s)
slow = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec" / "president.yaml"

#: (players min, max), (cards per play min, max), min_run, deals default, [(exchange cards, min_players)]
VARIANTS: list[tuple[tuple[int, int], tuple[int, int], int, int, list[tuple[int, int]]]] = [
    ((3, 8), (1, 4), 5, 5, [(3, 2), (2, 5)]),      # the review's v1: players 3-8, exchange 3 / 2 from 5
    ((2, 12), (1, 1), 2, 1, [(1, 2), (1, 3)]),     # one card everywhere; ar dual of 2 players
    ((4, 11), (2, 3), 13, 21, [(4, 2), (3, 11)]),  # ar 3-10 and 11-99 forms; exchange 4 and 3
    ((5, 5), (1, 2), 3, 2, [(2, 2), (4, 5)]),      # one table size; 2 cards per play at most
    ((3, 7), (3, 4), 4, 100, [(1, 2), (2, 4)]),    # the exchanges swapped: 1 then 2 cards
    ((6, 12), (1, 3), 8, 3, [(2, 2), (1, 12)]),    # vice exchange only at 12 players
]
_ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?: [A-Za-z]{2,}){3,}")


def variant_spec(players: tuple[int, int], cards: tuple[int, int], min_run: int, deals: int,
                 exchange: list[tuple[int, int]]) -> Spec:
    data = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["players"] = {"min": players[0], "max": players[1]}
    data["combinations"].update(min_cards=cards[0], max_cards=cards[1], min_run=min_run)
    data["options"]["deals"]["default"] = deals
    for rule, (n, from_players) in zip(data["exchange"], exchange):
        rule.update(cards=n, min_players=from_players)
    return parse_spec(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "variant.yaml")


def titles(spec: Spec) -> list[tuple[str, str, SpecText]]:
    """(kind, owner clause id, text) of every clause title and scenario title of the spec."""
    out = []
    for clause in spec.clauses:
        out.append(("clause", clause.id, clause.title_text or SpecText(clause.title)))
        out += [("scenario", clause.id, ex.name_text or SpecText(ex.name)) for ex in clause.examples]
    return out


def title_lines(text: str, owner: str | None = None) -> list[str]:
    """The `Rule:` and scenario title lines of a feature file (of clause `owner` only, if given),
    without their keyword and clause id."""
    out, tag = [], None
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("@"):
            tag = stripped[1:]
            continue
        head, sep, title = stripped.partition(": ")
        if not sep:
            continue
        if " — " in title and line.startswith("  ") and not line.startswith("    "):  # a Rule: line
            rule_id, _, title = title.partition(" — ")
            if owner is None or strip_bidi(rule_id) == owner:
                out.append(title)
        elif line.startswith("    ") and not line.startswith("      ") and (owner is None or tag == owner):
            out.append(title)
    return out


def english_found(files: dict[str, str], spec: Spec) -> list[str]:
    """Title lines of translated features that hold English: a whole English title, a filled English
    counted phrase, or four English words in a row."""
    english = {t.english() for _, _, t in titles(spec)}
    phrases = {t.fill(f, c.num) for _, _, t in titles(spec) for c in t.counted
               for f in (c.one, c.other, c.exactly_one) if f is not None}
    found = []
    for path, text in files.items():
        for body in title_lines(text):
            hits = [e for e in english if e in body] + [p for p in phrases if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", body)]
            if hits or _ENGLISH_RUN.search(body):
                found.append(f"{path}: {body}")
    return found


def plural_errors(files: dict[str, str], spec: Spec, lang: str, steps: StepLanguage) -> list[str]:
    """Counted phrases of `lang` not in the form of their number, or also in another form that holds
    the number (on the title lines of their clause)."""
    errors = []
    for kind, owner, title in titles(spec):
        clause = spec.clause(owner)
        if not clause.examples:
            continue  # a clause without examples is not written in the features
        text = "\n".join(line for k, v in files.items() if k == f"features/{lang}/{clause.section}.feature"
                         for line in title_lines(v, owner))
        for c in title.counted:
            if c.num == 1 and c.exactly_one is not None:
                continue  # the text for 1 alone, a plain message
            forms = steps.messages.get((counted_context(kind, owner, c.name), c.one))
            assert isinstance(forms, tuple), (lang, owner, c.name)
            want = title.fill(forms[steps.plural_form(c.num)], c.num, steps.isolate_value)
            if want not in text:
                errors.append(f"{lang} {owner}.{c.name} = {c.num}: {want!r} is missing")
            others = {title.fill(f, c.num, steps.isolate_value) for f in forms if "{num}" in f} - {want}
            errors += [f"{lang} {owner}.{c.name} = {c.num}: {w!r}, the form of another number" for w in sorted(others)
                       if w not in want and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
    return errors


_ENGLISH_BAD = re.compile(r"(?<![\w.])(?:1 (?:[a-z]+ ){0,2}(?:cards|players)\b|(?:[02-9]|\d{2,}) (?:[a-z]+ ){0,2}"
                          r"(?:card|player)\b|their 1 best)")


def english_plural_errors(text: str) -> list[str]:
    """Numbers and nouns that disagree on the title lines of English features."""
    lines = [line for line in text.split("\n") if line.lstrip().startswith(("Rule:", "Scenario:", "Example:"))]
    return [m.group(0) for line in lines for m in _ENGLISH_BAD.finditer(line)]


def _english(spec: Spec) -> str:
    sections = [s.id for s in spec.sections]
    return "\n".join(feature_text(spec, s, lambda: []) or "" for s in sections)


@pytest.fixture(scope="module")
def built() -> list[tuple[Spec, dict[str, str]]]:
    out = []
    for v in VARIANTS:
        spec = variant_spec(*v)
        out.append((spec, translated_features(spec, ROOT)))
    return out


@slow
def test_no_english_in_translated_features(built: list[tuple[Spec, dict[str, str]]]) -> None:
    for spec, files in built:
        assert {p.split("/")[1] for p in files} == set(CATALOG_LANGS)
        assert english_found(files, spec) == []


@slow
def test_counted_phrases_in_the_form_of_their_number(built: list[tuple[Spec, dict[str, str]]]) -> None:
    seen: set[tuple[str, int]] = set()
    for spec, files in built:
        for lang in CATALOG_LANGS:
            steps = step_language(ROOT, lang)
            assert plural_errors(files, spec, lang, steps) == []
            seen |= {(lang, c.num) for _, _, t in titles(spec) for c in t.counted}
    # the catalog's plural function is CLDR's for every number the variants count with
    for lang, n in sorted(seen):
        steps = step_language(ROOT, lang)
        categories = [c for c in ("zero", "one", "two", "few", "many", "other")
                      if c in Locale.parse(lang).plural_form.tags | {"other"}]
        assert categories[steps.plural_form(n)] == Locale.parse(lang).plural_form(n), (lang, n)
    assert {n for _, n in seen} >= {1, 2, 3, 4, 5, 8, 11, 12}


@slow
def test_english_titles_agree_with_their_numbers(built: list[tuple[Spec, dict[str, str]]]) -> None:
    for spec, _ in built:
        text = _english(spec)
        assert english_plural_errors(text) == [], spec.players
        vice = spec.clause("exchange.vice").title
        one = spec.exchange[1].cards == 1
        assert ("gives their best card" in vice) == one and (f"their {spec.exchange[1].cards} best cards" in vice) != one


@slow
def test_the_detectors_catch_what_they_look_for(built: list[tuple[Spec, dict[str, str]]]) -> None:
    """Planted: an English title left in a translation, a Russian phrase in the form of another
    number, English `1 cards` / `2 card`."""
    spec, files = built[0]
    path = "features/ru/setup.feature"
    planted = dict(files)
    planted[path] = files[path] + f"\n  Правило: setup.players — {spec.clause('setup.players').title}\n"
    assert english_found(planted, spec)
    scum = spec.clause("exchange.scum").title_text
    assert scum is not None and scum.counted[1].num == 3
    planted = dict(files)
    planted["features/ru/special.feature"] = files["features/ru/special.feature"].replace("3 карты", "3 карт")
    assert plural_errors(planted, spec, "ru", step_language(ROOT, "ru"))
    rule = "  Rule: x — "
    assert english_plural_errors(rule + "who chooses 2 card to give back") and english_plural_errors(rule + "their 1 best cards")
    assert english_plural_errors(rule + "gives 1 cards") and not english_plural_errors(rule + "chooses 1 card, 2 cards")


def test_a_counted_phrase_without_its_number_is_refused() -> None:
    from president.errors import SpecError
    text = SPEC.read_text(encoding="utf-8").replace("{back=exchange.0.cards|{num} card|{num} cards}",
                                                     "{back=exchange.0.cards|a card|cards}", 1)
    with pytest.raises(SpecError) as err:
        parse_spec(text, "planted.yaml")
    problem = err.value.problems[0]
    assert problem.file == "planted.yaml" and problem.line is not None and "{num}" in problem.message


def _schema_range(path: str) -> range:
    """The integers the schema allows at a spec path (exchange.0.cards -> exchange items' cards)."""
    import json
    props = json.loads((ROOT / "spec" / "schema.json").read_text(encoding="utf-8"))["properties"]
    parts = path.split(".")
    rule = props[parts[0]]["items"]["properties"][parts[2]] if parts[0] == "exchange" else \
        props[parts[0]]["properties"][parts[1]]
    return range(rule["minimum"], rule["maximum"] + 1)


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_every_counted_phrase_at_every_schema_value(lang: str) -> None:
    """Each counted phrase of the spec's titles, rendered alone at every value its schema
    allows; a form without the number only where the language uses that form for one number alone."""
    from president.spec import default_spec
    steps = step_language(ROOT, lang)
    for kind, owner, title in titles(default_spec()):
        for c in title.counted:
            for n in _schema_range(c.path):
                ctx = counted_context(kind, owner, c.name)
                form = steps.text(ctx, c.exactly_one) if n == 1 and c.exactly_one else steps.ntext(ctx, c.one, c.other, n)
                text = title.fill(form, n, steps.isolate_value)
                assert not re.search(r"[A-Za-z]{2,}", strip_bidi(text)), (lang, ctx, n, text)
                alone = n == 1 and c.exactly_one or [m for m in range(200) if steps.plural_form(m) == steps.plural_form(n)] == [n]
                assert alone or str(n) in strip_bidi(text), (lang, ctx, n, text)
    assert not steps.missed
