"""Conformance scenarios in six languages: catalogs, parsers, bidi isolation, checks, conform --lang."""
from __future__ import annotations

import json
import re
from pathlib import Path

import gherkin
import pytest
from click.testing import CliRunner

from president.scenarios.model import Op, build_scenarios
from president.project.build import Project
from president.i18n.catalogs import CATALOG_LANGS
from president.project.check import run_checks
from president.i18n.extract import catalog_stats
from president.i18n.features import reduce_feature, translated_features
from president.i18n.gherkin_words import KINDS, LEADS, accepted_keyword, keyword_table
from president.i18n.steps_catalog import (LRI, PDI, StepLanguage, gherkin_keywords, merge_catalog, step_language,
                                          steps_template)
from president.project.steps_check import check_steps_catalogs, check_translated_features
from president.spec import default_spec

from i18n_support import ALL_LANGS, ROOT, copy_project

SPEC = default_spec()
CARD = re.compile(r"(?<![\w.])(?:10|[2-9JQKA])[CDHS](?!\w)")


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_every_step_round_trips_to_one_template(lang):
    steps = step_language(ROOT, lang)
    for sc in build_scenarios(SPEC):
        for op in sc.ops:
            key, args = steps.parse(steps.render(op.key, op.kwargs), op.kind)  # exactly one template matches
            assert Op.of(key, **args) == op


def test_english_language_renders_the_step_table():
    steps = StepLanguage("en")
    assert all(steps.render(op.key, op.kwargs) == op.text for sc in build_scenarios(SPEC) for op in sc.ops)


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_committed_features_reduce_to_the_english_ops(lang):
    for english in sorted((ROOT / "features").glob("*.feature")):
        en = reduce_feature(english.read_text(encoding="utf-8"))
        tr = reduce_feature((ROOT / "features" / lang / english.name).read_text(encoding="utf-8"), ROOT)
        assert [(s.clause, s.ops) for s in tr] == [(s.clause, s.ops) for s in en]
        assert len({s.title for s in tr}) == len(tr)  # pytest-bdd needs unique titles per feature


def test_gherkin_keywords_come_from_gherkin_languages_json():
    """Each chosen keyword (president/i18n/gherkin_words.py) is one Gherkin accepts, followed by
    its lead if any, and the features are written with it."""
    data = json.loads((Path(gherkin.__file__).parent / "gherkin-languages.json").read_text(encoding="utf-8"))
    for lang, code in zip(CATALOG_LANGS, ("ar", "el", "ru", "am", "hi")):
        kw = gherkin_keywords(lang)
        assert set(kw) == set(KINDS)
        for kind, written in kw.items():
            accepted = accepted_keyword(written, data[code][kind])
            assert accepted is not None, (lang, kind, written)
            assert written == accepted + LEADS.get((lang, kind), ""), (lang, kind, written)
        text = (ROOT / "features" / lang / "flow.feature").read_text(encoding="utf-8")
        assert text.startswith(f"# language: {code}\n")
        assert f"\n{kw['feature']}: " in text and f"\n    {kw['scenario']}: " in text
        assert re.search(rf"^      {re.escape(kw['given'])}\S", text, re.M)
        assert re.search(rf"^      {re.escape(kw['when'])}\S", text, re.M)


def test_docs_show_the_keyword_table():
    assert keyword_table() in (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8")


def test_the_keywords_a_reader_chose():
    """T7 of issue 26: not the first keyword of each kind (ar متى "when?", hy Եթե "if")."""
    assert gherkin_keywords("ar")["when"] == "عندما "
    assert gherkin_keywords("hy")["when"] == "Երբ "
    assert gherkin_keywords("el")["given"] == "Δεδομένου ότι "
    steps = step_language(ROOT, "el")
    phrase = steps.render("table", {"players": 3})
    assert steps.match("table", "ότι " + phrase) == steps.match("table", phrase) == {"players": 3}
    assert "      Δεδομένου ότι " + phrase + "\n" in (ROOT / "features" / "el" / "flow.feature").read_text(encoding="utf-8")


def test_arabic_card_codes_and_numbers_are_isolated():
    for path in sorted((ROOT / "features" / "ar").glob("*.feature")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith(("@", "#")):
                continue
            outside = re.sub(f"{LRI}[^{PDI}]*{PDI}", " ", line)
            assert not CARD.search(outside), f"{path.name}: card code outside an isolate: {line}"
            assert not re.search(r"\d+(?:، \d+)+", outside), f"{path.name}: number list outside an isolate: {line}"
    steps = step_language(ROOT, "ar")
    phrase = steps.render("legal", {"actions": ("pass", "3C 3D", "give 10H")})
    assert f"{LRI}3C 3D{PDI}" in phrase and f"{LRI}10H{PDI}" in phrase
    assert steps.parse(phrase, "then") == ("legal", {"actions": ("pass", "3C 3D", "give 10H")})
    assert step_language(ROOT, "ru").render("hand", {"seat": 1, "cards": ("3C",)}).count(LRI) == 0


def test_arabic_report_isolates_ids_and_counts():
    from president.protocol.client import InProcessClient
    from president.conform.localized import localized_summary, run_localized
    results = run_localized(InProcessClient(), SPEC, "ar", ["setup.players"], None, ROOT)
    text = localized_summary(SPEC, results, None, "ref", "ar", root=ROOT)
    assert f"{LRI}setup.players{PDI}" in text and f"{LRI}3/3{PDI}" in text


def test_unreviewed_marks_survive_an_update_and_are_counted():
    steps_po = ROOT / "locales" / "ru" / "LC_MESSAGES" / "steps.po"
    from president.i18n.catalogs import load_catalog
    merged = merge_catalog(load_catalog(steps_po, "ru"), steps_template(SPEC), "ru")
    assert all("unreviewed" in m.user_comments for m in merged if m.id)
    rows = {row[0]: row for row in catalog_stats(ROOT, "steps")}
    assert rows["ru"][5] == rows["ru"][1] > 0


@pytest.fixture
def copy(tmp_path):
    return copy_project(tmp_path / "copy")


def test_checks_catch_placeholders_missing_messages_and_drift(copy):
    po = copy / "locales" / "el" / "LC_MESSAGES" / "steps.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgstr "η θέση {seat:d} παίζει {cards:Cards}"', 'msgstr "η θέση {seat} παίζει {cards:Cards}"')
    text = re.sub(r'(msgctxt "nobody-passed"\nmsgid "[^"]*"\nmsgstr )"[^"]*"', r'\1""', text)
    po.write_text(text, encoding="utf-8")
    (copy / "locales" / "steps.pot").write_text("", encoding="utf-8")
    problems = [str(p) for p in check_steps_catalogs(_ctx(copy))]
    assert any("steps.po" in p and "lacks placeholder(s) {seat:d}" in p for p in problems)
    assert any("untranslated 'nobody has passed'" in p for p in problems)
    assert any("steps.pot" in p and "drift" in p for p in problems)


@pytest.mark.slow
def test_check_catches_a_translated_feature_that_reads_differently(copy):
    """A hand edit of a feature file is drift (one line); a translation that makes a phrase read
    as another template is reported in the features `build` writes from it."""
    from president.project.check import check_drift
    from i18n_support import plant
    path = copy / "features" / "ru" / "flow.feature"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("игрок 0 играет 5C\n", "игрок 0 швыряет 5C\n", 1), encoding="utf-8")
    assert check_translated_features(_ctx(copy)) == []
    assert [p.file for p in check_drift(_ctx(copy))] == ["features/ru/flow.feature"]
    path.write_text(text, encoding="utf-8")
    plant(copy / "locales" / "ru" / "LC_MESSAGES" / "steps.po", "seat {seat:d} tries to play {cards:Cards}",
          "игрок {seat:d} играет {cards:Cards}", "try-play")
    problems = [str(p) for p in check_translated_features(_ctx(copy))]
    assert problems and all(p.startswith("features/ru/") for p in problems), problems


@pytest.mark.slow
def test_project_checks_pass_and_translated_features_are_up_to_date():
    assert [str(p) for p in run_checks(Project.resolve(ROOT))] == []
    files = translated_features(SPEC, ROOT)
    assert len(files) == 5 * len(list((ROOT / "features").glob("*.feature")))


def _ctx(root):
    from president.project.build import read_spec
    from president.project.check import CheckContext
    project = Project.resolve(root)
    return CheckContext(project, read_spec(project.spec_path))


@pytest.mark.slow
def test_conform_lang_passes_the_same_scenarios_in_every_language(tmp_path):
    from president.cli.conform import conform
    counts = {}
    for lang in ALL_LANGS:
        out = tmp_path / f"{lang}.json"
        result = CliRunner().invoke(conform, ["--lang", lang, "--games", "0", "--json", str(out), "-k", "flow."])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf-8"))
        totals = data["scenarios"]
        counts[lang] = (totals["passed"], totals["failed"], totals["errors"], [s["id"] for s in data["scenario_results"]])
        if lang == "ru":
            assert "пройден" in result.output and "Ведущий играет комбинацию" in result.output
    assert len({repr(v) for v in counts.values()}) == 1 and counts["en"][0] > 0
