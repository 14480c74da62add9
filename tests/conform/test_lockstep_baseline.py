"""The fit's baseline from lock-step is the one a replay of the traces gives (issue 30, "Cost").

Lock-step compares every game on the reference as it is played, so it keeps each game's divergent
steps for the fit (`GameRecord.fit_steps`, `baseline.Baseline`) and the fit replays only the traces
it lacks. This checks, on engines that diverge in different ways (several rules at once, passes
that are not final, a finished seat that keeps the turn, seeded deals of the engine's own, a
declared house rule), that the fit given lock-step's baseline finds what it finds replaying every
trace, and that the fitted variant's quick confirmation (`fit.QUICK_CONFIRM`) finds what replaying
each trace under its own config first finds: the same divergent steps with the same clauses and mechanisms (and messages, where both
keep a step whole), the same reach, the same
fitted variant and explained steps, the same partial explanations and evidence groups."""
from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from president.conform import api
from president.conform import fit as fit_module
from president.conform import verdict

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")

ENGINES = [
    "benchmarks/many_ways.py",
    "tests/engines/quirks.py not-final",
    "tests/engines/quirks.js keeps-turn",
    "tests/engines/shuffle.py from-seat-1",
    "tests/engines/pyres.py house",
    "tests/engines/tycoon.js",
]


def _command(engine: str) -> str:
    words = shlex.split(engine)
    program = NODE if words[0].endswith(".js") else sys.executable
    return shlex.join([str(program), str(ROOT / words[0]), *words[1:]])


def _summary(fitted: Any, reach: Any) -> dict[str, Any]:
    """What the fit found (a light step keeps its group's finding: its own message only when whole)."""
    return {"steps": sorted((d.key, d.finding.clause, d.mechanism) for d in fitted.baseline),
            "reach": [r for r in reach], "variant": fitted.variant, "explained": sorted(fitted.explained),
            "partly": sorted(fit_module.label(j.variant) for j in fitted.partly),
            "evidence": sorted(map(repr, fitted.evidence))}


def _messages(fitted: Any) -> dict[Any, str]:
    return {d.key: d.finding.message for d in fitted.baseline if d.whole}


@pytest.mark.parametrize("engine", ENGINES)
def test_lockstep_gives_the_fit_the_baseline_a_replay_gives(engine, monkeypatch):
    if engine.split()[0].endswith(".js") and NODE is None:
        pytest.skip("node is not installed")
    calls: list[tuple[tuple, dict, dict]] = []
    original = fit_module.fit
    reaches: list[Any] = []
    keep_reach = fit_module._Fitter.baseline

    def spy(traces, rules, *args, **kwargs):
        out = original(traces, rules, *args, **kwargs)
        calls.append(((traces, rules, *args), dict(kwargs), _summary(out, reaches[-1])))
        return out

    def baseline(self, numbers):
        reaches.append(self.reach)
        return keep_reach(self, numbers)

    monkeypatch.setattr(verdict, "fit", spy)
    monkeypatch.setattr(fit_module._Fitter, "baseline", baseline)
    run = api.run(_command(engine), games=8, seed=7, shrink=0)
    assert not run.toolkit_errors, run.toolkit_errors
    (args, kwargs, given), = calls
    messages = _messages(run.fit)
    assert kwargs["given"] is not None and kwargs["given"].reach  # lock-step gave its games' baseline
    assert len(kwargs["given"].reach) == run.lock.games
    monkeypatch.setattr(fit_module, "QUICK_CONFIRM", False)  # the baseline replayed before each confirmation
    named = original(*args, **kwargs)
    assert given == _summary(named, reaches[-1])
    kwargs["given"] = None
    replayed = original(*args, **kwargs)
    assert given == _summary(replayed, reaches[-1])
    again = _messages(replayed)
    both = messages.keys() & again.keys()
    assert both and all(messages[k] == again[k] for k in both)
    assert given["steps"]  # the engine diverges: there was something to compare
