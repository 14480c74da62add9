"""Report paths (issue 27): a report never overwrites an input of the run (the spec, a catalog, a
template, a generated sheet or feature, the engine) nor another report of the same run, and a
name the file system cannot take is a one-line usage error. Each refusal: exit 2, one line, nothing
written. Run as the user would: `python -m president` in a copy of the project."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from president.atomic import NAME_MAX, staged_name
from president.resources import PACKAGE_DIR

from .support import president

FAKE = Path(__file__).resolve().parent / "fake_engine.py"
RUN = ("conform", "-n", "0", "-k", "setup.deal")  # a short run of the reference engine


def _refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len([ln for ln in lines if ln.startswith("Error:")]) == 1, result.stderr
    assert all(w in result.stderr for w in words), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def _tree(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("option, victim", [
    ("--json", "spec/president.yaml"),
    ("--html", "locales/ru/LC_MESSAGES/rules.po"),
    ("--junit", "rules/en.txt"),
    ("--cucumber-json", "features/setup.feature"),
    ("--json", "locales/steps.pot"),
])
@pytest.mark.slow
def test_a_report_never_overwrites_a_project_file(project, option, victim):
    before = _tree(project)
    result = president(project, *RUN, option, victim)
    _refused(result, victim, "an input of this run")
    assert _tree(project) == before


@pytest.mark.slow
def test_a_report_never_overwrites_a_template(project, tmp_path):
    """Through a symlink, the template the --html sheet is rendered from."""
    template = PACKAGE_DIR / "templates" / "rules.html.j2"
    before = template.read_bytes()
    link = tmp_path / "sheet.html"
    link.symlink_to(template)
    try:
        _refused(president(project, *RUN, "--html", str(link)), "an input of this run")
    finally:
        if template.read_bytes() != before:  # never leave the checkout broken, even when the test fails
            template.write_bytes(before)
    assert template.read_bytes() == before


@pytest.mark.slow
def test_a_hard_link_to_the_spec_is_the_spec(project):
    spec = project / "spec" / "president.yaml"
    before = spec.read_bytes()
    os.link(spec, project / "report.json")
    _refused(president(project, *RUN, "--json", "report.json"), "an input of this run")
    assert spec.read_bytes() == before


@pytest.mark.slow
def test_a_report_never_overwrites_the_engine(project, tmp_path):
    engine = tmp_path / "engine.py"
    shutil.copy(FAKE, engine)
    before = engine.read_bytes()
    result = president(project, "conform", "--engine", f"{sys.executable} {engine}", "-n", "0", "--json", str(engine))
    _refused(result, "an input of this run")
    assert engine.read_bytes() == before


@pytest.mark.parametrize("command", [("bench", "--games", "3"), ("tournament", "--seats", "easy,easy,easy,easy",
                                                                 "--games", "1")])
@pytest.mark.slow
def test_other_commands_refuse_it_too(project, command):
    before = _tree(project)
    _refused(president(project, *command, "--json", "rules/ru.md"), "rules/ru.md", "an input of this run")
    assert _tree(project) == before


@pytest.mark.slow
def test_one_path_for_two_reports_is_refused(project):
    result = president(project, *RUN, "--json", "r.out", "--html", "r.out", "--junit", "r.out",
                       "--cucumber-json", "r.out")
    _refused(result, "r.out", "give each report its own file")
    assert not (project / "r.out").exists()


@pytest.mark.slow
def test_two_names_of_one_existing_file_are_one_path(project):
    (project / "a.json").write_text("old\n", encoding="utf-8")
    (project / "b.json").symlink_to("a.json")
    _refused(president(project, *RUN, "--json", "a.json", "--html", "b.json"), "give each report its own file")
    assert (project / "a.json").read_text(encoding="utf-8") == "old\n"


@pytest.mark.slow
def test_a_name_over_the_limit_is_one_line(project):
    name = "a" * 300 + ".json"
    result = president(project, *RUN, "--json", name)
    _refused(result, "305 bytes", "limit")
    assert name[:100] not in result.stderr  # the message does not echo the name
    assert sorted(p.name for p in project.iterdir()) == ["features", "locales", "rules", "spec"]


@pytest.mark.slow
def test_a_legal_long_name_works(project):
    name = "é" * 100 + "b" * (NAME_MAX - 200 - 5) + ".json"  # 255 bytes
    assert len(os.fsencode(name)) == NAME_MAX
    result = president(project, *RUN, "--json", name)
    assert result.returncode == 0, result.stderr
    assert json.loads((project / name).read_text(encoding="utf-8"))["scenarios"]
    assert not [p for p in project.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("name", ["x", "b" * 250, "é" * 127, "ü" * 120 + "x"])
def test_a_staged_name_stays_within_the_limit(name):
    staged = staged_name(name, "0123abcd")
    assert len(os.fsencode(staged)) <= NAME_MAX
    assert staged.startswith(".") and staged.endswith(".0123abcd.tmp")
    assert name.startswith(staged[1:-14])
