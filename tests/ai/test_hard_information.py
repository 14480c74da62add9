"""The information diagnostic of issue 12 (benchmarks/hard_information.py) keeps working: its arms
play whole deals with legal moves, and the belief statistics are shares and world counts."""
from __future__ import annotations

import pytest

from president.game.engine import GameState, Phase, Ruleset


@pytest.fixture(scope="module")
def diag(benchmark_module):
    mod = benchmark_module("hard_information")
    mod.WORLDS = 8
    return mod


def test_arms_play_a_deal_to_the_end(diag):
    for arm in ("belief", "oracle@0", "oracle@20"):
        name, place, stats = diag.play((arm, 3, 1))
        assert name == arm and 1 <= place <= 4
        if arm == "belief":
            assert stats and all(0 <= hit <= 1 and 1 <= worlds <= diag.WORLDS for _p, hit, worlds in stats)
            assert [p for p, _h, _w in stats] == sorted(p for p, _h, _w in stats)
        else:
            assert stats == []


def test_the_planner_picks_a_legal_play_in_every_world(diag):
    rules = Ruleset.from_spec()
    g = GameState(rules, rules.config(4, deals=1), seed=5)
    while g.phase == Phase.PLAY:
        obs = g.observation(g.to_act)
        a = diag.plan(obs, obs.legal, [list(g.hands)])
        assert a in obs.legal
        g.apply(a)
    assert len(g.last_ranking) == 4
