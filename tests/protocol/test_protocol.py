"""Engine protocol v1: the in-process session, the schemas, and `president engine` as a subprocess."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.protocol.server import Session
from president.protocol.wire import reply_problems, request_problems, schema_names

HANDS = [["3C", "3D"], ["4C", "4D"], ["5C"]]


def new_game(s: Session, hands=HANDS, **config) -> dict:
    return s.handle({"cmd": "new_game", "config": {"players": len(hands), **config}, "hands": hands})


def test_every_message_has_a_schema():
    names = set(schema_names())
    for cmd in ["hello", "new-game", "deal", "legal", "act", "state", "quit", "ai"]:
        assert f"request-{cmd}" in names
    assert {"reply-hello", "reply-state", "reply-legal", "reply-quit", "reply-error", "reply-ai"} <= names


def test_ai_request_returns_an_action_without_applying_it():
    s = Session()
    new_game(s)
    before = s.handle({"cmd": "state"})
    req = {"cmd": "ai", "player": 0, "level": "easy"}
    assert request_problems(req) == []
    reply = s.handle(req)
    assert reply_problems("ai", reply) == []
    assert reply["action"] == {"type": "play", "cards": ["3C", "3D"]}  # easy leads all its lowest rank
    assert s.handle({"cmd": "state"}) == before


def test_hello_handshake():
    reply = Session().handle({"cmd": "hello"})
    assert reply_problems("hello", reply) == []
    assert reply["protocol"] == 1 and reply["variant"] == "cardverse-president" and reply["spec_version"] == "1.1.0"
    assert reply["options"]["players"] == [3, 4, 5, 6]


def test_refusal_names_the_rule_and_keeps_the_state():
    s = Session()
    new_game(s)
    s.handle({"cmd": "act", "player": 0, "action": {"type": "play", "cards": ["3C"]}})
    before = s.handle({"cmd": "state"})
    reply = s.handle({"cmd": "act", "player": 1, "action": {"type": "play", "cards": ["4C", "4D"]}})
    assert reply["ok"] is False and reply["error"]["rule"] == "play.count-matches"
    assert reply_problems("act", reply) == []
    assert s.handle({"cmd": "state"}) == before


def test_legal_lists_every_subset():
    s = Session()
    new_game(s, [["3C", "3D", "3H"], ["4C"], ["5C"]])
    reply = s.handle({"cmd": "legal"})
    assert reply_problems("legal", reply) == []
    assert reply["player"] == 0 and len(reply["actions"]) == 7  # 3 singles, 3 pairs, 1 triple


BAD_REQUESTS = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_request"),
    ('{"cmd": "dance"}', "unknown_cmd"),
    ('{"nocmd": 1}', "unknown_cmd"),
    ('{"cmd": "new_game"}', "missing_field"),
    ('{"cmd": "new_game", "config": {"players": 9}, "seed": 1}', "bad_config"),
    ('{"cmd": "new_game", "config": {"players": 3}, "hands": [["3C"], ["3C"], ["4C"]]}', "bad_hands"),
    ('{"cmd": "new_game", "config": {"players": 3}, "hands": [["3X"], ["4C"], ["5C"]]}', "bad_card"),
    ('{"cmd": "act", "player": 0}', "missing_field"),
    ('{"cmd": "act", "player": 0, "action": {"type": "jump"}}', "bad_field"),
    ('{"cmd": "act", "player": 2, "action": {"type": "pass"}}', "not_your_turn"),
    ('{"cmd": "act", "player": 0, "action": {"type": "play", "cards": ["2S"]}}', "not_in_hand"),
    ('{"cmd": "act", "player": 0, "action": {"type": "play", "cards": []}}', "wrong_count"),
    ('{"cmd": "deal", "hands": [["3C"], ["4C"], ["5C"]]}', "bad_phase"),
]


def test_bad_input_gets_an_error_code_and_changes_nothing():
    s = Session()
    assert json.loads(s.handle_line('{"cmd": "act", "player": 0, "action": {"type": "pass"}}'))["error"]["code"] == "no_game"
    new_game(s)
    before = s.handle({"cmd": "state"})
    for line, code in BAD_REQUESTS:
        reply = json.loads(s.handle_line(line))
        assert reply["ok"] is False and reply["error"]["code"] == code, line
        assert reply_problems("state", reply) == []
        assert s.handle({"cmd": "state"}) == before, line


@pytest.mark.slow
def test_replies_conform_to_the_schemas_under_random_play():
    rng = random.Random(5)
    s = Session()
    for seed in range(8):
        n = rng.randint(3, 6)
        req = {"cmd": "new_game", "config": {"players": n, "deals": 2}, "seed": seed}
        assert request_problems(req) == []
        reply = s.handle(req)
        while reply["state"]["phase"] != "game_over":
            if reply["state"]["phase"] == "deal_over":
                reply = s.handle({"cmd": "deal"})
                assert reply_problems("deal", reply) == []
                continue
            legal = s.handle({"cmd": "legal"})
            assert reply_problems("legal", legal) == []
            req = {"cmd": "act", "player": legal["player"], "action": rng.choice(legal["actions"])}
            assert request_problems(req) == []
            reply = s.handle(req)
            assert reply_problems("act", reply) == [] and reply["ok"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6) | st.sampled_from(["3C", "10H", "2S", "pass"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["cmd", "player", "action", "type", "cards", "config", "players", "hands", "seed", "x"]),
        children, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values | st.sampled_from(["act", "legal", "new_game", "deal", "state"]).map(lambda c: {"cmd": c}),
                max_size=8))
@pytest.mark.slow
def test_fuzzed_requests_never_crash_the_session(requests):
    s = Session()
    new_game(s)
    for req in requests:
        if isinstance(req, dict) and req.get("cmd") == "quit":
            continue
        reply = json.loads(s.handle_line(json.dumps(req)))
        cmd = req.get("cmd") if isinstance(req, dict) else None
        assert reply_problems(cmd if cmd in ("hello", "new_game", "deal", "legal", "act", "state") else "state",
                              reply) == [] or reply.get("ok") is True


@pytest.mark.slow
def test_engine_subprocess_survives_malformed_lines():
    rng = random.Random(11)
    garbage = ["{", "}", "null", "42", '"str"', "\x00\x01", '{"cmd":', "💥", '{"cmd":"act","player":"0"}',
               '{"cmd":"new_game","config":{"players":"4"},"seed":1}', '{"cmd":"legal","extra":[1,2,3]}']
    lines = ['{"cmd":"new_game","config":{"players":4},"seed":3}']
    for _ in range(150):
        junk = rng.choice(garbage)
        if rng.random() < 0.3:
            junk = "".join(rng.choice('{}[]":,0123abc ') for _ in range(rng.randint(1, 20)))
        lines.append(junk)
        lines.append('{"cmd":"state"}')
    lines.append('{"cmd":"quit"}')
    proc = subprocess.run([sys.executable, "-m", "president", "engine"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    replies = [json.loads(r) for r in proc.stdout.splitlines()]
    expected = [line for line in lines if line.strip()]
    assert len(replies) == len(expected)  # exactly one reply per request
    states = [r["state"] for r, req in zip(replies, expected) if req == '{"cmd":"state"}']
    assert all(st == states[0] for st in states)  # no garbage changed the state
    assert replies[-1] == {"ok": True}
