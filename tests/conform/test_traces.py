"""Every scenario and every lock-step game keeps its whole trace (requests and the engine's replies)."""
from __future__ import annotations

from president.conform.lockstep import run_lockstep
from president.conform.runner import run_scenarios
from president.protocol.client import InProcessClient
from president.protocol.server import Session
from president.spec import default_spec

SPEC = default_spec()


def test_lockstep_keeps_one_trace_per_game_in_order():
    res = run_lockstep(SPEC, InProcessClient(), games=6, seed=3)
    assert [t.source for t in res.traces] == [f"game {g}" for g in range(6)]
    for t in res.traces:
        assert t.steps[0][0]["cmd"] == "new_game" and t.config["players"] >= 3
        replay = Session()
        for req, reply in t.steps:  # the reference engine is the engine here: its replies replay exactly
            assert replay.handle(req) == reply
        assert t.steps[-1][1]["state"]["phase"] == "game_over"


def test_scenarios_keep_their_trace():
    results = run_scenarios(InProcessClient(), SPEC, ["play.count-matches"], options={})
    assert results and all(r.trace is not None and r.trace.source == r.id for r in results)
    assert all(r.trace.steps[0][0]["cmd"] == "new_game" for r in results if r.outcome != "skip")


def test_a_seeded_game_replays_with_the_hands_the_engine_dealt():
    from president.conform.trace import Trace

    engine = Session()
    req = {"cmd": "new_game", "config": {"players": 3}, "seed": 4}
    reply = engine.handle(req)
    t = Trace("game 0", steps=[(req, reply), ({"cmd": "legal"}, engine.handle({"cmd": "legal"}))])
    first = t.explicit_requests()[0]
    assert "seed" not in first and first["hands"] == reply["state"]["hands"]
    assert Session().handle(first)["state"] == reply["state"]
