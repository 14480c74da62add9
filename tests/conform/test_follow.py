"""Following an engine through STATEs the spec cannot hold, and naming the clause that got it there
(`president.conform.replay`, `president.conform.diagnose`, `president.game.position.counted_passes`).

The engines here are the reference with one behaviour changed, in process: passes that are not
final (with `passed` as every pass since the trick was reset, or as the passes since the last play),
hands emptied at the end of a deal, a deal refused when nobody holds a first-lead card. Each
must be named by its own clause, with none of its consequences, and its games followed to the end."""
from __future__ import annotations

from typing import Any

import pytest

from president.conform.diagnose import deal_clause, diverge
from president.conform.fit import fit
from president.conform.lockstep import run_lockstep
from president.conform.replay import Replayer
from president.game.cards import parse_cards
from president.game.engine import Phase, Ruleset
from president.game.position import Unfollowable, counted_passes, game_from_state
from president.protocol.client import InProcessClient
from president.protocol.server import Session
from president.spec import default_spec

SPEC = default_spec()
RULES = Ruleset.from_spec(SPEC)
OPTIONS = {"players": [4], "revolution": [True, False], "deals": True}


class NotFinal(Session):
    """A pass is not final: after a play every other seat still holding cards is asked again, and
    the trick ends when they all passed since the last play. `passed` lists every seat that passed
    since the trick was reset (the seat to act may be in it), or with `since_play` only the passes
    since the last play."""

    since_play = False

    def handle(self, request: Any) -> Any:
        old = self.game.copy() if self.game is not None else None
        reply = super().handle(request)
        g = self.game
        if g is None or request.get("cmd") in ("new_game", "deal"):
            self.shown = 0
        elif request.get("cmd") == "act" and reply.get("ok") and old is not None and old.phase == Phase.PLAY \
                and g.phase == Phase.PLAY and request["action"]["type"] == "play":
            seat = request["player"]
            self.shown |= old.passed
            g.passed, g._legal = 0, None
            if not g.trick:  # every other seat had passed: they are all asked again
                g.trick, g.trick_by = parse_cards(request["action"]["cards"]), seat
            g.to_act = next(s for s in ((seat + k) % g.n for k in range(1, g.n)) if g.hands[s])
        if g is not None and not g.trick:
            self.shown = 0
        if isinstance(reply, dict) and reply.get("ok") and "state" in reply and g is not None:
            state = g.to_wire()
            if not self.since_play:
                state["passed"] = [s for s in range(g.n) if (self.shown | g.passed) >> s & 1]
            reply = {"ok": True, "state": state}
        return reply


class NotFinalSincePlay(NotFinal):
    since_play = True


class ReturnsHands(Session):
    """At the end of each deal every hand goes back to the deck: deal_over and game_over show none."""

    def handle(self, request: Any) -> Any:
        reply = super().handle(request)
        state = reply.get("state") if isinstance(reply, dict) else None
        if isinstance(state, dict) and state.get("phase") in ("deal_over", "game_over"):
            reply = {**reply, "state": {**state, "hands": [[] for _ in state["hands"]]}}
        return reply


class TurnToFinished(Session):
    """The winner of a trick who went out with it is given the lead (a finished seat to act), and
    its only action, a pass, hands the lead to the next seat holding cards."""

    def handle(self, request: Any) -> Any:
        g = self.game
        if request.get("cmd") in ("legal", "act") and g is not None and g.phase == Phase.PLAY \
                and g.to_act is not None and not g.hands[g.to_act]:
            if request["cmd"] == "legal":
                return {"ok": True, "player": g.to_act, "actions": [{"type": "pass"}]}
            if request.get("player") != g.to_act or request["action"].get("type") != "pass":
                return {"ok": False, "error": {"code": "not_your_turn", "rule": "turn.order", "message": "pass"}}
            g.to_act = next(s for s in ((g.to_act + k) % g.n for k in range(1, g.n)) if g.hands[s])
            g._legal = None
            return {"ok": True, "state": g.to_wire()}
        reply = super().handle(request)
        if request.get("cmd") == "act" and reply.get("ok") and g is not None and g.phase == Phase.PLAY \
                and g.trick == 0 and g.trick_by is not None and not g.hands[g.trick_by]:
            g.to_act = g.trick_by
            reply = {"ok": True, "state": g.to_wire()}
        return reply


def _clauses(res: Any) -> set[str]:
    return {d.clause for d in res.divergences}


@pytest.mark.parametrize("engine", [NotFinal, NotFinalSincePlay])
def test_passes_not_final_are_pass_final_and_followed(engine: type[Session]) -> None:
    res = run_lockstep(SPEC, InProcessClient(engine), games=6, seed=3, options=OPTIONS)
    assert not res.toolkit_errors
    assert _clauses(res) == {"pass.final"}  # whatever `passed` holds, and no consequence of it
    assert not res.unfinished  # every game followed to game_over
    assert all(t.steps[-1][1]["state"]["phase"] == "game_over" for t in res.traces)


def test_a_seat_asked_again_keeps_its_state_as_evidence() -> None:
    res = run_lockstep(SPEC, InProcessClient(NotFinal), games=3, seed=3, options=OPTIONS)
    held = [d for d in res.divergences if d.details.startswith("followed as the spec can hold it")]
    assert held and all("it cannot have passed: pass.final" in d.details and '"passed"' in d.details for d in held)


def test_a_finished_seat_to_act_is_lead_next_active_and_followed() -> None:
    res = run_lockstep(SPEC, InProcessClient(TurnToFinished), games=6, seed=2, options=OPTIONS)
    assert not res.toolkit_errors and not res.unfinished
    assert _clauses(res) == {"lead.next-active"}
    lost = [d for d in res.divergences if d.details.startswith("not followable")]
    assert lost and all("is to act but has finished: lead.next-active" in d.details for d in lost)
    assert res.resynced and all("not compared" in why for _, why in res.resynced)  # the stretch it waited


def test_hands_emptied_at_deal_end_are_deal_end() -> None:
    res = run_lockstep(SPEC, InProcessClient(ReturnsHands), games=6, seed=4, options=OPTIONS)
    assert not res.toolkit_errors and not res.unfinished
    assert _clauses(res) == {"deal.end"}


def test_counted_passes_drops_the_seats_asked_again() -> None:
    state = {"phase": "play", "to_act": 2, "trick": {"cards": ["9C"], "by": 1}, "passed": [0, 1, 2, 3],
             "hands": [["3C"], ["4C"], ["5C"], []], "finished": [3]}
    assert counted_passes(state)["passed"] == [0]  # not the seat to act, the trick's player, a finished seat
    assert counted_passes({**state, "passed": [0]}) is None  # nothing to drop
    with pytest.raises(Unfollowable) as caught:
        game_from_state(RULES, RULES.config(players=4), state)
    assert caught.value.clause == "pass.final"


def test_the_reference_holds_a_seat_asked_again_and_names_pass_final() -> None:
    rep = Replayer(RULES)
    config = {"players": 3, "revolution": False, "deals": 1}
    hands = [["3C", "6C"], ["9D", "4D"], ["5C", "7C"]]
    start = {"phase": "play", "deal": 1, "to_act": 0, "order": "normal", "trick": None, "passed": [],
             "hands": hands, "finished": [], "scores": [0, 0, 0]}
    assert rep.step({"cmd": "new_game", "config": config, "hands": hands}, {"ok": True, "state": start}).finding is None
    rep.step({"cmd": "act", "player": 0, "action": {"type": "play", "cards": ["3C"]}},
             {"ok": True, "state": {**start, "to_act": 1, "trick": {"cards": ["3C"], "by": 0},
                                    "hands": [["6C"], ["4D", "9D"], ["5C", "7C"]]}})
    rep.step({"cmd": "act", "player": 1, "action": {"type": "pass"}},
             {"ok": True, "state": {**start, "to_act": 2, "trick": {"cards": ["3C"], "by": 0}, "passed": [1],
                                    "hands": [["6C"], ["4D", "9D"], ["5C", "7C"]]}})
    after = {**start, "to_act": 1, "trick": {"cards": ["5C"], "by": 2}, "passed": [1],  # seat 1 asked again
             "hands": [["6C"], ["4D", "9D"], ["7C"]]}
    step = rep.step({"cmd": "act", "player": 2, "action": {"type": "play", "cards": ["5C"]}}, {"ok": True, "state": after})
    assert step.finding is not None and step.finding.clause == "pass.final"
    assert step.adopted and step.held is not None and rep.lost is None
    assert rep.ref.game.to_act == 1 and rep.ref.game.passed == 0  # its earlier pass no longer counted


@pytest.mark.parametrize(("hands", "rule", "clause"), [
    ([["4C", "5C"], ["6C"], ["7C"]], "", "setup.partial-hands"),  # a few cards: partial hands
    ([["4C", "5C"], ["6C"], ["7C"]], "setup.first-lead", "setup.first-lead"),  # nobody holds the engine's card
    ([["4C", "5C"], ["6C"], ["7C"]], "turn.order", "setup.partial-hands"),  # a reason no deal can break
])
def test_a_refused_deal_is_named_from_its_hands(hands: list[list[str]], rule: str, clause: str) -> None:
    for cmd in ("new_game", "deal"):
        req = {"cmd": cmd, "hands": hands, "config": {"players": 3, "revolution": True, "deals": 2}}
        refused = {"ok": False, "error": {"code": "bad_hands", "rule": rule, "message": "no"}}
        finding = diverge(req, {"ok": True, "state": {}}, refused, None)
        assert finding is not None and finding.clause == clause
    assert deal_clause({"cmd": "deal"}) == "game.end"  # a next deal refused as such: the series goes on


def test_a_passed_seat_asked_again_when_the_trick_should_end_is_pass_final() -> None:
    before = {"phase": "play", "deal": 1, "to_act": 0, "order": "normal", "trick": {"cards": ["5C"], "by": 2},
              "passed": [1], "hands": [["9C"], ["4C"], ["6C"]], "finished": [], "scores": [0, 0, 0]}
    req = {"cmd": "act", "player": 0, "action": {"type": "pass"}}
    expected = {"ok": True, "state": {**before, "to_act": 2, "trick": None, "passed": []}}  # the trick ends
    actual = {"ok": True, "state": {**before, "to_act": 1, "passed": []}}  # seat 1 is asked again
    finding = diverge(req, expected, actual, before)
    assert finding is not None and finding.clause == "pass.final"


class NeedsSevenOfHearts(Session):
    """A new game whose hands nobody holds the 7H in is refused (the engine's first-lead card)."""

    def handle(self, request: Any) -> Any:
        if request.get("cmd") == "new_game" and "hands" in request \
                and not any("7H" in h for h in request["hands"] if isinstance(h, list)):
            return {"ok": False, "error": {"code": "bad_hands", "rule": "setup.first-lead", "message": "nobody holds 7H"}}
        return super().handle(request)


def test_a_new_game_refused_for_its_first_lead_card_is_setup_first_lead() -> None:
    res = run_lockstep(SPEC, InProcessClient(NeedsSevenOfHearts), games=30, seed=5, options=OPTIONS)
    assert not res.toolkit_errors
    assert _clauses(res) == {"setup.first-lead"}  # never game.end, never a toolkit error
    assert res.unfinished and all("refused the new game: setup.first-lead" in why for _, why in res.unfinished)
    fitted = fit(res.traces, RULES)  # its replays end at the refused new game, as the game did
    assert not fitted.toolkit_errors and {d.finding.clause for d in fitted.baseline} == {"setup.first-lead"}


@pytest.mark.parametrize("engine", [NotFinal, TurnToFinished])
def test_the_fit_follows_what_lock_step_followed(engine: type[Session]) -> None:
    res = run_lockstep(SPEC, InProcessClient(engine), games=3, seed=2, options=OPTIONS)
    fitted = fit(res.traces, RULES)
    assert not fitted.toolkit_errors
    assert {d.finding.clause for d in fitted.baseline} == _clauses(res)
    assert {(d.key[0], d.key[1]) for d in fitted.baseline} == {(d.game, d.index) for d in res.divergences}
