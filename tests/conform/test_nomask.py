"""Lock-step without masking, seeded deals by observables, --jobs, and confirmed minimal scenarios (issue 19)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from president.conform.lockstep import run_lockstep
from president.conform.runner import handshake, run_scenarios
from president.conform.verdict import diagnose_fit, shrink_deviation
from president.game.engine import Ruleset
from president.protocol.client import InProcessClient, SubprocessClient
from president.spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = default_spec()
RULES = Ruleset.from_spec(SPEC)


def engine(*argv: str) -> SubprocessClient:
    return SubprocessClient([sys.executable, *argv])


def mutant(name: str) -> SubprocessClient:
    return engine(str(ROOT / "tests" / "mutants" / "mutant.py"), name)


def shuffler(mode: str) -> SubprocessClient:
    return engine(str(ROOT / "tests" / "conform" / "shuffle_engine.py"), mode)


def lockstep(client, games: int, **kw):
    options = handshake(client)["options"]
    return run_lockstep(SPEC, client, games=games, seed=3, options=options, **kw), options


def last_phase(trace) -> str:
    replies = [r for _, r in trace.steps if isinstance(r, dict) and "state" in r]
    return replies[-1]["state"]["phase"]


@pytest.mark.parametrize("name, clause", [("scoring-off-by-one", "score.points"),
                                          ("worst-cards-given", "exchange.best")])
@pytest.mark.slow
def test_later_deal_differences_are_found_and_counted(name, clause):
    client = mutant(name)
    try:
        res, _ = lockstep(client, 16)
    finally:
        client.close()
    devs = [d for (c, _), d in res.deviations.items() if c == clause]
    assert devs, list(res.deviations)
    games = set().union(*(d.games for d in devs))
    seen = [d for d in res.divergences if d.clause == clause]
    assert len(games) == len({d.game for d in seen}) >= 2  # each deviation counts its games and steps
    assert sum(d.steps for d in devs) == len(seen) and all(d.steps >= len(d.games) for d in devs)
    assert len(res.deviations) <= 4  # a few deviations, not one per game or per step
    # the difference shows again in later deals of the same game: the first did not mask it
    assert any(d.deal >= 2 for d in seen) and any(sum(d.game == g for d in seen) >= 2 for g in games)


def test_every_game_is_played_to_game_over_after_a_divergence():
    client = mutant("pass-not-final")
    try:
        res, _ = lockstep(client, 12)
    finally:
        client.close()
    assert res.failed > 0 and res.unfinished == []
    assert [t.source for t in res.traces] == [f"game {g}" for g in range(12)]
    for g in res.divergent_games:
        trace = res.traces[g]
        first = min(d.index for d in res.divergences if d.game == g)
        assert last_phase(trace) == "game_over"
        assert sum(req["cmd"] == "act" for req, _ in trace.steps[first + 1:]) > 0  # steps compared after it


@pytest.mark.slow
def test_an_own_shuffle_is_no_deviation_but_dealing_from_seat_1_is():
    own = shuffler("own")
    try:
        options = handshake(own)["options"]
        assert "shuffle" not in options and options["seed"] is True
        results = run_scenarios(own, SPEC, ["setup.*", "option.jokers.*"], options=options)
        res, _ = lockstep(own, 20)
    finally:
        own.close()
    assert [r.id for r in results if r.outcome not in ("pass", "skip")] == []
    assert not [k for k in res.deviations if k[0].startswith("setup.")] and res.failed == 0
    assert any("seed" in t.steps[0][0] for t in res.traces)  # seeded games were played

    seat1 = shuffler("seat1")
    try:
        options = handshake(seat1)["options"]
        results = run_scenarios(seat1, SPEC, ["setup.*", "option.jokers.*"], options=options)
        res, _ = lockstep(seat1, 20)
    finally:
        seat1.close()
    roots = {r.root.clause for r in results if r.root is not None}
    assert roots == {"setup.dealing"}
    assert "setup.partial-hands" not in {k[0] for k in res.deviations}
    assert "setup.dealing" in {k[0] for k in res.deviations}


def _comparable(res) -> dict:
    data = res.as_dict()
    for key in ("seconds", "steps_per_s", "jobs"):
        data.pop(key)
    data["divergences"] = [d.as_dict() for d in res.divergences]
    data["traces"] = [t.steps for t in res.traces]
    data["notes"] = res.notes
    return data


@pytest.mark.slow
def test_jobs_2_gives_the_results_of_jobs_1():
    one = mutant("pass-not-final")
    try:
        options = handshake(one)["options"]
        a = run_lockstep(SPEC, one, games=10, seed=5, options=options)
        b = run_lockstep(SPEC, one, games=10, seed=5, options=options, jobs=2, factory=lambda: mutant("pass-not-final"))
    finally:
        one.close()
    assert b.jobs == 2 and a.failed > 0
    assert _comparable(a) == _comparable(b)


@pytest.mark.slow
def test_the_cli_json_does_not_depend_on_jobs(tmp_path):
    import json
    from click.testing import CliRunner
    from president.cli.main import main as cli

    out = {}
    for jobs in (1, 2):
        path = tmp_path / f"j{jobs}.json"
        r = CliRunner().invoke(cli, ["conform", "--games", "6", "--jobs", str(jobs), "--json", str(path),
                                     "-k", "flow.*", "--shrink", "0"])
        assert r.exit_code == 0, r.output
        data = json.loads(path.read_text())
        for key in ("seconds", "steps_per_s", "jobs"):
            data["lockstep"].pop(key)
        data.pop("steps_per_s")
        data["fit"].pop("seconds"), data["fit"].pop("cpu_seconds")  # the time the variant fitting took
        for sc in data["scenario_results"]:
            sc.pop("seconds")
        out[jobs] = data
    assert out[1] == out[2]


@pytest.mark.slow
def test_a_minimal_scenario_is_confirmed_and_no_bigger():
    client = mutant("wrong-next-leader")
    try:
        res, options = lockstep(client, 12)
        devs, _fit = diagnose_fit([], res, options, RULES, None)  # no shrinking yet
        assert devs
        dev = devs[0]
        assert dev.samples
        shrink_deviation(dev, client, RULES, budget=8.0)
    finally:
        client.close()
    assert dev.gherkin and "@confirmed" in dev.gherkin and dev.confirmed
    assert dev.minimal_size["seats"] <= dev.original_size["seats"]
    assert dev.minimal_size["plays"] <= dev.original_size["plays"]
    assert dev.minimal_size["cards"] < dev.original_size["cards"]


def test_the_reference_itself_never_diverges_and_plays_every_game_out():
    res = run_lockstep(SPEC, InProcessClient(), games=12, seed=9, options=InProcessClient().hello()["options"])
    assert res.failed == 0 and res.unfinished == [] and res.deviations == {}
    assert all(last_phase(t) == "game_over" for t in res.traces)
