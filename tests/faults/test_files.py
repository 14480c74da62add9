"""Staying inside the project (issue 21): a catalog, a template or a folder that is a symlink out of
the project is refused with one line naming it, and nothing outside is read, printed or written.
Run as the user would: `python -m president ...` in a copy of the project, with real symlinks
and real FIFOs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .support import president

SECRET = "TOP-SECRET-LINE do not print me"


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the project, holding what must never be read or overwritten."""
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def _one_line_naming(result: subprocess.CompletedProcess[str], name: str) -> None:
    lines = [ln for ln in result.stderr.splitlines() if name in ln and "leads out of the project" in ln]
    assert lines, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_check_never_prints_a_catalog_symlinked_out(project, outside):
    secret = outside / "passwd"
    secret.write_text(f"root:x:0:0:{SECRET}:/root:/bin/sh\n", encoding="utf-8")
    catalog = project / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    catalog.unlink()
    catalog.symlink_to(secret)
    result = president(project, "check")
    assert result.returncode == 1
    assert SECRET not in result.stdout + result.stderr
    _one_line_naming(result, "locales/ru/LC_MESSAGES/rules.po")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc/self/environ on this system")
@pytest.mark.slow
def test_catalog_symlinked_to_the_environment_is_not_read(project):
    catalog = project / "locales" / "el" / "LC_MESSAGES" / "steps.po"
    catalog.unlink()
    catalog.symlink_to("/proc/self/environ")
    env = {**os.environ, "PRESIDENT_TEST_SECRET": SECRET}
    result = subprocess.run([sys.executable, "-m", "president", "build"], cwd=project, capture_output=True,
                            text=True, timeout=300, env=env)
    assert result.returncode == 1
    assert SECRET not in result.stdout + result.stderr
    _one_line_naming(result, "steps.po")


@pytest.mark.slow
def test_a_template_symlinked_out_is_named_not_read(project, outside):
    secret = outside / "secret.pot"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    (project / "locales" / "extra.pot").symlink_to(secret)
    result = president(project, "check")
    assert result.returncode == 1
    assert SECRET not in result.stderr
    _one_line_naming(result, "extra.pot")


def test_build_refuses_rules_symlinked_out(project, outside):
    victim = outside / "ru.txt"
    victim.write_text("precious\n", encoding="utf-8")
    os.rename(project / "rules", project / "rules.real")
    (project / "rules").symlink_to(outside)
    result = president(project, "build")
    assert result.returncode == 1
    _one_line_naming(result, "rules")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in outside.iterdir()) == ["ru.txt"]


@pytest.mark.slow
def test_i18n_update_refuses_a_language_folder_symlinked_out(project, outside):
    real = project / "locales" / "hy"
    copy = outside / "hy"
    os.rename(real, copy)
    real.symlink_to(copy)
    before = {p: p.read_bytes() for p in copy.rglob("*.po")}
    result = president(project, "i18n", "update")
    assert result.returncode == 1
    _one_line_naming(result, "locales/hy")
    assert {p: p.read_bytes() for p in copy.rglob("*.po")} == before
    assert not [p for p in outside.rglob("*") if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_a_symlink_inside_the_project_is_fine(project):
    """Links that stay inside the project are followed as before."""
    real = project / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    kept = project / "locales" / "ru-rules.po"
    os.rename(real, kept)
    real.symlink_to(Path("..") / ".." / "ru-rules.po")
    result = president(project, "build")
    assert result.returncode == 0, result.stderr
    assert real.is_symlink()


@pytest.mark.slow
def test_a_fifo_catalog_is_refused_at_once(project):
    catalog = project / "locales" / "hi" / "LC_MESSAGES" / "rules.po"
    catalog.unlink()
    os.mkfifo(catalog)
    result = president(project, "build", timeout=120)  # a hang would raise TimeoutExpired
    assert result.returncode == 1
    assert "FIFO" in result.stderr and "hi/LC_MESSAGES/rules.po" in result.stderr, result.stderr
