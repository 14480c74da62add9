"""One truth for numbers: messages carrying a spec number agree with it in every language."""
from __future__ import annotations

import pytest
import yaml

from president.i18n.render import render_lines
from president.spec import parse_spec

from i18n_support import ROOT


def _spec_with(**players):
    data = yaml.safe_load((ROOT / "spec" / "president.yaml").read_text(encoding="utf-8"))
    data["players"].update(players)
    return parse_spec(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "<edited spec>")


def _players_line(spec, lang):
    return next(text for rules, text in render_lines(spec, lang, ROOT) if "setup.players" in rules)


@pytest.mark.parametrize("top", range(3, 13))
@pytest.mark.slow
def test_arabic_players_sentence_agrees_from_3_to_12(top):
    spec = _spec_with(min=3, max=top)
    line = _players_line(spec, "ar")
    assert f"3 إلى {top} " in line
    noun = "لاعبين" if top <= 10 else "لاعبًا"  # 3-10: plural genitive; 11-99: singular accusative
    assert line.endswith(f"{top} {noun}."), line


@pytest.mark.slow
def test_russian_players_sentence_keeps_one_construction():
    line = _players_line(_spec_with(max=6), "ru")
    assert line.endswith("3–6 игрокам.") and "от " not in line
    assert _players_line(_spec_with(max=12), "ru").endswith("3–12 игрокам.")


def test_number_words_a_catalog_declares_are_accepted(tmp_path):
    from president.project.check import number_words, translation_problems
    from president.i18n.catalogs import PLURAL_FORMS, po_path
    words = number_words(po_path(ROOT, "ar", "steps"))
    assert "واحدة" in words[1]
    src = "the Vice-President chooses 1 card to give back"
    assert translation_problems(src, "يختار ورقة واحدة ليعيدها", PLURAL_FORMS["ar"], words=words) == []
    assert translation_problems(src, "يختار ورقة ليعيدها", PLURAL_FORMS["ar"], words=words)  # the number is lost
    assert translation_problems(src, "يختار ورقة واحدة ليعيدها", PLURAL_FORMS["ar"])  # undeclared: refused
    po = tmp_path / "x.po"
    po.write_text('# number-words: 1 = one; 3 = three trois\nmsgid ""\nmsgstr ""\n', encoding="utf-8")
    assert number_words(po) == {1: ("one",), 3: ("three", "trois")}


@pytest.mark.slow
def test_players_max_8_fails_check_as_it_fails_conform(tmp_path):
    """A spec edit that passes check also passes conform: here neither does."""
    from president.protocol.client import InProcessClient
    from president.conform.runner import run_scenarios
    from president.game.engine import Ruleset
    from president.project.build import Project, read_spec
    from president.project.check import run_checks
    from president.protocol.server import Session

    from i18n_support import copy_project, edit_spec
    root = copy_project(tmp_path)
    edit_spec(root, lambda d: d["players"].update(max=8))
    spec = read_spec(root / "spec" / "president.yaml")
    clause = next(c for c in spec.clauses if c.id == "setup.players")
    assert clause.title.endswith("to 3 to 8 players")  # the title takes its numbers from the spec
    failed = [r.id for r in run_scenarios(InProcessClient(lambda: Session(Ruleset.from_spec(spec))), spec)
              if r.outcome != "pass"]
    assert failed == ["setup.players/seven-players-are-refused"]
    problems = run_checks(Project.resolve(root))
    held = [p for p in problems if "does not hold" in p.message]
    assert len(held) == 1 and "seven players are refused" in held[0].message
    assert held[0].file.endswith("spec/president.yaml") and held[0].line
    # the translated titles follow by themselves: the spec's numbers change no msgid (issue 31)
    assert not any("Deal all cards as evenly as possible" in p.message for p in problems)
