"""Engines whose states the spec cannot reach (tests/engines/offspec.py, the `outside` entries of
tests/engines/expected.json) get a verdict as an engine author would get it: `president conform`
ends, prints its report, writes the JSON, exits 1 (the engine deviates), counts no toolkit error,
and names the expected clauses and nothing outside them. A game that reaches a state no rule can
hold ends there, counted in `lockstep.unfinished` with the clause whose invariant it breaks."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "tests" / "engines" / "expected.json").read_text(encoding="utf-8"))
OUTSIDE = [e for e in EXPECTED["engines"] if e.get("outside")]


def _command(entry: dict) -> str:
    words = entry["command"].split()
    return " ".join([sys.executable if words[0] == "python" else words[0], *(str(ROOT / w) if w.startswith("tests/") else w for w in words[1:])])


@pytest.mark.parametrize("entry", OUTSIDE, ids=[e["command"].split()[-1] for e in OUTSIDE])
def test_an_engine_outside_the_spec_gets_a_verdict(entry, tmp_path):
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "president", "conform", "--engine", _command(entry), "--games", "30", "--seed", "5",
         "--json", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=420)
    assert done.returncode == 1, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert done.stdout.startswith("engine: ") and "root causes" in done.stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data.get("toolkit_errors", []) == []
    named = {d["clause"] for d in data["deviations"]}
    allowed = {c for d in entry["deviations"] for c in (d["clause"], *d["or"])}
    assert named and named <= allowed, (named, allowed)
    for expected in entry["deviations"]:
        assert named & {expected["clause"], *expected["or"]}, (expected, named)
    lockstep = data["lockstep"]
    assert lockstep["games"] == 30
    if entry["unfollowable"]:
        # the engine's own state breaks an invariant of every state the rules can reach: the
        # divergence that led there is a deviation of the clause that invariant embodies, and the
        # reference follows the engine from its next state the rules can hold: most games end
        assert entry["unfollowable"] in named, named
        assert len(lockstep["unfinished"]) <= lockstep["games"] // 2, lockstep["unfinished"]
