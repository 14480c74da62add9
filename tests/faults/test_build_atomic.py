"""Build atomicity and leftovers (issue 27): `build --pdf` stages the sheets, the features and the
PDFs together and renames them once all are ready, so Ctrl-C or SIGTERM while WeasyPrint renders
(even when its finalizer swallows the KeyboardInterrupt) renames nothing and leaves no staged file;
a staged file a SIGKILL left is removed by the next build and reported by check.
The PDFs come from a stand-in for WeasyPrint (fake_pdf.py) that raises the signal itself while it
renders the second language: no timing, no fonts needed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .support import president

pytestmark = pytest.mark.slow

FAKE_PDF = Path(__file__).resolve().parent / "fake_pdf.py"
#: Files the build must write again: taken away before each run.
REMOVED = ("rules/ru.txt", "rules/hy.html", "features/ru/setup.feature")


def _build_pdf(project: Path, mode: str) -> subprocess.CompletedProcess[str]:
    for rel in REMOVED:
        (project / rel).unlink()
    return subprocess.run([sys.executable, str(FAKE_PDF), mode], cwd=project, capture_output=True, text=True,
                          timeout=300)


def test_the_stand_in_builds_when_nothing_interrupts(project):
    """What the interrupted runs below must not do: every file and six PDFs."""
    result = _build_pdf(project, "none")
    assert result.returncode == 0, result.stderr
    assert all((project / rel).is_file() for rel in REMOVED)
    assert len(list((project / "pdf").glob("*.pdf"))) == 6


@pytest.mark.parametrize("mode, code, said", [("raise", 130, "interrupted"), ("finalizer", 130, "interrupted"),
                                              ("term", 143, "terminated")])
def test_a_signal_while_rendering_pdfs_renames_nothing(project, mode, code, said):
    result = _build_pdf(project, mode)
    assert result.returncode == code, result.stderr
    assert result.stderr.strip().splitlines()[-1] == said
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert not any((project / rel).exists() for rel in REMOVED)
    assert not (project / "pdf").exists()
    assert not [p for p in project.rglob("*") if p.name.endswith(".tmp")]


def test_a_stale_staged_file_is_reported_then_removed(project):
    stale = [project / "rules" / ".ru.txt.deadbeef.tmp", project / "features" / "ru" / ".setup.feature.0123abcd.tmp"]
    kept = [project / "rules" / ".notes.tmp", project / "rules" / ".other.txt.0123abcd.tmp"]  # not the build's
    for path in stale + kept:
        path.write_text("half-written\n", encoding="utf-8")
    checked = president(project, "check")
    assert checked.returncode == 1
    for path in stale:
        rel = path.relative_to(project).as_posix()
        lines = [ln for ln in checked.stderr.splitlines() if ln.startswith(f"{rel}:")]
        assert len(lines) == 1 and "interrupted write" in lines[0] and "president build" in lines[0], checked.stderr
    built = president(project, "build")
    assert built.returncode == 0, built.stderr
    assert not any(path.exists() for path in stale)
    assert all(path.exists() for path in kept)
    assert sum("removed" in ln for ln in built.stderr.splitlines()) == len(stale)
