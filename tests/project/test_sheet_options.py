"""Sheets for other option values: true sentences in six languages; `check` catches a sentence that
contradicts the spec (in a copy of the project, see tests/i18n/test_i18n_variants.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from president.cli.project import build

from i18n_support import ALL_LANGS, PUBLISHED, SEEDS, edit_spec, project  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow


def run(cmd, *args):
    return CliRunner().invoke(cmd, list(args), catch_exceptions=False)


def sheets(root: Path) -> dict[str, str]:
    return {lang: (root / "rules" / f"{lang}.txt").read_text(encoding="utf-8") for lang in ALL_LANGS}


def set_default(name, value, locked=None):
    def edit(d):
        d["options"][name]["default"] = value
        if locked is not None:
            d["options"][name]["locked"] = locked
    return edit


HOUSE = [
    (set_default("equality", True), ["equality allowed", "The rank must be higher or equal; an equal rank skips"],
     ["no equality", "strictly higher"]),
    (set_default("jokers", 2), ["Two jokers, X1 and X2, are added to the deck", "Nothing beats a lone joker",
                                "There are no sequences.", "Equality and the ladder remain unavailable.",
                                "The joker is always played."], ["There are no jokers"]),
    (set_default("jokers", 1, locked=False), ["One joker, X1", "The option jokers=0 is a house rule"], ["no jokers"]),
    (set_default("sequences", True), ["Runs of at least 3 consecutive cards of one suit", "A run is followed only by",
                                      "There are no jokers.", "of the same rank, or a run.", "or form a run."],
     ["no sequences"]),
    (set_default("first_lead", "holder:3C"), ["The player who holds the 3♣ leads the first deal"],
     ["The first seat leads"]),
    (set_default("leader_may_pass", True), ["The leader of an empty trick may pass"], []),
    (set_default("scoring", "president_only"), ["only the first out scores one point"], ["as many points as"]),
    (set_default("scoring", "none"), ["No points are scored."], ["as many points as", "Points add up"]),
    (set_default("equality", False, locked=False), ["The option equality=true is a house rule",
                                                    "The joker and the ladder remain unavailable."], []),
]


@pytest.mark.parametrize("edit,present,absent", HOUSE)
def test_other_option_values_render_true_sentences_in_six_languages(project, edit, present, absent):
    assert run(build).exit_code == 0
    old = sheets(project)
    edit_spec(project, edit)
    result = run(build)
    assert result.exit_code == 0, result.output  # every sentence is translated in all six languages
    new = sheets(project)
    for text in present:
        assert text in new["en"], (text, new["en"])
    for text in absent:
        assert text not in new["en"], text
    for lang in PUBLISHED:
        assert new[lang] != old[lang], lang
        assert "X1" in new[lang] or "X1" not in new["en"]
    from president.project.build import Project
    from president.project.check import run_checks
    from president.project.option_check import check_sheet_options

    assert run_checks(Project.resolve(project), [check_sheet_options]) == []  # no contradiction either


def test_published_sheets_stay_byte_identical_for_the_defaults(project):
    assert run(build).exit_code == 0
    for lang in PUBLISHED:
        assert (project / "rules" / f"{lang}.txt").read_bytes() == (SEEDS / f"{lang}.txt").read_bytes()


def test_check_fails_on_a_sentence_that_contradicts_the_spec(project, tmp_path, monkeypatch):
    """The template of before: "There are no jokers and no sequences." whatever the spec says."""
    import president.i18n.render as render
    from president.project.build import Project
    from president.project.check import run_checks
    from president.project.option_check import check_sheet_options

    templates = tmp_path / "templates"
    shutil.copytree(render.TEMPLATES_DIR, templates)
    sheet = templates / render.CONTENT_TEMPLATE
    text = sheet.read_text(encoding="utf-8")
    start = text.index("{% if jok.default == 0 and not seq.default %}")
    end = text.index("{% endif %}", text.index("{% do sheet.item(rev_setup ~ \" \" ~ joker_text")) + len("{% endif %}")
    old = ('{% do sheet.item(rev_setup ~ " " ~ _("There are no jokers and no sequences."), '
           '"revolution.quad-reverses", "setup.no-jokers-sequences") %}')
    sheet.write_text(text[:start] + old + text[end:], encoding="utf-8")
    monkeypatch.setattr(render, "TEMPLATES_DIR", templates)
    render.environment.cache_clear()
    try:
        assert run_checks(Project.resolve(project), [check_sheet_options]) == []  # true for 1.1.0
        edit_spec(project, set_default("jokers", 2))
        problems = run_checks(Project.resolve(project), [check_sheet_options])
        assert problems and "There are no jokers and no sequences." in problems[0].message
        assert "option jokers" in problems[0].message
    finally:
        render.environment.cache_clear()
