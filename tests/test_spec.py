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
    assert spec.deck.suits == ("C", "D", "H", "S") and spec.deck.jokers == 0
    assert (spec.players.min, spec.players.max) == (3, 6)
    assert (spec.combinations.min_cards, spec.combinations.max_cards) == (1, 4)
    assert spec.combinations.sequences is False and spec.combinations.equality is False
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
    text = text.replace("  jokers: 0", "  jokers: 2")
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
    assert "deck.jokers" in by_path and "jokers: 2" in lines[by_path["deck.jokers"].line - 1]
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
