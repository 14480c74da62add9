"""No orphans: SIGTERM (or SIGINT) sent to the main `president` process alone ends the engine and what
the engine started (its process group), and the workers of `tournament --jobs 2`. Real signals, real
processes: the engine writes its pids to a file, and afterwards none of them may be running."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_faults import FAKE, ROOT, alive, left_alive

pytestmark = pytest.mark.slow


def _start(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "president", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, **(env or {})})


def _wait_for(what, limit: float = 60.0) -> None:
    end = time.monotonic() + limit
    while not what():
        if time.monotonic() > end:
            raise AssertionError("the processes to signal did not start")
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    proc.send_signal(sig)  # the main process only: not its group, as `kill PID` or an orchestrator does
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"still running 60 s after signal {sig}") from None
    return proc.returncode, err


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_to_conform_ends_the_engine_and_its_child(tmp_path, sig, code):
    pids = tmp_path / "pids"
    proc = _start(["conform", "--engine", f"{sys.executable} {FAKE} spawn-child", "--games", "100000"],
                  env={"FAKE_PIDS": str(pids)})
    _wait_for(lambda: pids.exists() and len(pids.read_text().split()) >= 2)  # the engine and its child
    time.sleep(1.0)  # well into the run
    returncode, err = _stop(proc, sig)
    assert returncode == code, err
    assert "Traceback" not in err
    assert left_alive(pids) == []


def test_sigterm_to_a_tournament_ends_its_workers(tmp_path):
    proc = _start(["tournament", "--seats", "hard,medium,medium,medium", "--games", "2000", "--jobs", "2"])
    _wait_for(lambda: len(_children(proc.pid)) >= 2)
    workers = _children(proc.pid)
    time.sleep(1.0)
    returncode, err = _stop(proc, signal.SIGTERM)
    assert returncode == 143 and "terminated" in err and "Traceback" not in err, err
    end = time.monotonic() + 5
    while any(alive(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert [p for p in workers if alive(p)] == []
