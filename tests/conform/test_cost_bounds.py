"""What a run keeps in memory does not grow with the number of games (issue 30, "Cost").

Structural, not timed: the traces go to a spool (two offsets per game in memory), the lock-step
result lists a bounded number of divergences and keeps evidence for a bounded number of them, and
the fit keeps a bounded number of whole divergent steps, of evidence and of traces in memory,
whatever the number of games. `benchmarks/conform_cost.py` measures the peak memory itself.
"""
from __future__ import annotations

import pytest

from president.conform import baseline as baseline_module
from president.conform import fit as fit_module
from president.conform.fit import fit
from president.conform.jobs import run_parallel
from president.conform.lockstep import KEEP_DIVERGENCES, run_lockstep
from president.conform.trace import Actions, Chain, Trace, TraceSpool
from president.game.engine import Ruleset
from president.protocol.client import InProcessClient
from president.spec import default_spec

SPEC = default_spec()
RULES = Ruleset.from_spec(SPEC)
#: The reference plays equality=true, the engine (the reference itself) does not: most games diverge.
VARIANT = {"equality": True}


def _run(games: int):
    return run_lockstep(SPEC, InProcessClient(), games=games, seed=5, variant=VARIANT)


@pytest.fixture(scope="module")
def runs():
    return {n: _run(n) for n in (6, 18)}


def _with_evidence(res) -> int:
    return sum(d.evidence is not None for d in res.divergences) + sum(
        d.evidence is not None for s in res.deviations.values() for d in [s.first, *s.samples])


def test_the_traces_are_spooled_and_read_back_whole(runs):
    res = runs[6]
    assert isinstance(res.traces, TraceSpool) and len(res.traces) == 6
    assert [t.source for t in res.traces] == [f"game {g}" for g in range(6)]
    again = res.traces[2]
    assert again is not res.traces[2] and again.steps == res.traces[2].steps  # a fresh copy each time
    assert again.steps[0][0]["cmd"] == "new_game"


def test_a_spool_keeps_long_legal_lists_shared():
    long = [{"type": "play", "cards": [f"{r}{s}"]} for r in range(300) for s in "C"]
    spool = TraceSpool([Trace("a", [({"cmd": "legal"}, {"ok": True, "player": 0, "actions": long})])] * 2)
    a, b = spool[0].steps[0][1]["actions"], spool[1].steps[0][1]["actions"]
    assert isinstance(a, Actions) and a is b and list(a) == long
    assert list(Chain([Trace("s")], spool)) [0].source == "s" and len(Chain([Trace("s")], spool)) == 3


def test_the_divergences_kept_do_not_grow_with_the_games(runs):
    few, many = runs[6], runs[18]
    assert many.failed > few.failed > 0  # more games, more divergent games: the counts are exact
    for res in (few, many):
        clauses = {d.clause for d in res.divergences}
        assert len(res.divergences) <= KEEP_DIVERGENCES + len(clauses)
    # evidence only for each deviation's first divergence and its samples (8 at most): bounded by the deviations
    assert _with_evidence(many) <= sum(1 + len(s.samples) for s in many.deviations.values()) * 2
    assert all(len(s.samples) <= 8 for s in many.deviations.values())


def test_few_divergences_are_listed_but_all_are_counted(monkeypatch):
    from president.conform import lockstep

    monkeypatch.setattr(lockstep, "KEEP_DIVERGENCES", 3)
    res = _run(8)
    assert len(res.divergences) <= 3 + len({d.clause for d in res.divergences})
    assert sum(s.steps for s in res.deviations.values()) > len(res.divergences)


def _as_asked(traces):
    """The games as if the engine had been asked for the variant (and played without it)."""
    out = TraceSpool()
    for t in traces:
        out.append(Trace(t.source, [({**req, "config": {**req["config"], **VARIANT}} if req["cmd"] == "new_game"
                                     else req, reply) for req, reply in t.steps]))
    return out


def test_the_fit_keeps_a_bounded_part_of_the_baseline(runs, monkeypatch):
    monkeypatch.setattr(baseline_module, "KEEP_WHOLE", 2)
    monkeypatch.setattr(baseline_module, "KEEP_SPREAD", 3)
    monkeypatch.setattr(fit_module, "JUDGED_TRACES", 2)
    kept = {}
    for n, res in runs.items():
        fitted = fit(_as_asked(res.traces), RULES, {})
        groups: dict = {}
        for d in fitted.baseline:
            groups.setdefault((d.finding.clause, d.mechanism), []).append(d)
        assert any(len(divs) > 2 for divs in groups.values())  # some steps were lightened
        # the first KEEP_WHOLE stay whole, then an even sample of at most KEEP_SPREAD over the later ones
        assert all(sum(d.whole for d in divs) <= 2 + 3 for divs in groups.values())
        assert all(all(d.whole for d in divs[:2]) for divs in groups.values())
        assert all(d.before is None and d.actual is None for divs in groups.values() for d in divs if not d.whole)
        long = [divs for divs in groups.values() if len(divs) > 20]
        assert long and all(any(d.whole for d in divs[len(divs) // 2:]) for divs in long)  # spread, not the first
        assert all(len(ev) <= baseline_module.EVIDENCE for ev in fitted.evidence.values())
        kept[n] = (fitted.judged_traces, len(fitted.baseline))
    (judged_few, steps_few), (judged_many, steps_many) = kept[6], kept[18]
    assert steps_many > steps_few  # every divergent step is counted
    # divergent games judged: at most JUDGED_TRACES; clean ones within CLEAN_STEPS (or CLEAN_SAMPLE)
    assert max(judged_few, judged_many) <= 2 + fit_module.CLEAN_SAMPLE


def test_results_reach_a_sink_in_order_and_none_is_kept():
    got: list[int] = []
    out = run_parallel(list(range(7)), lambda client, i: i * i, InProcessClient(), jobs=3,
                       factory=InProcessClient, sink=got.append)
    assert out == [] and got == [i * i for i in range(7)]
    got.clear()
    assert run_parallel(list(range(3)), lambda client, i: -i, InProcessClient(), sink=got.append) == []
    assert got == [0, -1, -2]
