"""Fault injection: fake engines (tests/faults/fake_engine.py) that break the protocol, each with
the outcome `president conform` must report. The same table is in docs/conformance.md."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

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
    # alive but mute: dead to the runner, stopped, and called hung after --hung-after of them in a row
    "close-stdout": (("--games", "3", *SCENARIOS), 1, ["the engine is hung", "closed its output but kept running",
                                                       "3 times in a row"], ["FAIL "]),
    # 1 MiB of stderr per request: only a tail is kept, and the report shows the last line, not the flood
    "flood-stderr": (("--games", "2", *SCENARIOS), 1, ["the last words after a flood (simulated)"], ["x" * 600]),
    "spawn-child": (("--games", "1", *SCENARIOS), 0, ["3 passed, 0 failed"], []),
    "nan-reply": (("--games", "2", *SCENARIOS), 1, ["keeps breaking the protocol", "NaN is not a JSON value"],
                  ["FAIL ", "setup.partial-hands"]),
    "bad-hello-options": (SCENARIOS, 1, ["handshake with the engine failed", "hello.options.players is malformed"],
                          ["SKIP"]),
}


def alive(pid: int) -> bool:
    """Whether `pid` is a running process (a zombie waiting for its reaper is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def left_alive(pids_file: Path, wait: float = 5.0) -> list[int]:
    """The pids listed in `pids_file` still running once the killed ones have had `wait` s to go."""
    pids = [int(p) for p in pids_file.read_text().split()] if pids_file.exists() else []
    end = time.monotonic() + wait
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def conform(mode: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", "conform", "--engine",
                           f"{sys.executable} {FAKE} {mode}", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("faults")


@pytest.fixture(scope="module")
def outcomes(folder) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every case run at once (most of their time is spent waiting on timeouts and restarts)."""

    def one(mode: str) -> subprocess.CompletedProcess[str]:
        return conform(mode, *CASES[mode][0], env={"FAKE_MARKER": str(folder / f"{mode}.logged"),
                                                   "FAKE_PIDS": str(folder / f"{mode}.pids")})

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


@pytest.mark.parametrize("mode", sorted(CASES))
def test_no_engine_process_is_left(mode, outcomes, folder):
    """Whatever the fault, once conform has exited no engine process is running, nor any process an
    engine started (spawn-child's sleeping child is in the engine's process group)."""
    assert outcomes[mode] is not None
    pids = folder / f"{mode}.pids"
    assert pids.exists() and pids.read_text().split()
    assert left_alive(pids) == []


def test_a_half_closed_engine_with_one_chance(tmp_path):
    """--timeout 1 --hung-after 1: the first closed output stops the run."""
    out = conform("close-stdout", "--timeout", "1", "--hung-after", "1", *SCENARIOS,
                  env={"FAKE_PIDS": str(tmp_path / "pids")})
    assert out.returncode == 1 and "closed its output but kept running instead of replying, once" in out.stderr
    assert left_alive(tmp_path / "pids") == []


@pytest.mark.parametrize("at, where", [(1, "scenario"), (4, "lock-step game")])
def test_nan_is_a_protocol_outcome_in_scenarios_and_in_lockstep(at, where, tmp_path):
    """NaN in one reply (to the first new_game, in a scenario; to the fourth, in a lock-step game):
    one ERROR naming it, never a FAIL nor a deviation."""
    out = conform("nan-reply", "--games", "2", *SCENARIOS, env={"FAKE_NAN_AT": str(at),
                                                                "FAKE_MARKER": str(tmp_path / "count")})
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "NaN is not a JSON value" in text and "0 failed" in text and "0 deviation(s)" in text, text
    assert "FAIL " not in text and "0 divergent" in text, text
    errors = [line for line in out.stdout.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 1 and ("lock-step game" in errors[0]) == (where == "lock-step game"), text


def test_the_stderr_kept_is_a_bounded_tail():
    from president.protocol.client import STDERR_TAIL, SubprocessClient

    with SubprocessClient([sys.executable, str(FAKE), "flood-stderr"]) as client:
        client.hello()
        for _ in range(5):
            client.request({"cmd": "state"})
        assert client._err_total > 5 * (1 << 20)  # 6 MiB written
        assert len(client._err) <= STDERR_TAIL
        assert client.stderr_tail(1).startswith("fake engine: debug x")


@pytest.mark.parametrize("args, code, wanted", [
    (["conform", "--engine", ""], 2, "the engine command is empty"),
    (["conform", "--engine", "  "], 2, "the engine command is empty"),
    (["conform", "--engine", 'x "unterminated'], 2, "No closing quotation"),
    (["conform", "--engine", "/nonexistent/engine"], 2, "cannot start the engine"),
    (["bench", "--option", "players=5", "-n", "1"], 2, "the table size is --players"),
])
def test_bad_engine_commands_and_options_are_usage_errors(args, code, wanted):
    out = subprocess.run([sys.executable, "-m", "president", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    errors = [line for line in out.stderr.splitlines() if line.startswith("Error:")]
    assert out.returncode == code and len(errors) == 1 and wanted in errors[0], out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_a_stray_line_shifts_nothing(tmp_path):
    """The probe: one log line on stdout used to shift every later reply (14 false FAILs)."""
    out = conform("log-once", "--games", "5", env={"FAKE_MARKER": str(tmp_path / "logged")})
    starts = [line.split(" ")[0] for line in out.stdout.splitlines()]
    assert starts.count("FAIL") == 0 and starts.count("ERROR") == 1, out.stdout
    assert " passed, 0 failed, 0 blocked, 1 errors" in out.stdout and "0 divergent, 0 errors" in out.stdout
    assert out.stderr.count("protocol fault:") == 1
