"""The translator commands and the CLI's error behaviour."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from president.cli.i18n import i18n
from president.cli.project import build, check

from i18n_support import project  # noqa: F401 (fixture)


def invoke(cmd, *args):
    return CliRunner().invoke(cmd, list(args))


@pytest.mark.slow
def test_update_is_idempotent_and_reproducible(project):
    before = {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")}
    result = invoke(i18n, "update")
    assert result.exit_code == 0, result.output
    assert {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")} == before
    joined = b"".join(before.values())
    assert not re.search(rb"Creation-Date", joined)  # no clock time: the revision date is fixed
    assert set(re.findall(rb"PO-Revision-Date: ([^\\]*)", joined)) == {b"1970-01-01 00:00+0000"}


@pytest.mark.slow
def test_extract_then_update_brings_new_spec_messages(project):
    spec = project / "spec" / "president.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("{id: goal, title: Goal}",
                                                               "{id: goal, title: Aim}"), encoding="utf-8")
    assert invoke(i18n, "update").exit_code == 0
    pot = (project / "locales" / "rules.pot").read_text(encoding="utf-8")
    assert 'msgctxt "section"\nmsgid "Aim"' in pot
    result = invoke(check)
    assert result.exit_code == 1
    assert re.search(r"ru/LC_MESSAGES/rules\.po:\d+: ru: (fuzzy translation of|untranslated) 'Aim'", result.output)
    refused = invoke(build)
    assert refused.exit_code == 1 and "no translation for 'Aim' (msgctxt 'section')" in refused.output


def test_stats(project):
    result = invoke(i18n, "stats")
    assert result.exit_code == 0
    assert re.search(r"^ru\s+(\d+)\s+\1\s+0\s+0\s+\d+  rules$", result.output, re.M)
    assert re.search(r"^ru\s+(\d+)\s+\1\s+0\s+0\s+\1  steps$", result.output, re.M)  # all unreviewed


def test_pseudo_and_lines(project):
    result = invoke(i18n, "pseudo", "--format", "html")
    assert result.exit_code == 0 and "⟦Ðéàĺ" not in result.output and "⟦Đéàĺ àĺĺ çàŕđš" in result.output
    lines = invoke(i18n, "lines", "el")
    assert lines.exit_code == 0 and '"rules": ["pass.final"]' in lines.output


def test_user_errors_are_listed_without_traceback(project, tmp_path):
    result = invoke(build, "--spec", str(tmp_path / "missing.yaml"))
    assert result.exit_code == 1
    assert "missing.yaml: cannot read the spec" in result.output and "Traceback" not in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [\n", encoding="utf-8")
    result = invoke(build, "--spec", str(bad))
    assert result.exit_code == 1 and re.search(r"bad\.yaml:\d+: +not valid YAML", result.output)


def test_help_texts():
    import president.cli.i18n as module
    from president.i18n.catalogs import LANGS
    assert module.LANGS == LANGS
    for cmd in (build, check, i18n):
        assert invoke(cmd, "--help").exit_code == 0
