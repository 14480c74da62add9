"""`new_game.position` and `new_game.config` on the reference session: every field is checked (type,
range, consistency with the deck and the table), a bad one is a `bad_position` (or config) refusal
naming it, and no request ever gets an internal error or stops the session from serving."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.game.cards import CARD_NAMES
from president.protocol.server import Session
from president.protocol.wire import reply_problems

CARDS = list(CARD_NAMES) + ["X1", "X2", "ZZ", "1C", ""]
HANDS3 = [["3C", "4C"], ["5D", "6D"], ["7C", "8C"]]


def start(position, hands=HANDS3, **config) -> dict:
    return Session().handle({"cmd": "new_game", "config": {"players": len(hands), **config}, "hands": hands,
                             "position": position})


@pytest.mark.parametrize("position, field", [
    ({"to_act": 99}, "position.to_act"),
    ({"to_act": -1}, "position.to_act"),
    ({"to_act": True}, "position.to_act"),
    ({"to_act": "0"}, "position.to_act"),
    ({"trick": None}, "position.to_act"),
    ({"to_act": 0, "phase": "exchange"}, "position.phase"),
    ({"to_act": 0, "deal": -3}, "position.deal"),
    ({"to_act": 0, "deal": 2}, "position.deal"),  # a game of one deal
    ({"to_act": 0, "order": "sideways"}, "position.order"),
    ({"to_act": 0, "order": "reversed", "revolution": False}, "position.order"),  # no revolution at this table
    ({"to_act": 0, "finished": "abc"}, "position.finished"),
    ({"to_act": 0, "finished": [1]}, "hands[1]"),  # finished, yet holding cards
    ({"to_act": 0, "finished": [1, 1]}, "position.finished"),
    ({"to_act": 0, "passed": [7]}, "position.passed[0]"),
    ({"to_act": 0, "passed": [0]}, "position.passed"),  # the seat to act has not passed
    ({"to_act": 0, "passed": [1]}, "position.passed"),  # a pass on an empty table
    ({"to_act": 0, "trick": {"cards": ["9C"], "by": 0}}, "position.trick.by"),
    ({"to_act": 0, "trick": {"cards": ["3C"], "by": 1}}, "position.trick.cards"),  # also in a hand
    ({"to_act": 0, "trick": {"cards": ["9C", "10D"], "by": 1}}, "position.trick.cards"),  # not a play
    ({"to_act": 0, "trick": {"cards": ["X1"], "by": 1}}, "position.trick.cards"),  # no jokers at this table
    ({"to_act": 0, "trick": {"cards": [], "by": 1}}, "position.trick.cards"),
    ({"to_act": 0, "trick": {"cards": ["9C"]}}, "position.trick"),
    ({"to_act": 0, "scores": [0, 0]}, "position.scores"),
    ({"to_act": 0, "scores": [0, 0, "x"]}, "position.scores[2]"),
    ({"to_act": 0, "scores": [0, 0, 1.5]}, "position.scores[2]"),
    ({"to_act": 0, "bogus": 1}, "position.bogus"),
    ({"to_act": 0, "hands": HANDS3}, "position.hands"),
    ([], "position"),
])
def test_a_bad_position_is_refused_naming_the_field(position, field):
    config = {"revolution": position["revolution"]} if isinstance(position, dict) and "revolution" in position else {}
    reply = start({k: v for k, v in position.items() if k != "revolution"} if config else position, **config)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_position", reply
    assert f"{field}:" in reply["error"]["message"], reply


def test_a_position_where_seats_have_finished():
    s = Session()
    reply = s.handle({"cmd": "new_game", "config": {"players": 3}, "hands": [["3C"], [], ["7C", "8C"]],
                      "position": {"to_act": 2, "finished": [1], "trick": {"cards": ["5D"], "by": 1}, "phase": "play"}})
    assert reply["ok"] and reply["state"]["finished"] == [1]
    assert [a.get("cards") for a in s.handle({"cmd": "legal"})["actions"]] == [None, ["7C"], ["8C"]]
    hands = {"cmd": "new_game", "config": {"players": 3}, "hands": [["3C"], [], ["7C"]], "position": {"to_act": 0}}
    assert "hands[1]" in s.handle(hands)["error"]["message"]  # no card, yet not finished


@pytest.mark.slow
def test_the_engine_subprocess_keeps_serving_after_bad_positions():
    lines = [{"cmd": "new_game", "config": {"players": 3}, "hands": HANDS3, "position": p}
             for p in ({"to_act": 0, "phase": "play"}, {"to_act": 99}, {"to_act": 0, "finished": "abc"})]
    lines += [{"cmd": "legal"}, {"cmd": "quit"}]
    out = subprocess.run([sys.executable, "-m", "president", "engine"], input="\n".join(map(json.dumps, lines)) + "\n",
                         capture_output=True, text=True, timeout=60)
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0 and len(replies) == len(lines), out.stderr
    assert replies[0]["ok"] and replies[1]["error"]["code"] == replies[2]["error"]["code"] == "bad_position"
    assert replies[3]["player"] == 0  # the game of the first position, still being served


def test_non_json_constants_in_a_request_are_bad_json():
    for line in ('{"cmd":"new_game","config":{"players":NaN},"seed":1}', '{"cmd":"state","x":Infinity}'):
        reply = json.loads(Session().handle_line(line))
        assert reply["error"]["code"] == "bad_json", reply


# --- the property: fuzzed positions and configs ---------------------------------------------
junk = st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False, allow_infinity=False) | \
    st.text(max_size=3) | st.lists(st.integers(-1, 3), max_size=3) | st.dictionaries(st.text(max_size=2),
                                                                                     st.integers(), max_size=2)


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy = junk) -> st.SearchStrategy:
    """`good` nine times in ten, else `bad` (a plain `|` would pick among all of junk's branches)."""
    return st.integers(0, 9).flatmap(lambda i: bad if i == 0 else good)


seat = mostly(st.integers(-1, 6))
cards = st.lists(st.sampled_from(CARDS), max_size=4)
trick = mostly(st.none() | st.fixed_dictionaries({"cards": mostly(cards), "by": seat}))
position = mostly(st.fixed_dictionaries({"to_act": seat}, optional={
    "trick": trick, "passed": mostly(st.lists(seat, max_size=3)), "finished": mostly(st.lists(seat, max_size=3)),
    "order": mostly(st.sampled_from(["normal", "reversed", "sideways"])),
    "scores": mostly(st.lists(mostly(st.integers(-5, 5)), max_size=6)), "deal": mostly(st.integers(-3, 4)),
    "phase": mostly(st.sampled_from(["play", "exchange", "deal_over"]))}) | st.fixed_dictionaries({}, optional={
        "to_act": seat, "hands": junk, "x": junk}))
bad_config = st.fixed_dictionaries({"players": mostly(st.integers(2, 7))}, optional={
    "revolution": mostly(st.booleans()), "deals": mostly(st.integers(-1, 4)), "equality": mostly(st.booleans()),
    "sequences": mostly(st.booleans()), "leader_may_pass": mostly(st.booleans()),
    "jokers": mostly(st.integers(-1, 3)),
    "first_lead": mostly(st.sampled_from(["seat0", "holder:3C", "holder:X1", "holder:", "x"])),
    "scoring": mostly(st.sampled_from(["places", "president_only", "none", "x"])), "bogus": junk}) | junk


@st.composite
def request(draw) -> dict:
    """A new_game with a position: mostly a consistent one (finished seats hold nothing, the trick's
    cards are out of every hand), with one field replaced by a fuzzed value one time in two."""
    if draw(st.integers(0, 9)) == 0:
        return {"config": draw(bad_config), "position": draw(position),
                "hands": draw(st.lists(st.lists(st.sampled_from(CARDS), max_size=3), max_size=7))}
    n = draw(st.integers(3, 6))
    cfg = {"players": n, **draw(st.fixed_dictionaries({}, optional={
        "revolution": st.booleans(), "deals": st.integers(1, 3), "equality": st.booleans(),
        "sequences": st.booleans(), "leader_may_pass": st.booleans(), "jokers": st.integers(0, 2),
        "scoring": st.sampled_from(["places", "president_only", "none"])}))}
    deck = draw(st.permutations(CARD_NAMES + ("X1", "X2")[:cfg.get("jokers", 0)]))
    finished = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n - 2))
    hands, at = [], 0
    for seat in range(n):
        k = 0 if seat in finished else draw(st.integers(1, 6))
        hands.append(list(deck[at:at + k]))
        at += k
    active = [s for s in range(n) if s not in finished]
    to_act = draw(st.sampled_from(active))
    pos: dict = {"to_act": to_act, "finished": finished}
    if draw(st.booleans()):
        by = draw(st.sampled_from([s for s in range(n) if s != to_act]))
        pos["trick"] = {"cards": list(deck[at:at + draw(st.integers(1, 3))]), "by": by}
        others = [s for s in active if s not in (to_act, by)]
        pos["passed"] = draw(st.lists(st.sampled_from(others), unique=True)) if others else []
    if draw(st.booleans()):
        pos["order"] = draw(st.sampled_from(["normal", "reversed"]))
        pos["deal"] = draw(st.integers(1, 3))
        pos["scores"] = draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    if draw(st.booleans()):  # one field fuzzed
        fuzzed = draw(position)
        if isinstance(fuzzed, dict) and fuzzed:
            key = draw(st.sampled_from(sorted(fuzzed)))
            pos[key] = fuzzed[key]
        else:
            pos = fuzzed
    return {"config": cfg, "hands": hands, "position": pos}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request(), st.randoms(use_true_random=False), st.lists(junk, max_size=2))
@pytest.mark.slow
def test_fuzzed_positions_and_configs_never_crash_the_session(req, rng, acts):
    s = Session()
    reply = s.handle({"cmd": "new_game", **req})
    assert reply_problems("new_game", reply) == [], reply
    if reply["ok"]:  # the game set up from the position plays on without an internal error
        for step in range(40):
            legal = s.handle({"cmd": "legal"})
            assert reply_problems("legal", legal) == [], legal
            if not legal["actions"]:
                break
            for bad in acts if step == 0 else ():
                refused = s.handle({"cmd": "act", "player": bad, "action": {"type": "play", "cards": bad}})
                assert refused["ok"] is False
            act = s.handle({"cmd": "act", "player": legal["player"], "action": rng.choice(legal["actions"])})
            assert act["ok"] is True and reply_problems("act", act) == [], act
            if act["state"]["phase"] != "play":
                break
    assert s.handle({"cmd": "hello"})["ok"] is True  # and the session keeps serving
    again = s.handle({"cmd": "new_game", "config": {"players": 3}, "hands": HANDS3, "position": {"to_act": 1}})
    assert again["ok"] is True and s.handle({"cmd": "legal"})["player"] == 1
