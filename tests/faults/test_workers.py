"""A lost `--jobs` worker (`kill -9`, the out-of-memory killer) is noticed, its items are run again
once, and the run ends with a report: the same report when the second try works; error records,
listed under `worker_errors`, and exit 3 when the worker running them again is lost too."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from president.conform.jobs import LOST, WorkerFailed, run_parallel
from president.conform.messages import expand

from .test_faults import ROOT

pytestmark = pytest.mark.slow  # whole conform runs with a worker killed

KILLER = Path(__file__).with_name("worker_killer.py")
PARENT = os.getpid()


class Quiet:
    """An engine client that is never asked anything (the work below does not use it)."""

    def hello(self) -> dict:
        return {"ok": True}

    def close(self) -> None:
        pass


def _doubled(dies_at: int, once: Path | None = None):
    """Work that doubles its item, and kills its own worker (never this process) at `dies_at`:
    every time, or only the first time when `once` names a marker file."""
    def work(client, item: int) -> int:
        if item == dies_at and os.getpid() != PARENT and not (once and once.exists()):
            if once:
                once.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return item * 2
    return work


def test_a_lost_workers_items_are_run_again():
    got = run_parallel(list(range(20)), _doubled(5, once=None), Quiet(), jobs=3, factory=Quiet,
                       lost=lambda item, why: why)
    lost = [i for i, r in enumerate(got) if isinstance(r, str)]
    share = list(range(2, 20, 3))  # the killed worker's items (i % 3 == 2); those it had not sent back are lost
    assert set(lost) <= set(share) and {5, 11, 17} <= set(lost)
    assert all(r.startswith(LOST) and "killed by SIGKILL" in r for r in (got[i] for i in lost))
    assert [r for i, r in enumerate(got) if i not in lost] == [i * 2 for i in range(20) if i not in lost]


def test_a_worker_lost_once_changes_nothing(tmp_path):
    got = run_parallel(list(range(20)), _doubled(7, once=tmp_path / "killed"), Quiet(), jobs=2, factory=Quiet,
                       lost=lambda item, why: why)
    assert (tmp_path / "killed").exists()
    assert got == [i * 2 for i in range(20)]


def test_without_error_records_a_lost_worker_stops_the_run():
    with pytest.raises(WorkerFailed, match="lost twice .*killed by SIGKILL"):
        run_parallel(list(range(12)), _doubled(3), Quiet(), jobs=2, factory=Quiet)


def _conform(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", "conform", "--games", "12", "-k", "flow.*",
                           "--shrink", "0", *args], cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env={**os.environ, **(env or {})})


def _untimed(data):
    """The report without its timings (and the number of jobs)."""
    if isinstance(data, dict):
        return {k: _untimed(v) for k, v in data.items() if k not in ("seconds", "cpu_seconds", "steps_per_s", "jobs")}
    if isinstance(data, list):
        return [_untimed(v) for v in data]
    return data


def test_conform_with_a_worker_killed_every_time_ends_with_a_report(tmp_path):
    out = _conform(tmp_path, "--jobs", "2", "--engine", f"{sys.executable} {KILLER} 2", "--json",
                   str(tmp_path / "r.json"))
    assert out.returncode == 3, out.stderr
    data = expand(json.loads((tmp_path / "r.json").read_text()))  # long texts are stored once: read through
    assert data["worker_errors"] and all(LOST in e and "killed by SIGKILL" in e for e in data["worker_errors"])
    lost_games = [u for u in data["lockstep"]["unfinished"] if u["why"].startswith(LOST)]
    assert lost_games and data["lockstep"]["errors"] >= len(lost_games)
    assert data["lockstep"]["games"] == 12 and "lock-step: 12 games" in out.stdout


def test_conform_with_a_worker_killed_once_gives_the_report_of_one_job(tmp_path):
    killed = tmp_path / "killed"
    engine = f"{sys.executable} {KILLER} 3"
    two = _conform(tmp_path, "--jobs", "2", "--engine", engine, "--json", str(tmp_path / "two.json"),
                   env={"KILL_ONCE": str(killed)})
    assert killed.exists() and two.returncode == 0, two.stderr
    one = _conform(tmp_path, "--engine", engine, "--json", str(tmp_path / "one.json"))
    assert one.returncode == 0, one.stderr
    assert _untimed(json.loads((tmp_path / "two.json").read_text())) == \
        _untimed(json.loads((tmp_path / "one.json").read_text()))
