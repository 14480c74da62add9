"""Hostile engines (issue 27): whatever an engine says, a run's memory and reports stay bounded,
its text stays inert, and there is a verdict. Each case runs `president conform` against a fake
engine of tests/faults/fake_engine.py and states the outcome: exit code, one-line error or
verdict, peak memory of the run (wait4's rusage), report sizes, no process left behind."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from .support import measured
from .test_faults import FAKE, ROOT, left_alive

pytestmark = pytest.mark.slow  # whole conform runs against hostile engines

#: A run's peak memory (conform and the engines it waited for), whatever the engine says.
PEAK_KB = 300 * 1024
FEW = ("-k", "setup.rank-order")


def conform(mode: str, tmp: Path, *args: str, **env: str) -> tuple[int, str, str, int]:
    return measured(["conform", "--engine", f"{sys.executable} {FAKE} {mode}", *args], ROOT,
                    {**os.environ, "FAKE_PIDS": str(tmp / "pids"), **env}, timeout=300)


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("Error:")]


def test_a_5_mb_refusal_is_kept_as_a_few_kb_once(tmp_path):
    reports = {k: tmp_path / f"r.{k}" for k in ("json", "xml", "cucumber")}
    code, out, err, peak = conform("huge-refusal", tmp_path, *FEW, "-n", "1", "--shrink", "1",
                                   "--json", str(reports["json"]), "--junit", str(reports["xml"]),
                                   "--cucumber-json", str(reports["cucumber"]), FAKE_SIZE="5000000")
    assert code == 1 and "Traceback" not in err, err
    assert peak < PEAK_KB, peak
    for path in reports.values():  # each a few hundred KB at most: the message is cut, and kept once
        assert path.stat().st_size < 1 << 20, (path, path.stat().st_size)
    data = json.loads(reports["json"].read_text())
    assert any("[cut, 5,000,0" in text for text in data["messages"]), data["messages"]
    assert "[cut, 5,000,0" not in json.dumps({k: v for k, v in data.items() if k != "messages"})
    assert max(map(len, out.splitlines())) <= 200
    assert left_alive(tmp_path / "pids") == []


@pytest.mark.parametrize("mode, env, wanted", [
    ("legal-flood", {"FAKE_COUNT": "20000"}, "lists about 20,000 actions, over the protocol's bound of 10,000"),
    ("legal-dups", {}, "more than once"),
])
def test_a_legal_reply_over_the_bound_is_a_protocol_fault(tmp_path, mode, env, wanted):
    code, out, err, peak = conform(mode, tmp_path, *FEW, "-n", "2", **env)
    assert code == 1 and "Traceback" not in err, err
    assert peak < PEAK_KB, peak
    errors = _error_lines(err)
    assert len(errors) == 1 and "keeps breaking the protocol" in errors[0] and wanted in errors[0], err
    assert "make it smaller" not in err and "MemoryError" not in err
    assert left_alive(tmp_path / "pids") == []


def test_a_legal_reply_at_the_bound_is_compared_in_bounded_memory(tmp_path):
    """10,000 distinct plays the seat cannot make, within the protocol's bound: not a fault but a rule
    deviation, found with the run's memory bounded (traces keep such a list compactly)."""
    code, out, err, peak = conform("legal-flood", tmp_path, *FEW, "-n", "2", FAKE_COUNT="10000")
    assert code == 1 and "Traceback" not in err, err
    assert peak < PEAK_KB, peak
    assert "keeps breaking the protocol" not in err and not _error_lines(err), err
    assert "which the reference refuses by" in out and "(and 9999 more)" in out, out
    assert left_alive(tmp_path / "pids") == []


def test_a_reply_dripped_within_the_timeout_still_counts_toward_hung(tmp_path):
    """200 bytes a second: each reply comes within the 5 s timeout, yet the run stops, hung."""
    code, out, err, peak = conform("drip", tmp_path, *FEW, "-n", "0", FAKE_RATE="200")
    errors = _error_lines(err)
    assert code == 1 and len(errors) == 1, err
    assert "the engine is hung" in errors[0] and "trickled in" in errors[0] and "3 times in a row" in errors[0]
    assert left_alive(tmp_path / "pids") == []


def test_unasked_lines_add_up_to_a_protocol_verdict(tmp_path):
    """A line 0.3 s after every new_game reply: wherever it lands, never forgiven by later replies."""
    code, out, err, peak = conform("stray", tmp_path, "-n", "2")
    errors = _error_lines(err)
    assert code == 1 and len(errors) == 1, err
    assert "keeps breaking the protocol" in errors[0] and "lines that answered no request" in errors[0], errors
    assert left_alive(tmp_path / "pids") == []


def test_an_engine_that_exits_is_seen_through_its_process(tmp_path):
    """It exits at the first act while a child in a session of its own holds its stdout (no EOF
    comes): each exit is seen at once, there is a verdict, and the children are ended too."""
    code, out, err, peak = conform("setsid-exit", tmp_path, *FEW, "-n", "2", "--timeout", "60")
    text = out + err
    assert code == 1 and "Traceback" not in text, text
    assert "exited" in text and "no reply within" not in text, text  # never waited out the 60 s timeout
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert len(pids) >= 4  # every start: the engine and its child
    assert left_alive(tmp_path / "pids") == []


def test_engine_text_is_inert_on_the_terminal_and_in_every_report(tmp_path):
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    code, out, err, _ = conform("escapes", tmp_path, *FEW, "-n", "1", "--shrink", "0", "--junit", str(junit),
                                "--json", str(report))
    text = out + err
    assert code == 1 and "Traceback" not in text, text
    for raw in ("\x1b", "\r", "\x01", "\x07", "\x0b", "\u202e"):
        assert raw not in text, repr(raw)
    assert "\\x1b[2J" in text and "\\u202e" in text
    suite = ET.parse(junit).getroot()  # well-formed: nothing XML 1.0 forbids
    assert int(suite.get("failures", 0)) + int(suite.get("errors", 0)) > 0
    assert "\x1b" not in report.read_text()
    assert left_alive(tmp_path / "pids") == []
