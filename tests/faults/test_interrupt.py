"""Ctrl-C: the first SIGINT stops every command within 2 s, exit 130, no traceback, no partial file,
no worker left behind. Each command is started as a subprocess and interrupted once busy."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .interrupt import interrupt

ROOT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).resolve().parent / "fake_engine.py"


def _assert_clean_exit(code: int, seconds: float, err: str) -> None:
    assert code == 130, err
    assert seconds < 2.0, f"{seconds:.2f} s from SIGINT to exit"
    assert "Traceback" not in err and "interrupted" in err


def _workers_of(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


@pytest.mark.slow
def test_tournament_with_two_jobs(tmp_path):
    out = tmp_path / "t.json"
    code, seconds, err = interrupt(["tournament", "--seats", "hard,medium,medium,medium", "--games", "2000",
                                    "--jobs", "2", "--json", str(out)], tmp_path, after=3.0)
    _assert_clean_exit(code, seconds, err)
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert not _workers_of(str(tmp_path))


@pytest.mark.slow
def test_conform_against_a_hung_engine(tmp_path):
    out = tmp_path / "r.json"
    code, seconds, err = interrupt(["conform", "--engine", f"{sys.executable} {FAKE} hang", "--json", str(out)],
                                   ROOT, after=3.0)
    _assert_clean_exit(code, seconds, err)
    assert not out.exists()


@pytest.mark.slow
def test_conform_lockstep(tmp_path):
    out = tmp_path / "r.json"
    code, seconds, err = interrupt(["conform", "--games", "100000", "--json", str(out)], ROOT, after=4.0)
    _assert_clean_exit(code, seconds, err)
    assert not out.exists()


@pytest.mark.parametrize("after", [0.0, 0.3])
def test_build_leaves_nothing_half_written(tmp_path, after):
    out = tmp_path / "out"
    code, seconds, err = interrupt(["build", "--out", str(out)], ROOT, after=after, wait_for="spec ")
    if code == 0:  # finished before the signal: then it must be complete
        assert len(list(out.rglob("*.txt"))) == 6
        return
    _assert_clean_exit(code, seconds, err)
    assert not any(p.name.endswith(".tmp") for p in tmp_path.rglob("*"))
