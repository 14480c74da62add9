"""`president check`: passes on the project, and reports each kind of problem with file and line."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from president.cli.project import build, check
from president.project.build import Project
from president.i18n.catalogs import PLURAL_FORMS
from president.project.check import CHECKS, register_check, run_checks, translation_problems

from i18n_support import ROOT, edit_spec, project  # noqa: F401 (fixture)


@pytest.mark.slow
def test_check_passes_on_the_project():
    """The real check, on the real tree (features from the real generator)."""
    problems = run_checks(Project.resolve(ROOT))
    assert not problems, "\n".join(map(str, problems))


@pytest.fixture
def built(project):
    assert CliRunner().invoke(build, []).exit_code == 0
    return project


def problems_text(root) -> str:
    return "\n".join(map(str, run_checks(Project.resolve(root))))


def po(root, lang):
    return root / "locales" / lang / "LC_MESSAGES" / "rules.po"


@pytest.mark.slow
def test_clean_copy_passes(built):
    result = CliRunner().invoke(check, [])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_drift_is_reported_with_line(built):
    path = built / "rules" / "el.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("3-6", "3-7"), encoding="utf-8")
    (built / "rules" / "xx.txt").write_text("stale", encoding="utf-8")
    (built / "features" / "rules.feature").write_text("edited\n", encoding="utf-8")
    result = CliRunner().invoke(check, [])
    assert result.exit_code == 1
    assert "rules/el.txt:11: differs from what would be generated now (drift)" in result.output
    assert "features/rules.feature:1: differs" in result.output
    assert "rules/xx.txt: stale generated file" in result.output


@pytest.mark.slow
def test_spec_change_without_build_is_drift(built):
    edit_spec(built, lambda d: d["players"].update(max=8))
    text = problems_text(built)
    assert "rules/ru.txt:" in text and "drift" in text


@pytest.mark.slow
def test_invalid_spec_is_reported(built):
    edit_spec(built, lambda d: d["players"].update(min=9))
    text = problems_text(built)
    assert re.search(r"spec/president.yaml:\d+: at players min 9 is greater than max 6", text), text


@pytest.mark.slow
def test_fuzzy_missing_obsolete_and_placeholders(built):
    path = po(built, "ru")
    text = path.read_text(encoding="utf-8")
    # fuzzy
    text = text.replace('msgid "no equality"', '#, fuzzy\nmsgid "no equality"', 1)
    # placeholder dropped and a number typed in
    text = text.replace('msgstr "Версия %(version)s"', 'msgstr "Версия 1.1.0"', 1)
    # missing: delete the goal message entirely
    text, found = re.subn(r'#: [^\n]*\nmsgid "Be the first[^\n]*"\nmsgstr (?:"[^\n]*"\n)+\n', "", text, count=1)
    assert found == 1
    # obsolete
    text += '\nmsgid "An old sentence."\nmsgstr "Старая фраза."\n'
    path.write_text(text, encoding="utf-8")
    out = problems_text(built)
    assert re.search(r"rules\.po:\d+: ru: fuzzy translation of 'no equality'", out), out
    assert re.search(r"rules\.po:\d+: ru: 'Version %\(version\)s': msgstr lacks placeholder\(s\) %\(version\)s", out)
    assert "'Version %(version)s': msgstr has number(s) the source lacks: 0, 1" in out
    # not in the catalog: reported once, where the message comes from (template file and line)
    assert re.search(r"president/templates/sheet\.j2:\d+: ru: \S*rules\.po lacks the message 'Be the first to get rid", out), out
    assert re.search(r"rules\.po:\d+: ru: obsolete message 'An old sentence.'", out)


@pytest.mark.slow
def test_plural_forms_must_be_explicit(built):
    path = po(built, "hy")
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'"Plural-Forms:[^"]*"\n', "", text), encoding="utf-8")
    assert "hy/LC_MESSAGES/rules.po:1: no explicit Plural-Forms header" in problems_text(built)


@pytest.mark.slow
def test_unknown_clause_id_in_template(monkeypatch, built):
    import president.project.check as check_mod
    monkeypatch.setattr(check_mod, "template_clause_ids", lambda: [("sheet.j2", 7, "no.such-clause")])
    assert "president/templates/sheet.j2:7: unknown clause id 'no.such-clause'" in problems_text(built)


def test_template_clause_ids_are_found():
    from president.project.check import template_clause_ids
    ids = {cid for _, _, cid in template_clause_ids()}
    assert {"pass.final", "revolution.quad-reverses", "exchange.scum", "setup.players"} <= ids


@pytest.mark.slow
def test_checks_are_extensible(built):
    from president.errors import Problem

    def extra(ctx):
        return [Problem("x.yaml", 3, "", "extra check ran")]
    register_check(extra)
    try:
        assert "x.yaml:3: extra check ran" in problems_text(built)
    finally:
        CHECKS.remove(extra)


def test_translation_problems_rules():
    ar = PLURAL_FORMS["ar"]
    assert translation_problems("Version %(version)s", "Версия %(version)s", ar) == []
    # native digits count as the same number; English number words count as numbers
    assert translation_problems("down to 1 point", "حتى ١ نقطة", ar) == []
    assert translation_problems("one point", "1 очка", ar) == []
    assert translation_problems("one point", "2 очка", ar)
    assert translation_problems("from 4 players", "от игроков", ar)
    # a plural form used by a single n may spell the number out
    assert translation_problems(("%(num)d deal", "%(num)d deals"),
                                ("%(num)d a", "جولة واحدة", "جولتان", "%(num)d b", "%(num)d c", "%(num)d d"), ar) == []
    assert translation_problems(("%(num)d deal", "%(num)d deals"), ("x", "%(num)d y"), PLURAL_FORMS["el"]) == []
    assert translation_problems(("%(num)d deal", "%(num)d deals"), ("x", "%(num)d y", "%(num)d z"),
                                PLURAL_FORMS["ru"])
    assert translation_problems("%(a)s", "%(a)s %(b)s", ar)
    assert translation_problems("%(a)s", "%(a", ar) or translation_problems("%(a)s", "%(a)s %", ar)
