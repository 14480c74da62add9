"""`president conform` on every engine of tests/engines/expected.json: its diagnosis is the expected one.

For each engine (tests/engines/README.md gives the format): every expected root cause is named by its
clause or one of its `or`; no other clause is named; the fitted variant is `fitted`; "partly explained"
shows exactly when `partly` is true, by a variant of `partly_by`."""
from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from president.conform import run as conform_run
from president.conform import report

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "tests" / "engines" / "expected.json").read_text(encoding="utf-8"))["engines"]
NODE = shutil.which("node")


def _command(entry: dict) -> str:
    words = shlex.split(entry["command"])
    program = {"python": sys.executable, "node": NODE}.get(words[0], words[0])
    return " ".join([shlex.quote(str(program)), *(shlex.quote(str(ROOT / w)) if w.startswith("tests/") else w
                                                   for w in words[1:])])


@pytest.mark.parametrize("entry", EXPECTED, ids=[e["command"].split("/")[-1] for e in EXPECTED])
def test_diagnosis_is_the_expected_one(entry):
    if entry["command"].startswith("node") and NODE is None:
        pytest.skip("node is not installed")
    run = conform_run(_command(entry), games=40, seed=3, shrink=0)
    named = {d.clause for d in run.deviations} | {c for d in run.deviations for c in d.also}
    allowed = {c for dev in entry["deviations"] for c in [dev["clause"], *dev["or"]]}
    for dev in entry["deviations"]:  # every expected root cause is named
        assert named & {dev["clause"], *dev["or"]}, (dev, named)
    assert named <= allowed, named - allowed  # and nothing else
    assert dict(run.fit.variant) == entry["fitted"]
    partly = {tuple(sorted(j.variant)) for j in run.fit.partly}
    expected_partly = {tuple(sorted(p.items())) for p in entry["partly_by"]}
    if entry["partly"]:
        assert partly & expected_partly, (partly, expected_partly)
    else:
        assert not partly, partly
    if not entry["deviations"]:
        assert not run.failing and "fitted variant: the spec's defaults" in "\n".join(report.first_screen(run))
