"""The spec drives the text: builds in a copy of the project, variants outside it."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from president.cli.project import build, check

from i18n_support import ALL_LANGS, PUBLISHED, SEEDS, edit_spec, project  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow


def run(cmd, *args):
    return CliRunner().invoke(cmd, list(args), catch_exceptions=False)


def sheets(root: Path) -> dict[str, str]:
    return {lang: (root / "rules" / f"{lang}.txt").read_text(encoding="utf-8") for lang in ALL_LANGS}


def setup_line(text: str) -> str:
    return text.split("\n\n")[5].split("\n")[0]  # setup list, first item


def test_build_in_copy_writes_all_languages_and_formats(project):
    result = run(build)
    assert result.exit_code == 0, result.output
    for lang in ALL_LANGS:
        for fmt in ("txt", "md", "html"):
            assert (project / "rules" / f"{lang}.{fmt}").is_file()
    for lang in PUBLISHED:
        assert (project / "rules" / f"{lang}.txt").read_bytes() == (SEEDS / f"{lang}.txt").read_bytes()
    assert (project / "features" / "rules.feature").read_text() == "Feature: President 1.1.0\n"
    before = {p: p.read_bytes() for p in (project / "rules").iterdir()}
    assert run(build).exit_code == 0
    assert {p: p.read_bytes() for p in (project / "rules").iterdir()} == before  # reproducible
    assert run(check).exit_code == 0


def test_players_max_drives_the_setup_line(project):
    assert run(build).exit_code == 0
    old = sheets(project)
    edit_spec(project, lambda d: d["players"].update(max=8))
    assert run(build).exit_code == 0
    new = sheets(project)
    for lang in ALL_LANGS:
        assert "6" in setup_line(old[lang]) and "8" not in setup_line(old[lang])
        assert setup_line(new[lang]) == setup_line(old[lang]).replace("6", "8"), lang
        assert new[lang].replace(setup_line(new[lang]), "") == old[lang].replace(setup_line(old[lang]), "")


def test_revolution_off_by_default_changes_variant_and_revolution_lines(project):
    assert run(build).exit_code == 0
    old = sheets(project)
    edit_spec(project, lambda d: d["options"]["revolution"].update(default=False))
    result = run(build)
    assert result.exit_code == 0, result.output
    new = sheets(project)
    for lang in ALL_LANGS:
        old_lines, new_lines = old[lang].split("\n"), new[lang].split("\n")
        changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
        # variant line, setup revolution line, quad obligations line, option line
        assert len(changed) == 4, (lang, changed)
        assert changed[0] == 2
    assert "revolution off by default" in new["en"]
    assert "revolution=true enables reversals" in new["en"]


@pytest.mark.parametrize("edit", [
    lambda d: d["options"]["revolution"].update(locked=True),
    lambda d: d["options"]["revolution"].update(locked=True, default=False),
    lambda d: d["options"]["deals"].update(default=3),
    lambda d: d["options"]["deals"].update(default=2, locked=True),
])
def test_every_option_state_is_translated(project, edit):
    edit_spec(project, edit)
    result = run(build)
    assert result.exit_code == 0, result.output


def test_deals_use_plural_forms(project):
    edit_spec(project, lambda d: d["options"]["deals"].update(default=3))
    assert run(build).exit_code == 0
    text = sheets(project)
    assert "3 deals by default" in text["en"]
    assert "по умолчанию — после 3 раундов." in text["ru"]
    assert "وهو 3 جولات افتراضيًا" in text["ar"]


def test_version_bump_appears_everywhere(project):
    edit_spec(project, lambda d: d.update(version="1.2.0"))
    assert run(build).exit_code == 0
    for lang, text in sheets(project).items():
        assert "1.2.0" in text.split("\n")[2] and "1.1.0" not in text, lang
    assert "1.2.0" in (project / "rules" / "ar.html").read_text(encoding="utf-8")


def test_variant_outside_project_builds_to_out(project, tmp_path):
    variant = tmp_path / "my-variant.yaml"
    variant.write_text((project / "spec" / "president.yaml").read_text(encoding="utf-8")
                       .replace("players: {min: 3, max: 6}", "players: {min: 3, max: 7}"), encoding="utf-8")
    out = tmp_path / "out"
    result = run(build, "--spec", str(variant), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "3–7" in (out / "ru.txt").read_text(encoding="utf-8")


def _drop_translation(root: Path, lang: str, context: str, msgid: str) -> None:
    """Empty one msgstr of root's rules catalog (a translator has not written it yet)."""
    path = root / "locales" / lang / "LC_MESSAGES" / "rules.po"
    text = path.read_text(encoding="utf-8")
    entry = f'msgctxt "{context}"\nmsgid "{msgid}"\nmsgstr "'
    start = text.index(entry) + len(entry)
    path.write_text(text[:start] + text[text.index('"', start):], encoding="utf-8")


def test_variant_needing_untranslated_sentences_is_refused_with_a_list(project, tmp_path):
    _drop_translation(project, "ru", "suit", "♥")
    _drop_translation(project, "el", "exchange: cards chosen to give back: the number in words", "three")
    path = edit_spec(project, lambda d: (d["exchange"][0].update(cards=3),
                                         d["options"]["first_lead"].update(default="holder:RH")))
    result = run(check)  # the catalogs carry every value's messages: check names the gap before any build
    assert result.exit_code == 1, result.output
    assert "locales/ru/LC_MESSAGES/rules.po:" in result.output and "ru: untranslated '♥' (msgctxt 'suit')" in result.output
    assert "el: untranslated 'three' (msgctxt 'exchange: cards chosen to give back: the number in words')" in result.output
    out = tmp_path / "out"
    result = run(build, "--spec", str(path), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "ru: no translation for '♥' (msgctxt 'suit')" in result.output
    assert "el: no translation for 'three' (msgctxt 'exchange: cards chosen to give back: the number in words')" in result.output
    assert "nothing written" in result.output
    assert not out.exists()


def test_every_exchange_count_builds_with_its_plural_form(project, tmp_path):
    path = edit_spec(project, lambda d: (d["exchange"][0].update(cards=3), d["exchange"][1].update(cards=2, min_players=5)))
    out = tmp_path / "out"
    result = run(build, "--spec", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    text = {lang: (out / f"{lang}.txt").read_text(encoding="utf-8") for lang in ALL_LANGS}
    assert "their three best cards" in text["en"] and "From five players on, the vice-ranks also exchange two cards." in text["en"]
    assert "свои три лучшие карты" in text["ru"] and "Начиная с пяти игроков, вице-ранги также обмениваются двумя картами." in text["ru"]
    assert "أفضل ثلاث بطاقات لديه" in text["ar"] and "يتبادل أصحاب الرتبة النائبة بطاقتين كذلك" in text["ar"]


def test_unsupported_spec_shape_is_refused(project):
    edit_spec(project, lambda d: d["titles"][1].update(place=3))
    result = run(build)
    assert result.exit_code == 1
    assert "title place 3" in result.output and "nothing written" in result.output


def test_revolution_cards_and_scoring_step_other_than_published_build_and_are_stated(project, tmp_path):
    path = edit_spec(project, lambda d: (d["revolution"].update(cards=3), d["scoring"].update(step=2)))
    out = tmp_path / "out"
    result = run(build, "--spec", str(path), "--out", str(out))
    assert result.exit_code == 0, result.output
    text = {lang: (out / f"{lang}.txt").read_text(encoding="utf-8") for lang in ALL_LANGS}
    assert "a play of exactly 3 cards of one rank reverses the ranking" in text["en"] and "quad" not in text["en"].split("Medium")[0]
    assert "then 2 points less for each place." in text["en"]
    assert "выкладка ровно из 3 карт одного ранга" in text["ru"] and "на 2 очка меньше" in text["ru"]
    assert "ثم تنقص نقطتان مع كل مركز" in text["ar"]  # the dual spells out the number
