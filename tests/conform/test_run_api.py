"""`president.conform.run` as a library call; a toolkit bug costs one item (exit 3); blocked is never a deviation."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import president.conform
from president.cli.main import main as cli
from president.conform import Outcome, runner
from president.conform.matrix import matrix, matrix_text
from president.conform.toolkit import ToolkitError, guard

pytestmark = pytest.mark.slow  # whole conform runs through the library

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "tests" / "mutants"
REFERENCE = f"{sys.executable} -m president engine"


def test_an_engine_author_asserts_conformance_in_their_own_tests():
    run = president.conform.run([sys.executable, "-m", "president", "engine"], games=2, patterns=["flow.*"], shrink=0)
    assert run.ok, run.summary()
    assert run.exit_code == 0 and run.toolkit_errors == [] and run.deviations == []
    assert run.scenario_results and all(r.outcome in (Outcome.PASS, Outcome.SKIP) for r in run.scenario_results)
    data = run.to_json()
    assert data["ok"] is True and data["exit_code"] == 0 and data["toolkit_errors"] == []
    assert json.loads(json.dumps(data))["scenario_results"][0]["outcome"] in ("pass", "skip")  # plain strings
    assert "steps/s" in run.summary()


def test_a_failing_engine_is_not_ok_and_says_why():
    run = president.conform.run(f"{sys.executable} {MUTANTS / 'mutant.py'} ties-allowed", games=0,
                                patterns=["play.strictly-higher"], shrink=0)
    assert not run.ok and run.exit_code == 1 and not run.toolkit_errors
    assert "play.strictly-higher" in run.summary()


def test_no_scenario_matched_is_an_error_before_the_engine_starts():
    with pytest.raises(president.conform.NoScenario, match="no scenario matches"):
        president.conform.run("this-engine-does-not-exist", patterns=["no.such.clause"])


def test_guard_records_a_bug_and_lets_a_stop_through():
    errors: list[ToolkitError] = []
    with guard("scenario", "x/y", errors, trace=lambda: [({"cmd": "hello"}, {"ok": True})]) as caught:
        raise ZeroDivisionError("planted")
    assert caught.error is errors[0] and errors[0].error == "ZeroDivisionError: planted"
    assert "ZeroDivisionError" in errors[0].traceback
    assert errors[0].to_json()["trace"] == [[{"cmd": "hello"}, {"ok": True}]]
    from president.protocol.client import RunStopped
    with pytest.raises(RunStopped):
        with guard("scenario", "x/z", errors):
            raise RunStopped("budget spent")
    assert len(errors) == 1


@pytest.fixture
def planted(monkeypatch):
    """The reference's replay (`root_cause`) raises inside exactly one scenario: a toolkit bug."""
    calls = {"n": 0}
    real = runner.root_cause

    def root_cause(sent, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise ZeroDivisionError("planted toolkit bug")
        return real(sent, *args, **kwargs)

    monkeypatch.setattr(runner, "root_cause", root_cause)
    return calls


def test_a_toolkit_error_costs_one_scenario_writes_every_report_and_exits_3(planted, tmp_path):
    files = {"--json": tmp_path / "r.json", "--junit": tmp_path / "r.xml", "--cucumber-json": tmp_path / "c.json",
             "--html": tmp_path / "r.html"}
    args = ["conform", "--engine", REFERENCE, "--games", "2", "-k", "flow.*", "--shrink", "0"]
    out = CliRunner().invoke(cli, args + [x for option, path in files.items() for x in (option, str(path))])
    assert out.exit_code == 3, out.output
    assert all(path.is_file() for path in files.values())
    data = json.loads(files["--json"].read_text())
    assert len(data["toolkit_errors"]) == 1 and data["exit_code"] == 3 and not data["ok"]
    error = data["toolkit_errors"][0]
    assert error["kind"] == "scenario" and error["error"] == "ZeroDivisionError: planted toolkit bug"
    assert "root_cause" in error["traceback"]
    saved = json.loads(Path(error["file"]).read_text())  # beside the report: traceback and replayable trace
    assert Path(error["file"]).parent == Path(f"{files['--json']}.toolkit-errors")
    assert saved["item"] == error["item"] and saved["trace"] and saved["trace"][0][0]["cmd"] == "new_game"
    results = {r["id"]: r["outcome"] for r in data["scenario_results"]}
    assert results[error["item"]] == "toolkit" and list(results.values()).count("toolkit") == 1
    assert data["scenarios"]["toolkit_errors"] == 1 and data["scenarios"]["failed"] == data["scenarios"]["errors"] == 0
    assert sum(v == "pass" for v in results.values()) >= 3  # the scenarios after it ran and passed
    assert data["lockstep"]["games"] == 2  # and so did the lock-step games
    assert "toolkit errors: 1 (the toolkit failed, not your engine" in out.output
    assert 'type="toolkit"' in files["--junit"].read_text()


def test_exit_code_3_is_documented_beside_0_1_and_2():
    out = CliRunner().invoke(cli, ["conform", "--help"])
    assert "3 the toolkit failed, not your engine" in " ".join(out.output.split())
    docs = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert "| 3 |" in docs and "the toolkit failed, not your engine" in docs


def test_a_blocked_clause_is_blocked_in_every_report_never_a_deviation(tmp_path):
    engine = f"node {ROOT / 'tests' / 'engines' / 'daifugo.js'}"
    run = president.conform.run(engine, games=0, shrink=0)
    blocked = [r for r in run.scenario_results if r.outcome == Outcome.BLOCKED]
    assert blocked, run.summary()
    roots = {d.clause for d in run.deviations} | {c for d in run.deviations for c in d.also}
    clauses = run.clauses()
    table = matrix([run])
    for r in blocked:
        if r.clause in roots or any(o.clause == r.clause and o.outcome == Outcome.FAIL for o in run.scenario_results):
            continue  # the clause has a deviation of its own as well
        assert clauses[r.clause]["outcome"] == "blocked" and r.blocked_by in clauses[r.clause]["blocked_by"]
        cell = table["clauses"][r.clause]["engines"][0]
        assert cell["status"] == "blocked" and r.blocked_by in cell["detail"]
    deviation_cells = {cid for cid, row in table["clauses"].items() if row["engines"][0]["status"] == "deviation"}
    own_fails = {r.clause for r in run.scenario_results if r.outcome == Outcome.FAIL}
    assert deviation_cells <= roots | own_fails
    assert "blocked by" in matrix_text(table)
    data = run.to_json()
    assert all(data["clauses"][r.clause]["blocked_by"] for r in blocked)
    from president.conform import report
    page = report.annotated_sheet_html(run, "en")
    assert f"blocked by {blocked[0].blocked_by}" in page


def _after_first_deal():
    from president.protocol.server import Session

    ref = Session()
    ref.handle({"cmd": "new_game", "config": {"players": 3, "deals": 2}, "hands": [["5C"], ["4C", "3C"], ["6C"]]})
    state = None
    for req in ({"cmd": "act", "player": 0, "action": {"type": "play", "cards": ["5C"]}},
                {"cmd": "act", "player": 1, "action": {"type": "pass"}},
                {"cmd": "act", "player": 2, "action": {"type": "play", "cards": ["6C"]}}):
        state = ref.handle(req)["state"]
    return ref, state


def test_no_exchange_at_all_is_named_after_the_exchange_not_its_tie_break():
    from president.conform.diagnose import diverge
    from president.conform.records import mechanism

    ref, before = _after_first_deal()
    deal = {"cmd": "deal", "hands": [["3D", "4D", "5D"], ["6D", "9D", "2D", "AD"], ["7D", "8D"]]}
    expected = ref.handle(deal)
    assert expected["state"]["phase"] == "exchange"
    actual = {"ok": True, "state": {**expected["state"], "phase": "play", "to_act": 1, "hands": deal["hands"]}}
    finding = diverge(deal, expected, actual, before)  # phase differs first: whether an exchange happens
    assert finding is not None and finding.clause == "exchange.scum"
    assert mechanism(deal, expected, actual, before).differs == "phase"


def test_mechanisms_tell_apart_what_differs_under_one_clause():
    from president.conform.records import Mechanism, mechanism

    play = {"cmd": "act", "player": 0, "action": {"type": "play", "cards": ["5C"]}}
    pass_ = {"cmd": "act", "player": 1, "action": {"type": "pass"}}
    state = {"phase": "play", "deal": 1, "to_act": 1, "order": "normal", "trick": {"cards": ["5C"], "by": 0},
             "passed": [], "hands": [["6C"], ["4C"], ["7C"]], "finished": [], "scores": [0, 0, 0]}
    cleared = {**state, "trick": None, "to_act": 0}
    on_play = mechanism(play, {"ok": True, "state": state}, {"ok": True, "state": cleared}, None)
    on_pass = mechanism(pass_, {"ok": True, "state": state}, {"ok": True, "state": cleared}, None)
    assert on_play == Mechanism("act", "play", "trick") and on_pass == Mechanism("act", "pass", "trick")
    # a legal list that offers a pass the reference refuses is the mechanism of accepting that pass
    legal = {"cmd": "legal"}
    listed = mechanism(legal, {"ok": True, "player": 0, "actions": [{"type": "play", "cards": ["5C"]}]},
                       {"ok": True, "player": 0, "actions": [{"type": "play", "cards": ["5C"]}, {"type": "pass"}]})
    accepted = mechanism(pass_, {"ok": False, "error": {"code": "x", "rule": "lead.must-play"}}, {"ok": True, "state": state})
    assert listed == accepted == Mechanism("act", "pass", "accepted")


def test_one_mechanism_one_deviation_each_with_its_own_minimal_scenario():
    """An engine ending tricks early after a pass and after a play of eights: two trick.end deviations."""
    run = president.conform.run(f"{sys.executable} {ROOT / 'tests' / 'conform' / 'two_ways_engine.py'}", games=10,
                                seed=1)
    ends = {(d.mechanism.request, d.mechanism.action, d.mechanism.differs): d
            for d in run.deviations if d.clause == "trick.end" and d.mechanism is not None}
    assert set(ends) == {("act", "pass", "trick"), ("act", "play", "trick")}, run.summary()
    on_pass, on_play = ends[("act", "pass", "trick")], ends[("act", "play", "trick")]
    assert on_pass.difference.startswith("after pass") and on_play.difference.startswith("after play 8")
    for dev, last in ((on_pass, "passes"), (on_play, "plays 8")):
        assert dev.gherkin is not None and dev.confirmed, dev.as_dict()
        assert last in dev.gherkin.split("When the game starts")[1]
    assert "trick.end (act pass: trick differs)" in run.summary()
    assert {d["mechanism"]["action"] for d in run.to_json()["deviations"] if d["clause"] == "trick.end"} == {"pass", "play"}


def test_a_toolkit_error_in_a_whole_phase_costs_that_phase_and_exits_3(monkeypatch, tmp_path):
    from president.conform import lockstep

    def broken(*args, **kwargs):
        raise KeyError("planted in the lock-step phase")

    monkeypatch.setattr(lockstep, "run_lockstep", broken)
    out = CliRunner().invoke(cli, ["conform", "--engine", REFERENCE, "--games", "2", "-k", "flow.lead", "--shrink", "0",
                                   "--json", str(tmp_path / "r.json")])
    assert out.exit_code == 3, out.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert [e["kind"] for e in data["toolkit_errors"]] == ["lockstep"] and data["lockstep"] is None
    assert data["scenarios"]["passed"] > 0  # the scenarios kept their verdicts


def test_an_internal_error_outside_any_item_exits_3_naming_the_toolkit(monkeypatch):
    def broken(client):
        raise TypeError("planted before any item")

    monkeypatch.setattr(runner, "handshake", broken)
    out = CliRunner().invoke(cli, ["conform", "--engine", REFERENCE, "--games", "0", "-k", "flow.lead"])
    assert out.exit_code == 3
    assert "internal error (the toolkit failed, not your engine): TypeError: planted before any item" in out.output
