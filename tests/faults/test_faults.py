"""Fault injection: fake engines (tests/faults/fake_engine.py) that break the protocol, each with
the outcome `president conform` must report. The same table is in docs/conformance.md."""
from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).resolve().parent / "fake_engine.py"
SCENARIOS = ("-k", "setup.rank-order")  # three scenarios: enough to see restarts and repeats

#: mode -> (extra arguments, exit code, texts the output must hold (or one of a tuple), texts it must not hold)
CASES = {
    "hang": (("--timeout", "1", *SCENARIOS), 1, ["the engine is hung", "3 times in a row"], []),
    "hang-at-start": (("--timeout", "1", *SCENARIOS), 1, ["handshake with the engine failed", "no reply within 10 s"],
                      []),
    "crash": (("--games", "2", *SCENARIOS), 1, ["EngineDied", "segmentation fault (simulated)",
                                                "same stderr as before", "3 errors", "2 errors"], ["request -1"]),
    "log-stdout": (SCENARIOS, 1, ["keeps breaking the protocol", "debug: new game starting"], []),
    "log-once": (("--games", "2", *SCENARIOS), 1, ["protocol fault: the engine wrote a line that is not JSON",
                                                   "2 passed, 0 failed, 0 blocked, 1 errors", "2 games", "0 divergent, 0 errors"],
                 ["FAIL "]),
    "out-of-order": (("--games", "3", *SCENARIOS), 1, ["keeps breaking the protocol", "out of order?"], []),
    # the second copy is caught as an extra line, or (arriving late) as a reply that does not fit the next request
    "twice": (SCENARIOS, 1, ["keeps breaking the protocol", ("more replies than requests", "lacks 'actions'",
                                                              "nobody asked for")], []),
    "slow": (("--timeout", "1", "--games", "0", *SCENARIOS), 0, ["3 passed, 0 failed, 0 blocked, 0 errors"], []),
    "deep-json": (SCENARIOS, 1, ["handshake with the engine failed", "not JSON"], ["RecursionError"]),
}


def conform(mode: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", "conform", "--engine",
                           f"{sys.executable} {FAKE} {mode}", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every case run at once (most of their time is spent waiting on timeouts and restarts)."""
    folder = tmp_path_factory.mktemp("faults")

    def one(mode: str) -> subprocess.CompletedProcess[str]:
        return conform(mode, *CASES[mode][0], env={"FAKE_MARKER": str(folder / f"{mode}.logged")})

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(sorted(CASES), pool.map(one, sorted(CASES))))


@pytest.mark.parametrize("mode", sorted(CASES))
def test_fault_outcome(mode, outcomes):
    args, code, wanted, unwanted = CASES[mode]
    out = outcomes[mode]
    text = out.stdout + out.stderr
    assert out.returncode == code, text
    for w in wanted:
        assert any(alt in text for alt in ((w,) if isinstance(w, str) else w)), (w, text)
    for u in unwanted:
        assert u not in text, (u, text)
    assert "Traceback" not in text
    assert text.count("segmentation fault (simulated)") <= 1  # a crash's stderr is shown once


def test_a_stray_line_shifts_nothing(tmp_path):
    """The probe: one log line on stdout used to shift every later reply (14 false FAILs)."""
    out = conform("log-once", "--games", "5", env={"FAKE_MARKER": str(tmp_path / "logged")})
    starts = [line.split(" ")[0] for line in out.stdout.splitlines()]
    assert starts.count("FAIL") == 0 and starts.count("ERROR") == 1, out.stdout
    assert " passed, 0 failed, 0 blocked, 1 errors" in out.stdout and "0 divergent, 0 errors" in out.stdout
    assert out.stderr.count("protocol fault:") == 1
