"""Disk full (issue 32): `president build`, `build --pdf` and the reports of `president conform`
(--json, --junit, --html together) written to a full file system end with one line (what, which
file, what to do), leave every earlier file byte-identical and no staged file behind.
Run as the user would (`python -m president`), on a small tmpfs mounted for the test and filled
so that the write fails midway; skipped, with the reason, where mounting is not permitted."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from i18n_support import edit_spec

from .support import president

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FAKE_PDF = Path(__file__).resolve().parent / "fake_pdf.py"
MUTANT = f"{sys.executable} {ROOT / 'tests' / 'mutants' / 'mutant.py'} ties-allowed"
CONFORM = ("conform", "--engine", MUTANT, "--games", "1", "--shrink", "0", "-k", "play.*")


@pytest.fixture
def tmpfs(tmp_path) -> Iterator[Path]:
    """A tmpfs of 8 MB mounted on a folder of its own (root only), unmounted after the test."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI may not be root): the disk-full tests are skipped")
    mount = tmp_path / "full"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m,mode=0755", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(mount: Path, leave: int) -> None:
    """Fill the file system of `mount` until about `leave` bytes are free."""
    st = os.statvfs(mount)
    free = st.f_bavail * st.f_frsize
    assert free > leave, (free, leave)
    with open(mount / "filler", "wb") as fh:
        fh.truncate(0)
        remaining = free - leave
        block = b"\0" * (1 << 20)
        while remaining > 0:
            remaining -= fh.write(block[:min(len(block), remaining)])
    left = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
    assert left <= leave + 8192, left


def snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "filler"}


def staged(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def one_line_no_space(stderr: str, under: Path) -> str:
    lines = [ln for ln in stderr.splitlines() if "No space left on device" in ln]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    line = lines[0]
    assert str(under) in line, line  # which file
    assert "file system is full" in line and "free about" in line and "nothing was changed" in line, line
    return line


def _bump_version(project: Path) -> None:
    """A spec change that changes every sheet and every feature (their version line)."""
    edit_spec(project, lambda data: data.update(version="1.1.1"))


def test_build_on_a_full_disk_leaves_every_earlier_file(project, tmpfs):
    out = tmpfs / "out"
    first = president(project, "build", "--out", str(out))
    assert first.returncode == 0, first.stderr
    before = snapshot(out)
    _bump_version(project)
    fill(tmpfs, 200_000)  # the sheets and features take about 700 KB: some are staged, then it fails
    result = president(project, "build", "--out", str(out))
    assert result.returncode == 1, result.stderr
    one_line_no_space(result.stderr, out)
    assert snapshot(out) == before
    assert staged(tmpfs) == []


def test_build_writes_nothing_new_either_on_a_full_disk(project, tmpfs):
    """A first build into an empty folder: no folder, no file, no staged file is left."""
    out = tmpfs / "fresh"
    fill(tmpfs, 64_000)
    result = president(project, "build", "--out", str(out))
    assert result.returncode == 1, result.stderr
    one_line_no_space(result.stderr, out)
    assert not out.exists() or snapshot(out) == {}
    assert staged(tmpfs) == []


def test_build_pdf_on_a_full_disk_leaves_the_sheets_and_pdfs(project, tmpfs):
    """The PDFs are staged with the sheets: a disk that holds the sheets but not the PDFs changes nothing."""
    out = tmpfs / "out"
    first = subprocess.run([sys.executable, str(FAKE_PDF), "none", "--out", str(out)], cwd=project,
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    before = snapshot(out)
    assert any(name.endswith(".pdf") for name in before)
    _bump_version(project)
    fill(tmpfs, 1_200_000)  # room for the sheets and features, not for six PDFs of 256 KB
    result = subprocess.run([sys.executable, str(FAKE_PDF), "big", "--out", str(out)], cwd=project,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr
    line = one_line_no_space(result.stderr, out)
    assert ".pdf: cannot write" in line, line  # the sheets were staged: it failed midway, at a PDF
    assert snapshot(out) == before, line
    assert staged(tmpfs) == []


@pytest.mark.parametrize("free", [4_096, 40_000], ids=["no room", "room for some"])
def test_conform_reports_on_a_full_disk_leave_the_earlier_reports(tmpfs, free):
    reports = {"--json": tmpfs / "r.json", "--junit": tmpfs / "r.xml", "--html": tmpfs / "r.html"}
    args = [a for option, path in reports.items() for a in (option, str(path))]
    first = president(ROOT, *CONFORM, *args)
    assert first.returncode == 1 and all(p.is_file() for p in reports.values()), first.stderr  # a mutant fails
    before = snapshot(tmpfs)
    fill(tmpfs, free)
    result = president(ROOT, *CONFORM, "--seed", "7", *args)
    assert result.returncode == 1, result.stderr
    line = one_line_no_space(result.stderr, tmpfs)
    assert "none of --junit, --json, --html written" in line, line
    assert snapshot(tmpfs) == before
    assert staged(tmpfs) == []


def test_report_table_on_a_full_disk_leaves_the_earlier_tables(tmpfs):
    saved = tmpfs / "run.json"
    assert president(ROOT, *CONFORM, "--json", str(saved)).returncode == 1
    html, table = tmpfs / "t.html", tmpfs / "t.json"
    assert president(ROOT, "report", "table", str(saved), "--html", str(html), "--json", str(table)).returncode == 0
    before = snapshot(tmpfs)
    fill(tmpfs, 4_096)
    result = president(ROOT, "report", "table", str(saved), str(saved), "--html", str(html), "--json", str(table))
    assert result.returncode == 1, result.stderr
    one_line_no_space(result.stderr, tmpfs)
    assert snapshot(tmpfs) == before
    assert staged(tmpfs) == []
