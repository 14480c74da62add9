"""A stopped run still leaves a verdict (issue 32): whatever stops a run (a hung engine, one that
keeps crashing or breaking the protocol, a failed hello, a spent budget), every report asked for is
written, parses, and carries the stop (`stopped`: kind, phase, item, request, stray lines) with what
was learnt before it; JUnit marks it an error, not a failure; `report show` and `report diff` read
it. An engine that answers one request twice is a protocol fault, never a deviation. Each case runs
`president conform` against a fake engine of tests/faults/fake_engine.py."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator
from xml.etree import ElementTree as ET

import pytest

from president.conform.saved import Report

from .fake_engine import HOSTILE_TEXT
from .support import measured
from .test_faults import FAKE, ROOT, left_alive

pytestmark = pytest.mark.slow  # whole conform runs against fake engines

FEW = ("-k", "setup.rank-order")
#: A run's peak memory (conform and the engines it waited for), whatever the engine says.
PEAK_KB = 300 * 1024
#: What a report of a few scenarios and games may weigh, whatever the engine says.
REPORT_BYTES = 1 << 20

#: case -> (fake engine mode, its environment, conform's arguments, the stop's kind, its phase)
STOPS: dict[str, tuple[str, dict[str, str], tuple[str, ...], str, str]] = {
    "hang": ("hang", {}, ("--timeout", "1", *FEW, "-n", "2"), "hang", "scenarios"),
    "hang-in-lockstep": ("hang-at", {"FAKE_AT": "600"}, ("--timeout", "1", *FEW, "-n", "20"), "hang", "lock-step"),
    "close-stdout": ("close-stdout", {}, (*FEW, "-n", "2"), "hang", "scenarios"),
    "crash-for-good": ("crash-for-good", {}, (*FEW, "-n", "2"), "crash", "scenarios"),
    "log-stdout": ("log-stdout", {}, (*FEW, "-n", "2"), "protocol", "scenarios"),
    "stray": ("stray", {}, ("-n", "2"), "protocol", "scenarios"),
    "twice-every-new-game": ("twice", {}, (*FEW, "-n", "2"), "protocol", "scenarios"),
    "bad-hello": ("bad-hello-options", {}, (*FEW, "-n", "2"), "handshake", "handshake"),
    "deep-json-hello": ("deep-json", {}, (*FEW, "-n", "2"), "handshake", "handshake"),
    # 20 s: the scenarios take a few seconds even on a loaded machine, 100,000 games far more than 20 s
    "budget": ("plain", {}, ("--budget", "20", *FEW, "-n", "100000"), "budget", "lock-step"),
    # a stray line full of escapes and 100,000 characters long: shown cut and inert
    "hostile-stray": ("log-stdout", {"FAKE_LINE": HOSTILE_TEXT + "z" * 100_000}, (*FEW, "-n", "2"), "protocol",
                      "scenarios"),
}


def conform(mode: str, tmp: Path, args: tuple[str, ...], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", "conform", "--engine", f"{sys.executable} {FAKE} {mode}",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "FAKE_PIDS": str(tmp / "pids"), "FAKE_MARKER": str(tmp / "marker"),
                               **env})


def reports(folder: Path) -> dict[str, Path]:
    return {"--json": folder / "r.json", "--junit": folder / "r.xml", "--html": folder / "r.html",
            "--cucumber-json": folder / "r.cucumber.json"}


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A folder of this module's own: pytest's numbered temporary folders of other runs on the machine
    may be cleaned away while these long runs go on."""
    with tempfile.TemporaryDirectory(prefix="stopped-") as folder:
        yield Path(folder)


def _folder(scratch: Path, name: str) -> Path:
    folder = scratch / name
    folder.mkdir()
    return folder


@pytest.fixture(scope="module")
def stopped(scratch) -> dict[str, tuple[subprocess.CompletedProcess[str], Path]]:
    """Every stopping case at once, each writing every report conform writes (most of their time
    is spent waiting on timeouts and restarts)."""

    def one(case: str) -> tuple[subprocess.CompletedProcess[str], Path]:
        mode, env, args, _, _ = STOPS[case]
        folder = _folder(scratch, case)
        files = [x for option, path in reports(folder).items() for x in (option, str(path))]
        return conform(mode, folder, (*args, "--shrink", "1", *files), env), folder

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(sorted(STOPS), pool.map(one, sorted(STOPS))))


@pytest.mark.parametrize("case", sorted(STOPS))
def test_a_stopped_run_writes_every_report_with_the_stop(case, stopped):
    out, folder = stopped[case]
    _, _, _, kind, phase = STOPS[case]
    text = out.stdout + out.stderr
    assert out.returncode == 1 and "Traceback" not in text, text
    errors = [line for line in out.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and out.stderr.rstrip().splitlines()[-1] == errors[0], out.stderr  # the stop, one line
    assert len(errors[0]) <= 500
    files = reports(folder)
    for path in files.values():
        assert path.exists() and path.stat().st_size < REPORT_BYTES, path
        assert not list(folder.glob(".*.tmp"))  # nothing half-written left beside them
    data = json.loads(files["--json"].read_text())
    stop = data["stopped"]
    assert stop["kind"] == kind and stop["phase"] == phase, stop
    assert stop["message"] and data["ok"] is False and data["exit_code"] == 1
    assert stop["request"] is None or stop["request"]["number"] >= 1
    saved = Report.load(files["--json"])  # schema-valid, read back with its stop
    assert saved.stopped is not None and saved.stopped.kind == kind
    assert "STOPPED" in out.stdout and "STOPPED" in saved.text()
    suite = ET.parse(files["--junit"]).getroot()
    case_el = suite.find("testcase[@name='run/stopped']")
    assert case_el is not None and case_el.find("error") is not None and case_el.find("failure") is None
    assert case_el.find("error").get("type") == f"stopped-{kind}"
    assert int(suite.get("errors")) >= 1 and int(suite.get("tests")) == len(suite.findall("testcase"))
    assert "stopped" in files["--html"].read_text()
    json.loads(files["--cucumber-json"].read_text())
    assert left_alive(folder / "pids") == []


def test_what_was_learnt_before_the_stop_is_kept(stopped):
    """Scenarios run and lock-step games played before the stop keep their verdicts."""
    data = json.loads(reports(stopped["hang-in-lockstep"][1])["--json"].read_text())
    assert data["scenarios"]["passed"] == 3 and data["lockstep"]["games"] >= 1, data["scenarios"]
    assert data["stopped"]["item"].startswith("game "), data["stopped"]
    budget = json.loads(reports(stopped["budget"][1])["--json"].read_text())
    assert budget["scenarios"]["passed"] == 3 and 1 <= budget["lockstep"]["games"] < 100_000, budget["lockstep"]
    stray = json.loads(reports(stopped["stray"][1])["--json"].read_text())
    assert stray["scenarios"]["passed"] >= 1 and stray["deviations"] == []


@pytest.mark.parametrize("case", ["log-stdout", "stray", "hostile-stray"])
def test_the_stray_lines_that_stopped_a_run_are_named_bounded_and_inert(case, stopped):
    out, folder = stopped[case]
    stop = json.loads(reports(folder)["--json"].read_text())["stopped"]
    assert len(stop["lines"]) == 3, stop  # the third stray line of the run stops it
    for line in stop["lines"]:
        assert line["request"] >= 1 and len(line["line"]) < 400, line
        for raw in ("\x1b", "\r", "\x07", "\u202e"):
            assert raw not in line["line"] and raw not in out.stdout + out.stderr
    if case == "log-stdout":
        assert all(line["line"] == "debug: new game starting" for line in stop["lines"]), stop["lines"]
        assert "debug: new game starting" in out.stdout  # the text report lists them
    if case == "hostile-stray":
        assert "\\x1b[2J" in stop["lines"][0]["line"] and "[cut," in stop["lines"][0]["line"]


def test_report_show_and_diff_read_the_stop(stopped, tmp_path):
    stopped_json = reports(stopped["hang"][1])["--json"]
    show = subprocess.run([sys.executable, "-m", "president", "report", "show", str(stopped_json)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert show.returncode == 0 and "STOPPED (hang" in show.stdout, show.stderr
    before = json.loads(stopped_json.read_text())  # the same run as a report written before `stopped` was
    before.pop("stopped")
    (tmp_path / "old.json").write_text(json.dumps(before))
    diff = subprocess.run([sys.executable, "-m", "president", "report", "diff", str(tmp_path / "old.json"),
                           str(stopped_json)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert diff.returncode == 1 and "NEW     run: the run now stops" in diff.stdout, diff.stdout + diff.stderr
    assert "stopped before its end" in diff.stderr
    back = subprocess.run([sys.executable, "-m", "president", "report", "diff", str(stopped_json),
                           str(tmp_path / "old.json")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert back.returncode == 0 and "GONE    run: the run no longer stops" in back.stdout, back.stdout


#: (FAKE_CMD, FAKE_AT, FAKE_LATE, FAKE_REFUSE, -k, games): one request answered twice, now or late
TWICE = {
    "hello": ("hello", "1", "0", "0", "setup.rank-order", "1"),
    "first-new-game-late": ("new_game", "1", "0.3", "0", "setup.rank-order", "2"),
    "second-new-game": ("new_game", "2", "0", "0", "setup.rank-order", "2"),
    "act": ("act", "1", "0", "0", "setup.rank-order", "2"),
    "a-refusal-late": ("act", "1", "0.3", "1", "play.*", "0"),
    "state-late": ("state", "1", "0.3", "0", "play.*", "0"),  # read as the next state: deviations, before
    "second-state-late": ("state", "2", "0.3", "0", "play.*", "0"),
    "legal-late-in-lockstep": ("legal", "30", "0.3", "0", "setup.rank-order", "3"),
    "act-late-in-lockstep": ("act", "40", "0.3", "0", "setup.rank-order", "3"),
}


@pytest.fixture(scope="module")
def twice(scratch) -> dict[str, tuple[subprocess.CompletedProcess[str], Path]]:
    def one(case: str) -> tuple[subprocess.CompletedProcess[str], Path]:
        cmd, at, late, refuse, pattern, games = TWICE[case]
        folder = _folder(scratch, f"twice-{case}")
        out = conform("twice-at", folder, ("-k", pattern, "-n", games, "--shrink", "1", "--json",
                                           str(folder / "r.json"), "--junit", str(folder / "r.xml")),
                      {"FAKE_CMD": cmd, "FAKE_AT": at, "FAKE_LATE": late, "FAKE_REFUSE": refuse})
        return out, folder

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(sorted(TWICE), pool.map(one, sorted(TWICE))))


@pytest.mark.parametrize("case", sorted(TWICE))
def test_a_request_answered_twice_is_a_protocol_fault_never_a_deviation(case, twice):
    out, folder = twice[case]
    text = out.stdout + out.stderr
    assert out.returncode == 1 and "Traceback" not in text, text
    data = json.loads((folder / "r.json").read_text())
    assert data["protocol_faults"] or data["stopped"], text  # the second reply is seen, as a fault
    assert data["deviations"] == [], [d["clause"] for d in data["deviations"]]
    assert not [r["id"] for r in data["scenario_results"] if r["outcome"] in ("fail", "blocked")], text
    assert data["lockstep"] is None or data["lockstep"]["divergent"] == 0, data["lockstep"]
    suite = ET.parse(folder / "r.xml").getroot()
    assert suite.findall(".//failure") == [] and int(suite.get("failures")) == 0
    if case == "hello":
        assert data["stopped"]["kind"] == "handshake"
    Report.load(folder / "r.json")
    assert left_alive(folder / "pids") == []


#: field of the huge text (fake engine `huge-field`) -> its size
HUGE = {"code": 300_000, "rule": 300_000, "distinct": 300_000, "hello-name": 5_000_000,
        "hello-version": 5_000_000, "state-phase": 300_000, "action-type": 300_000}


@pytest.mark.parametrize("where", sorted(HUGE))
def test_a_huge_text_in_any_field_keeps_memory_and_reports_bounded(where, tmp_path):
    """With --json and --junit together: the peak memory of the run, each report's size and each
    text a report keeps are bounded, whichever field carries the huge text."""
    from president.textsafe import TEXT_LIMIT

    files = {"json": tmp_path / "r.json", "xml": tmp_path / "r.xml"}
    code, out, err, peak = measured(["conform", "--engine", f"{sys.executable} {FAKE} huge-field", *FEW, "-n", "1",
                                     "--shrink", "1", "--json", str(files["json"]), "--junit", str(files["xml"])],
                                    ROOT, {**os.environ, "FAKE_FIELD": where, "FAKE_SIZE": str(HUGE[where]),
                                           "FAKE_PIDS": str(tmp_path / "pids")}, timeout=300)
    assert code in (0, 1) and "Traceback" not in err, err
    assert peak < PEAK_KB, peak
    for path in files.values():
        assert path.stat().st_size < REPORT_BYTES, (path, path.stat().st_size)
    longest = max(len(s) for s in _strings(json.loads(files["json"].read_text())))
    assert longest < 2 * TEXT_LIMIT + 1000, longest  # structurally: no text holds the huge one whole
    ET.parse(files["xml"])
    assert max(map(len, out.splitlines())) <= 200
    assert left_alive(tmp_path / "pids") == []


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
