"""Issue 30's diagnosis: one cause, one deviation; no false explanation; advice only from evidence
that the full run would not refute; minimal scenarios that assert what differs; the first screen
ranked by what each cause accounts for, with the games followed to the end."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from president.conform import run as conform_run
from president.conform.credible import (declared_out, ruled_out, scenario_evidence, scenario_only,
                                        worth_showing)
from president.conform.diagnose import Evidence, Finding
from president.conform.fit import Divergent, Fit, Judgement, label
from president.conform.records import Mechanism
from president.conform.report import Run, first_screen, followed_line, stop_reason
from president.conform.shrink import asserts
from president.conform.verdict import Deviation, _explicit
from president.game.engine import Ruleset
from president.scenarios.model import Op, Scenario

HERE = Path(__file__).resolve().parent
TWO_CAUSES = f"{sys.executable} {HERE / 'two_causes_engine.py'}"


def _div(trace: int, step: int, clause: str) -> Divergent:
    return Divergent((trace, step, clause), Finding(clause, "differs"), {"cmd": "act"}, None, {})


def _judged(variant, removed, added) -> Judgement:
    return Judgement(variant, removed=[_div(*k) for k in removed], added=[_div(*k) for k in added])


# --- no false explanation ------------------------------------------------------------------------------
def test_a_value_the_hello_or_the_deck_rules_out_explains_nothing():
    rules = Ruleset.from_spec()
    hello = {"players": [3, 4], "jokers": [0], "equality": [False, True]}
    assert declared_out(hello, "jokers", 1) and not declared_out(hello, "jokers", 0)
    assert not declared_out(hello, "equality", True) and not declared_out(hello, "sequences", True)
    assert ruled_out((("jokers", 2),), hello, rules, set())
    # no hello word on jokers: the engine's own seeded deals of the spec's deck rule them out
    deck = Ruleset.from_spec().config(players=3).deck.bit_count()
    assert ruled_out((("jokers", 1),), {}, rules, {deck})
    assert not ruled_out((("jokers", 1),), {}, rules, set())  # nothing dealt from a seed: no word on it
    assert not ruled_out((("equality", True),), {}, rules, {deck})  # not a value of the deck


def test_a_value_adding_more_deviations_than_it_removes_is_not_a_partial_explanation():
    baseline = {"setup.first-lead": 39, "play.same-rank": 200}
    # removes one clause, adds two (the tables it makes the reference refuse)
    jokers = _judged((("jokers", 1),), [(0, i, "setup.first-lead") for i in range(39)],
                     [(1, i, "setup.players") for i in range(57)] + [(2, 0, "setup.partial-hands")])
    assert not worth_showing(jokers, baseline)
    # removes a first-lead difference whole and adds one clause: a true hint, kept
    holder = _judged((("first_lead", "holder:3C"),), [(0, i, "setup.first-lead") for i in range(39)],
                     [(1, i, "option.first-lead.holder") for i in range(400)])
    assert worth_showing(holder, baseline)
    # removes most of a clause and adds fewer steps elsewhere (equal ranks that do not skip a seat)
    equal = _judged((("equality", True),), [(0, i, "play.same-rank") for i in range(150)],
                    [(1, i, "option.equality.on") for i in range(20)] + [(2, 0, "trick.end"), (3, 0, "turn.order")])
    assert worth_showing(equal, baseline)
    # removes a sliver of the difference it touches: says nothing about it
    sliver = _judged((("sequences", True),), [(0, i, "play.same-rank") for i in range(5)],
                     [(1, 0, "option.sequences.on")])
    assert not worth_showing(sliver, baseline)


# --- --games 0: advice only from whole scenarios ---------------------------------------------------------
def _fit(variant, baseline, judged) -> Fit:
    base = [_div(*k) for k in baseline]
    return Fit(variant, base, {d.key for j in judged if j.explains for d in j.removed}, [], judged)


def test_scenarios_alone_advise_only_a_value_that_explains_whole_scenarios():
    baseline = [(0, 3, "play.strictly-higher"), (1, 2, "play.strictly-higher"), (2, 5, "pass.final"),
                (2, 6, "play.strictly-higher")]
    whole = _judged((("equality", True),), [(0, 3, "play.strictly-higher"), (1, 2, "play.strictly-higher")], [])
    assert scenario_evidence(whole, {0: {(0, 3, "play.strictly-higher")}, 1: {(1, 2, "play.strictly-higher")}})
    fitted = _fit((("equality", True),), baseline, [whole])
    scenario_only(fitted)
    assert fitted.variant == (("equality", True),) and fitted.guesses == ()
    # a value that leaves another divergence in the one scenario it touches is a guess, not advice
    part = _judged((("leader_may_pass", True),), [(2, 6, "play.strictly-higher")], [])
    fitted = _fit((("leader_may_pass", True),), baseline, [part])
    scenario_only(fitted)
    assert fitted.variant == () and fitted.guesses == (("leader_may_pass", True),) and not fitted.explained
    assert fitted.line == "" and fitted.as_dict()["guesses"] == label(fitted.guesses)


# --- the first screen -----------------------------------------------------------------------------------
def test_root_causes_rank_by_games_and_scenarios_and_a_line_says_what_stopped_the_games():
    spec = Ruleset.from_spec().spec
    structural = Deviation("play.same-rank", "t", "d", "e", games=150, steps=400)
    blocking = Deviation("score.points", "t", "d", "e", blocked=11, games=20, steps=30)
    ranked = sorted([blocking, structural], key=lambda d: tuple(-w for w in d.weight))
    assert ranked[0] is structural  # 150 games outweigh 11 blocked scenarios and 20 games
    lock = SimpleNamespace(games=200, steps=1, failed=200, errors=0, steps_per_s=1.0, unfinished=[
        (g, f"not followable: seat {g % 3} is to act: it cannot have passed: pass.final") for g in range(150)]
        + [(g, f"not followable: seat {g % 3} is to act but has finished: lead.next-active") for g in range(150, 190)],
        divergences=[])
    assert stop_reason(lock.unfinished[0][1]) == "not followable at pass.final"
    line = followed_line(lock)
    assert line.startswith("followed to the end: 10 of 200 lock-step games")
    assert "150 not followable at pass.final, 40 not followable at lead.next-active" in line
    run = Run(spec, [], lock, deviations=ranked)  # type: ignore[arg-type]
    screen = first_screen(run)
    assert line in screen
    causes = [s for s in screen if s[:3].strip().rstrip(".").isdigit()]
    assert causes[0].split()[1] == "play.same-rank" and causes[1].split()[1] == "score.points"


# --- minimal scenarios ----------------------------------------------------------------------------------
def test_a_confirmed_scenario_must_check_the_property_that_differs():
    lead = Mechanism("deal", "", "to_act")
    sizes = Scenario("setup.first-lead/minimal", "setup.first-lead", "setup", "t",
                     (Op.of("table", players=3), Op.of("seed", seed=1), Op.of("start"),
                      Op.of("hand-sizes", sizes=[18, 17, 17])))
    assert not asserts(sizes, lead)
    who = Scenario("setup.first-lead/minimal", "setup.first-lead", "setup", "t",
                   (Op.of("table", players=3), Op.of("start"), Op.of("to-act", seat=0)))
    assert asserts(who, lead) and not asserts(who, Mechanism("act", "play", "passed"))
    assert asserts(who, None)


def test_a_seeded_first_deal_that_leads_wrong_is_shrunk_from_the_engine_s_own_hands():
    hands = [["3C", "5D"], ["4C", "6D"], ["7C", "8D"]]
    seeded = Evidence([{"cmd": "new_game", "config": {"players": 3}, "seed": 9}], {"ok": True},
                      {"ok": True, "state": {"hands": hands, "to_act": 1}}, None, "setup.first-lead")
    explicit = _explicit(seeded)
    assert explicit.requests == [{"cmd": "new_game", "config": {"players": 3}, "hands": hands}]
    dealing = Evidence(seeded.requests, seeded.expected, seeded.actual, None, "setup.dealing")
    assert _explicit(dealing) is dealing  # a deal that breaks the dealing rules stays a seeded deal


# --- one cause, one deviation ---------------------------------------------------------------------------
@pytest.mark.slow
def test_two_rules_of_one_symptom_are_two_deviations_each_with_its_own_minimal_scenario():
    both = conform_run(TWO_CAUSES, games=12, seed=1, shrink=6.0)
    same = Mechanism("act", "play", "refused")
    follow = [d for d in both.deviations if d.clause == "flow.follow" and d.mechanism == same]
    assert len(follow) >= 2, both.summary()
    assert len({d.context for d in follow}) == len(follow) and all(d.context for d in follow)
    assert len({d.gherkin for d in follow}) == len(follow)  # its own evidence and minimal scenario each
    assert sum(d.steps for d in follow) > max(d.steps for d in follow)
    # with one rule only, the symptom is one deviation: nothing is split that one cause explains
    one = conform_run(f"{TWO_CAUSES} seven", games=12, seed=1, shrink=0)
    alone = [d for d in one.deviations if d.clause == "flow.follow" and d.mechanism == same]
    assert len(alone) == 1 and not alone[0].context, one.summary()
