from pathlib import Path

import pytest

from president.errors import SpecError
from president.resources import packaged_root
from president.spec import load_spec, parse_spec

SPEC = packaged_root() / "spec" / "president.yaml"


def spec_text() -> str:
    return SPEC.read_text(encoding="utf-8")


def test_canonical_spec_loads_into_frozen_dataclasses():
    spec = load_spec(SPEC)
    assert (spec.game, spec.variant, spec.version) == ("President", "CardVerse", "1.1.0")
    assert spec.deck.ranks == ("3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2")
    assert spec.deck.suits == ("C", "D", "H", "S") and spec.option("jokers").default == 0
    assert (spec.players.min, spec.players.max) == (3, 6)
    assert (spec.combinations.min_cards, spec.combinations.max_cards) == (1, 4)
    assert spec.option("sequences").default is False and spec.option("equality").default is False
    assert spec.combinations.min_run == 3
    assert spec.option("revolution").default is True and spec.option("deals").default == 1
    with pytest.raises(AttributeError):
        spec.version = "2"  # type: ignore[misc]


def test_required_clause_ids_exist():
    ids = set(load_spec(SPEC).clause_ids)
    for cid in ["play.same-rank", "play.count-matches", "play.strictly-higher", "pass.final",
                "revolution.quad-reverses", "revolution.no-clear", "lead.next-active", "turn.order",
                "lead.must-play", "trick.end", "deal.end", "setup.dealing", "exchange.scum", "exchange.vice",
                "exchange.best", "exchange.order", "score.points", "setup.partial-hands"]:
        assert cid in ids


def test_every_clause_belongs_to_a_section():
    spec = load_spec(SPEC)
    sections = {s.id for s in spec.sections}
    assert all(c.section in sections for c in spec.clauses)


def test_broken_spec_reports_every_problem_with_line_and_path(tmp_path: Path):
    text = spec_text().replace("players: {min: 3, max: 6}", "players: {min: three, max: 6}")
    text = text.replace("version: 1.1.0", "version: one")
    text = text.replace("  deals: {type: int, default: 1, min: 1,", "  deals: {type: int, default: 1, min: -1,")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(bad)
    problems = info.value.problems
    assert len(problems) == 3
    lines = text.splitlines()
    for p in problems:
        assert p.file == str(bad) and p.line is not None
    by_path = {p.path: p for p in problems}
    assert "players.min" in by_path and "three" in lines[by_path["players.min"].line - 1]
    assert "version" in by_path and "version: one" in lines[by_path["version"].line - 1]
    assert "options.deals.min" in by_path and "min: -1" in lines[by_path["options.deals.min"].line - 1]
    assert str(bad) in str(info.value)


def test_semantic_problems_are_reported(tmp_path: Path):
    text = spec_text().replace("players: {min: 3, max: 6}", "players: {min: 7, max: 6}")
    text = text.replace("    section: score\n", "    section: scoring\n", 1)
    with pytest.raises(SpecError) as info:
        parse_spec(text, "x.yaml")
    messages = [p.message for p in info.value.problems]
    assert any("greater than max" in m for m in messages)
    assert any("unknown section 'scoring'" in m for m in messages)


def test_yaml_syntax_error_has_a_line():
    with pytest.raises(SpecError) as info:
        parse_spec("game: [unclosed\n", "y.yaml")
    assert info.value.problems[0].line is not None


def test_missing_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "nope.yaml")


def test_every_option_value_names_its_clause_and_defaults_are_1_1_0():
    spec = load_spec(SPEC)
    names = [o.name for o in spec.options]
    assert names == ["revolution", "deals", "equality", "sequences", "jokers", "first_lead", "leader_may_pass",
                     "scoring"]
    defaults = {o.name: o.default for o in spec.options}
    assert defaults == {"revolution": True, "deals": 1, "equality": False, "sequences": False, "jokers": 0,
                        "first_lead": "seat0", "leader_may_pass": False, "scoring": "places"}
    assert {o.name for o in spec.options if o.locked} == {"equality", "sequences", "jokers"}
    ids = set(spec.clause_ids)
    for o in spec.options:
        assert o.clauses() and set(o.clauses()) <= ids
    assert spec.option("first_lead").value_clause("holder:4C") == "option.first-lead.holder"
    assert spec.option("jokers").value_clause(True) is None and spec.option("jokers").value_clause(3) is None


@pytest.mark.parametrize("edit,message", [
    (lambda t: t.replace("      - {value: true, clause: option.equality.on}",
                         "      - {value: true, clause: option.equality.maybe}"), "unknown clause 'option.equality.maybe'"),
    (lambda t: t.replace("    default: places\n", "    default: most\n"), "default 'most' is not one of the values"),
    (lambda t: t.replace("      - {value: 2, clause: option.jokers.two}", "      - {value: two, clause: option.jokers.two}"),
     "'two' is not a int"),
])
def test_option_problems_are_reported(edit, message):
    with pytest.raises(SpecError) as info:
        parse_spec(edit(spec_text()), "x.yaml")
    assert any(message in p.message for p in info.value.problems), info.value.problems


def test_an_option_value_the_engine_cannot_play_is_refused():
    from president.game.engine import Ruleset

    text = spec_text().replace("      - {value: 2, clause: option.jokers.two}",
                               "      - {value: 2, clause: option.jokers.two}\n      - {value: 3, clause: option.jokers.two}")
    with pytest.raises(SpecError) as info:
        Ruleset.from_spec(parse_spec(text, "x.yaml"))
    assert "cannot play jokers = 3" in str(info.value)
