"""Strict catalogs: whatever `msgfmt --check` refuses, build and check refuse too, with file and line."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from click.testing import CliRunner

from i18n_support import ROOT, project  # noqa: F401 (fixture)
from president.cli.main import main
from president.i18n.strict import po_problems

RU = ROOT / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
TRANSLATED = 'msgstr "революция всегда включена"'


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def broken_catalogs() -> dict[str, tuple[str, int]]:
    """name -> (catalog text, line the problem must be reported on), each made from the real ru catalog."""
    base = RU.read_text(encoding="utf-8")
    at = _line_of(base, TRANSLATED)
    first = 'msgid "revolution on by default"'
    version = 'msgstr "Версия %(version)s"'
    garbage = base.replace("\n" + first, "\ngarbage here\n" + first, 1)
    return {
        "unterminated string": (base.replace(TRANSLATED, TRANSLATED[:-1], 1), at),
        "keyword without string (msgstr ,)": (base.replace(TRANSLATED, "msgstr ,", 1), at),
        "garbage line": (garbage, _line_of(garbage, "garbage here")),
        "invalid escape": (base.replace(TRANSLATED, 'msgstr "рев\\qолюция"', 1), at),
        "text after the string": (base.replace(TRANSLATED, TRANSLATED + " x", 1), at),
        "msgid without msgstr": (base.replace(TRANSLATED + "\n", "", 1), at - 1),
        "duplicate msgid": (base + f'\n{first}\nmsgstr "x"\n', base.count("\n") + 2),
        "placeholder renamed": (base.replace(version, 'msgstr "Версия %(versio)s"', 1), _line_of(base, version)),
        "placeholder dropped": (base.replace(version, 'msgstr "Версия"', 1), _line_of(base, version)),
    }


CASES = broken_catalogs()


def test_the_shipped_catalogs_are_clean():
    for path in sorted((ROOT / "locales").rglob("*.po*")):
        assert po_problems(path) == [], path


@pytest.mark.parametrize("name", sorted(CASES))
def test_strict_reading_reports_the_line(tmp_path, name):
    text, line = CASES[name]
    path = tmp_path / "rules.po"
    path.write_text(text, encoding="utf-8")
    problems = po_problems(path)
    assert problems, name
    assert problems[0].line == line, [str(p) for p in problems]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("name", sorted(CASES))
def test_msgfmt_refuses_the_same_files(tmp_path, name):
    path = tmp_path / "rules.po"
    path.write_text(CASES[name][0], encoding="utf-8")
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True).returncode != 0
    path.write_text(RU.read_text(encoding="utf-8"), encoding="utf-8")
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True).returncode == 0


@pytest.mark.parametrize("name", ["unterminated string", "duplicate msgid", "placeholder renamed"])
@pytest.mark.slow
def test_build_and_check_refuse_a_broken_catalog(project, name):  # noqa: F811
    text, line = CASES[name]
    po = project / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    po.write_text(text, encoding="utf-8")
    sheet = project / "rules" / "ru.txt"
    before = sheet.read_bytes()
    runner = CliRunner()
    built = runner.invoke(main, ["build"])
    assert built.exit_code == 1
    assert f"rules.po:{line}:" in built.stderr
    assert "Traceback" not in built.output
    assert sheet.read_bytes() == before  # nothing rewritten
    checked = runner.invoke(main, ["check"])
    assert checked.exit_code == 1
    assert checked.stderr.count(f"locales/ru/LC_MESSAGES/rules.po:{line}:") == 1


@pytest.mark.slow
def test_check_reads_the_templates_strictly(project):  # noqa: F811
    pot = project / "locales" / "rules.pot"
    pot.write_text(pot.read_text(encoding="utf-8") + '\nmsgid "x\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1
    assert "locales/rules.pot:" in result.stderr and "not terminated" in result.stderr
