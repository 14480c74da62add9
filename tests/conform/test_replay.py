"""The one replay loop (`president.conform.replay`): adoption keeps the reference's count of deals
and the first-lead obligation, a STATE the rules cannot reach ends the game with its reason, a
toolkit bug costs one item (a game, a fit replay, a shrink), and the run's deadline is checked at
every reference step. Engines here are the reference with one behaviour changed, in process."""
from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from president.conform import fit as fit_module
from president.conform import games as games_module
from president.conform.diagnose import Evidence
from president.conform.fit import fit
from president.conform.lockstep import run_lockstep
from president.conform.replay import Replayer
from president.conform.toolkit import Deadline, ToolkitError, guard
from president.conform.verdict import Deviation, shrink_deviation
from president.game.engine import Phase, Ruleset
from president.protocol.client import InProcessClient, RunStopped
from president.protocol.server import Session
from president.spec import default_spec

SPEC = default_spec()
RULES = Ruleset.from_spec(SPEC)
OPTIONS = {"players": [4], "revolution": [True, False], "deals": True}


class DealGlitch(Session):
    """Once a game, the STATE after the first pass shows the next deal's number."""

    def handle(self, request: Any) -> Any:
        reply = super().handle(request)
        if request.get("cmd") == "new_game":
            self.glitched = False
        action = request.get("action") or {}
        if request.get("cmd") == "act" and action.get("type") == "pass" and reply.get("ok") \
                and not getattr(self, "glitched", True):
            self.glitched = True
            reply = copy.deepcopy(reply)
            reply["state"]["deal"] += 1
        return reply


class TurnToFinished(Session):
    """The winner of a trick who went out with it is given the lead (instead of the next active seat),
    and lists no legal action there: no STATE the reference can hold ever comes (test_follow.py has
    the engine whose finished seat passes, followed to the end)."""

    def handle(self, request: Any) -> Any:
        reply = super().handle(request)
        g = self.game
        if request.get("cmd") == "act" and reply.get("ok") and g is not None and g.phase == Phase.PLAY \
                and g.trick == 0 and g.trick_by is not None and not g.hands[g.trick_by]:
            g.to_act = g.trick_by
            reply = {"ok": True, "state": g.to_wire()}
        return reply


def test_after_adopting_the_reference_keeps_its_count_of_deals() -> None:
    res = run_lockstep(SPEC, InProcessClient(DealGlitch), games=8, seed=1, options=OPTIONS)
    assert res.divergent_games  # the glitch shows
    assert not [d for d in res.divergences if d.clause == "game.end"]  # and no false game.end follows it
    assert not res.unfinished and not res.toolkit_errors
    assert any(r.get("cmd") == "deal" for t in res.traces for r in t.requests)  # series of deals were played


def test_a_finished_seat_to_act_ends_the_game_with_its_reason() -> None:
    res = run_lockstep(SPEC, InProcessClient(TurnToFinished), games=6, seed=2, options=OPTIONS)
    assert not res.toolkit_errors
    reasons = [why for _, why in res.unfinished]
    assert reasons and all("is to act but has finished: lead.next-active" in why for why in reasons)
    followed = [d for d in res.divergences if d.details.startswith("not followable")]
    assert followed and all('"to_act"' in d.details for d in followed)  # the STATE is the evidence


def test_adoption_restores_the_first_lead_obligation() -> None:
    rep = Replayer(RULES)
    config = {"players": 3, "revolution": True, "deals": 1, "first_lead": "holder:3C"}
    hands = [["4C", "5C"], ["3C", "6C"], ["7C", "8C"]]
    step = rep.step({"cmd": "new_game", "config": config, "hands": hands},
                    {"ok": True, "state": {"phase": "play", "deal": 1, "to_act": 1, "order": "normal", "trick": None,
                                           "passed": [], "hands": hands, "finished": [], "scores": [0, 0, 0]}})
    assert step.finding is None
    rep.adopt(step.actual["state"])  # as after any divergence
    legal = rep.ref.game.legal_actions()
    assert legal and all(a >> 0 & 1 for a in legal)  # every first play holds the 3C (bit 0)


def test_a_toolkit_bug_in_one_game_costs_that_game(monkeypatch: pytest.MonkeyPatch) -> None:
    agreed = games_module.Game._agreed

    def buggy(self: games_module.Game, step: Any) -> None:
        if self.rec.number == 2 and self.rec.steps > 3:
            raise RuntimeError("planted bug")
        agreed(self, step)

    monkeypatch.setattr(games_module.Game, "_agreed", buggy)
    res = run_lockstep(SPEC, InProcessClient(), games=4, seed=0, options=OPTIONS)
    assert res.games == 4
    [err] = res.toolkit_errors
    assert (err.kind, err.item.split(" (")[0], err.error) == ("game", "game 2", "RuntimeError: planted bug")
    assert "buggy" in err.traceback and err.trace and err.trace[0][0]["cmd"] == "new_game"
    assert err.to_json()["trace"][0][0]["cmd"] == "new_game"
    assert [g for g, _ in res.unfinished] == [2]


def test_a_toolkit_bug_in_one_fit_replay_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    res = run_lockstep(SPEC, InProcessClient(DealGlitch), games=6, seed=1, options=OPTIONS)
    one_step = fit_module.one_step

    def buggy(d: Any, actual: Any, rules: Any, variant: Any, *args: Any) -> bool:
        if variant and variant[0][0] == "scoring":
            raise KeyError("planted")
        return one_step(d, actual, rules, variant, *args)

    monkeypatch.setattr(fit_module, "one_step", buggy)
    errors: list[ToolkitError] = []
    fitted = fit(res.traces, RULES, {}, errors=errors)
    assert fitted.baseline and errors and all(e.kind == "fit" and e.error == "KeyError: 'planted'" for e in errors)
    assert fitted.toolkit_errors is errors


def test_the_deadline_stops_a_replay_and_a_guard_lets_it_through() -> None:
    rep = Replayer(RULES, deadline=Deadline(time.monotonic() - 1))
    with pytest.raises(RunStopped):
        with guard("fit", "x", [], trace=()):
            rep.step({"cmd": "new_game", "config": {"players": 3}, "hands": [["3C"], ["4C"], ["5C"]]}, None)


class SeatOneDeals(Session):
    """A seeded deal dealt one card at a time from seat 1 (seat 1 gets the first extra card)."""

    def handle(self, request: Any) -> Any:
        reply = super().handle(request)
        if request.get("cmd") == "new_game" and "seed" in request and reply.get("ok"):
            g = self.game
            g.hands = g.hands[-1:] + g.hands[:-1]
            reply = {"ok": True, "state": g.to_wire()}
        return reply


def test_a_seeded_deviation_explained_by_a_variant_shrinks() -> None:
    req = {"cmd": "new_game", "config": {"players": 3, "revolution": True, "deals": 1}, "seed": 7}
    dev = Deviation("setup.dealing", "Deal one card at a time", "sizes differ", "hand sizes", variant=(("scoring", "none"),))
    dev.samples = [Evidence([req], {"ok": True}, {"ok": True}, None, "setup.dealing")]
    shrink_deviation(dev, InProcessClient(SeatOneDeals), RULES, budget=5.0)
    assert dev.gherkin and dev.minimal_size is not None


def test_a_toolkit_bug_in_one_shrink_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    from president.conform import verdict

    client = InProcessClient(TurnToFinished)
    res = run_lockstep(SPEC, client, games=4, seed=2, options=OPTIONS)

    def buggy(dev: Any, *args: Any, **kwargs: Any) -> None:
        raise ValueError(f"planted in {dev.clause}")

    monkeypatch.setattr(verdict, "shrink_deviation", buggy)
    devs, fitted = verdict.diagnose_fit([], res, OPTIONS, RULES, client, shrink_budget=1.0)
    assert devs and len(fitted.toolkit_errors) == len(devs)
    assert {e.kind for e in fitted.toolkit_errors} == {"shrink"}
    assert all(e.trace and e.trace[0][0]["cmd"] == "new_game" for e in fitted.toolkit_errors)
    assert fitted.as_dict()["toolkit_errors"][0]["error"].startswith("ValueError: planted in ")
