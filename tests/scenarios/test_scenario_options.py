"""Scenarios require only the options they depend on (president/scenarios/model.py requirements).

For each option, an engine that plays another value of it, and declares only that value in
`hello`, must pass or skip every scenario: a failure means a scenario depends on the option
without requiring it. The reference engine itself passes every scenario.
"""
from __future__ import annotations

from typing import Any

import pytest

from president.protocol.client import InProcessClient
from president.conform.runner import run_scenarios
from president.protocol.server import Session
from president.spec import default_spec

SPEC = default_spec()
OTHER_VALUES: dict[str, Any] = {"revolution": False, "equality": True, "sequences": True, "jokers": 2,
                                "first_lead": "holder:3C", "leader_may_pass": True, "scoring": "none"}


def _engine_playing(name: str, value: Any) -> type[Session]:
    class House(Session):
        def _hello(self, req: dict[str, Any]) -> dict[str, Any]:
            reply = super()._hello(req)
            reply["options"][name] = [value]
            return reply

        def _new_game(self, req: dict[str, Any]) -> dict[str, Any]:
            config = req.get("config")
            if isinstance(config, dict):
                req = {**req, "config": {**config, name: config.get(name, value)}}
            return super()._new_game(req)
    return House


@pytest.mark.parametrize("name,value", sorted(OTHER_VALUES.items()))
def test_an_engine_with_another_option_value_fails_no_scenario(name: str, value: Any) -> None:
    client = InProcessClient(_engine_playing(name, value))
    options = client.request({"cmd": "hello"})["options"]
    results = run_scenarios(client, SPEC, options=options)
    bad = [f"{r.id}: {r.message}" for r in results if r.outcome in ("fail", "error")]
    assert not bad
    skipped = [r for r in results if r.outcome == "skip"]
    # the scenarios of that option's other values run, the ones needing the default are skipped
    assert all(name in r.message for r in skipped)
    assert any(r.outcome == "pass" and dict(r_req).get(name) == value
               for r in results for r_req in [_requires(r.id)])


def _requires(scenario_id: str) -> tuple[tuple[str, Any], ...]:
    from president.scenarios.model import build_scenarios

    return next(s.requires for s in build_scenarios(SPEC) if s.id == scenario_id)


def test_a_scenario_without_quads_does_not_require_revolution() -> None:
    from president.scenarios.model import build_scenarios

    scs = build_scenarios(SPEC)
    rev = [s for s in scs if any(k == "revolution" for k, _ in s.requires)]
    assert len(rev) < len(scs) // 5
    assert all(s.clause.startswith(("revolution.", "flow.lead", "ai.", "option.jokers")) for s in rev)


def test_the_reference_engine_passes_every_scenario_of_every_option_value() -> None:
    client = InProcessClient()
    results = run_scenarios(client, SPEC, options=client.request({"cmd": "hello"})["options"])
    assert results and all(r.outcome == "pass" for r in results), [r.id for r in results if r.outcome != "pass"]
    for opt in SPEC.options:
        for v in opt.values:
            clause = SPEC.clause(v.clause)
            assert clause.examples, f"{opt.name} = {v.value!r}: clause {clause.id} has no example"
