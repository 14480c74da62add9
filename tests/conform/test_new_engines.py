"""The independent engines of tests/engines/ listed in tests/engines/expected.json, checked as
engines, whatever their diagnosis: the handshake declares what expected.json says, every engine
plays complete random games (and series with the exchange, where declared) to game_over under its
own rules without a protocol fault, a refusal leaves the state unchanged, a seed gives the same
deal again, and each engine's own rule shows where its comment block says it does.

The diagnosis (clauses, fitted variant, "partly explained") is not asserted here: it is tested
against expected.json with the conformance runner."""
from __future__ import annotations

import json
import random
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from president.protocol.client import SubprocessClient
from president.protocol.wire import reply_problems

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "tests" / "engines" / "expected.json").read_text(encoding="utf-8"))
NEW = [e for e in EXPECTED["engines"] if e.get("new")]
NODE = shutil.which("node")
DECK = [r + s for r in "3 4 5 6 7 8 9 10 V D R A 2".split() for s in "CDHS"]


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    exe = {"node": NODE, "python": sys.executable}.get(words[0], words[0])
    return [exe, *(str(ROOT / w) if w.startswith("tests/") else w for w in words[1:])]


@pytest.fixture(params=NEW, ids=[e["command"] for e in NEW])
def engine(request):
    entry = request.param
    if entry["command"].startswith("node") and NODE is None:
        pytest.skip("node is not installed")
    client = SubprocessClient(_argv(entry["command"]), timeout=20.0)
    yield entry, Checked(client)
    client.close()


class Checked:
    """A client whose replies are validated against the protocol's schemas: every refusal, the
    first 40 replies to each command, then one in 10 (schema validation costs more than a step)."""

    def __init__(self, client: SubprocessClient):
        self.client = client
        self.seen: dict[str, int] = {}

    def __call__(self, cmd: str, **fields) -> dict:
        reply = self.client.request({"cmd": cmd, **fields})
        count = self.seen[cmd] = self.seen.get(cmd, 0) + 1
        if reply.get("ok") is not True or count <= 40 or count % 10 == 0:
            problems = reply_problems(cmd, reply)
            assert not problems, f"{cmd} {fields}: {problems} in {reply}"
        return reply

    def ok(self, cmd: str, **fields) -> dict:
        reply = self(cmd, **fields)
        assert reply["ok"] is True, f"{cmd} {fields} refused: {reply}"
        return reply


def _deal(rng: random.Random, n: int) -> list[list[str]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[i::n] for i in range(n)]


def _illegal(rng: random.Random, state: dict, actions: list[dict]) -> dict | None:
    """An action that is not among the legal ones (a wrong seat, a card not held...), or None."""
    legal = {(a["type"], frozenset(a.get("cards", ()))) for a in actions}
    seat = state["to_act"]
    n = len(state["hands"])
    other = (seat + 1) % n
    held = set(state["hands"][seat])
    tries = [(other, {"type": "pass"}), (seat, {"type": "pass"}),
             (seat, {"type": "play", "cards": [rng.choice([c for c in DECK if c not in held])]}),
             (seat, {"type": "play", "cards": sorted(held)[:2]})]
    if state["hands"][other]:
        tries.append((other, {"type": "play", "cards": [state["hands"][other][0]]}))
    rng.shuffle(tries)
    for player, action in tries:
        if player != seat or (action["type"], frozenset(action.get("cards", ()))) not in legal:
            return {"player": player, "action": action}
    return None


def _play_out(call: Checked, rng: random.Random, state: dict, n: int, seeded: bool, probe: bool = True) -> dict:
    """Random legal actions (and, now and then, an illegal one that must change nothing) until
    game_over; the next deal of a series from fresh hands, or from the engine's seed."""
    for _ in range(3000):
        if state["phase"] == "game_over":
            assert state["to_act"] is None and sorted(state["finished"]) == list(range(n))
            return state
        if state["phase"] == "deal_over":
            assert state["to_act"] is None and sorted(state["finished"]) == list(range(n))
            before = state
            state = (call.ok("deal") if seeded else call.ok("deal", hands=_deal(rng, n)))["state"]
            assert state["deal"] == before["deal"] + 1 and state["phase"] in ("exchange", "play")
            assert sum(map(len, state["hands"])) == 52 and state["scores"] == before["scores"]
            continue
        legal = call.ok("legal")
        assert legal["player"] == state["to_act"] and legal["actions"], state
        kinds = [(a["type"], frozenset(a.get("cards", ()))) for a in legal["actions"]]
        assert len(kinds) == len(set(kinds)), "an action is listed twice"
        if probe and rng.random() < 0.25:
            bad = _illegal(rng, state, legal["actions"])
            if bad is not None:
                refused = call("act", **bad)
                assert refused["ok"] is False, f"{bad} accepted although not listed as legal: {legal}"
                assert call.ok("state")["state"] == state, "a refusal changed the state"
        action = rng.choice(legal["actions"])
        state = call.ok("act", player=legal["player"], action=action)["state"]
        assert call.ok("state")["state"] == state
    raise AssertionError("no game_over after 3000 steps")


def test_handshake_declares_what_expected_json_says(engine):
    entry, call = engine
    hello = call.ok("hello")
    assert hello["protocol"] == 1 and hello["variant"] == "cardverse-president"
    assert hello["options"] == entry["declares"]
    assert call("bogus")["error"]["code"] == "unknown_cmd"
    assert call("legal")["ok"] is False  # no game yet
    n = hello["options"]["players"][0]
    refused = call("new_game", config={"players": n, "bogus": 1}, hands=_deal(random.Random(0), n))
    assert refused["error"]["code"] == "unknown_option"
    assert call("new_game", config={"players": 7}, hands=_deal(random.Random(0), 7))["ok"] is False
    assert call.client.request({"cmd": "quit"}) == {"ok": True}


@pytest.mark.slow
def test_random_games_reach_game_over_at_every_declared_table_size(engine):
    entry, call = engine
    options = call.ok("hello")["options"]
    rng = random.Random(19)
    revolutions = options.get("revolution", [True])
    for i, n in enumerate(options["players"]):
        for revolution in (revolutions[i % len(revolutions)],):
            state = call.ok("new_game", config={"players": n, "revolution": revolution}, hands=_deal(rng, n))["state"]
            assert state["phase"] == "play" and state["deal"] == 1 and state["scores"] == [0] * n
            end = _play_out(call, rng, state, n, seeded=False)
            assert end["deal"] == 1


@pytest.mark.slow
def test_a_series_with_the_exchange_is_played_to_game_over(engine):
    entry, call = engine
    options = call.ok("hello")["options"]
    if not options.get("deals"):
        pytest.skip("the engine does not declare deals")
    rng = random.Random(7)
    for n in sorted({options["players"][0], options["players"][-1]}):  # with and without the Vice swap
        state = call.ok("new_game", config={"players": n, "deals": 3}, hands=_deal(rng, n))["state"]
        seen_exchange = False
        for _ in range(3):
            state = _play_out_one_deal(call, rng, state, n)
            if state["phase"] == "game_over":
                break
            state = call.ok("deal", hands=_deal(rng, n))["state"]
            assert state["phase"] == "exchange"  # a President gives back before the play
            seen_exchange = True
        assert state["phase"] == "game_over" and state["deal"] == 3 and seen_exchange


def _play_out_one_deal(call: Checked, rng: random.Random, state: dict, n: int) -> dict:
    while state["phase"] in ("play", "exchange"):
        legal = call.ok("legal")
        state = call.ok("act", player=legal["player"], action=rng.choice(legal["actions"]))["state"]
    assert state["phase"] in ("deal_over", "game_over") and sorted(state["finished"]) == list(range(n))
    return state


@pytest.mark.slow
def test_seeded_games_repeat_their_deal_and_play_out(engine):
    entry, call = engine
    options = call.ok("hello")["options"]
    if not options.get("seed"):
        assert call("new_game", config={"players": options["players"][0]}, seed=3)["ok"] is False
        return
    rng = random.Random(5)
    for n in sorted({options["players"][0], options["players"][-1]}):
        first = call.ok("new_game", config={"players": n, "deals": 2}, seed=11)["state"]
        again = call.ok("new_game", config={"players": n, "deals": 2}, seed=11)["state"]
        other = call.ok("new_game", config={"players": n, "deals": 2}, seed=12)["state"]
        assert first == again and first["hands"] != other["hands"]
        assert sorted(c for h in first["hands"] for c in h) == sorted(DECK)  # a partition of the deck
        state = call.ok("new_game", config={"players": n, "deals": 2}, seed=11)["state"]
        _play_out(call, rng, state, n, seeded=True)


def test_refusals_of_bad_requests_leave_the_state_unchanged(engine):
    entry, call = engine
    n = call.ok("hello")["options"]["players"][0]
    state = call.ok("new_game", config={"players": n}, hands=_deal(random.Random(2), n))["state"]
    seat = state["to_act"]
    bad = [{"player": seat, "action": {"type": "play", "cards": ["ZZ"]}},
           {"player": seat, "action": {"type": "play", "cards": "3C"}},
           {"player": seat, "action": {"type": "jump"}},
           {"player": n + 3, "action": {"type": "pass"}},
           {"player": seat, "action": {"type": "give", "cards": state["hands"][seat][:2]}}]
    for fields in bad:
        assert call("act", **fields)["ok"] is False, fields
        assert call.ok("state")["state"] == state
    for line in (b"not json\n", b"[1, 2]\n"):
        reply = call.client.pipeline([{"cmd": "state"}])  # the engine is alive and in step
        assert reply[0]["state"] == state
        call.client.proc.stdin.write(line)
        call.client.proc.stdin.flush()
        raw = _read_line(call.client)
        assert raw["ok"] is False and raw["error"]["code"] in ("bad_json", "bad_request"), raw
    assert call.ok("state")["state"] == state
    # a new_game refused keeps the game going
    assert call("new_game", config={"players": n}, hands=[["3C"], ["3C"]] + [["4C"]] * (n - 2))["ok"] is False
    assert call.ok("state")["state"] == state


def _read_line(client: SubprocessClient) -> dict:
    import select
    fd = client.proc.stdout.fileno()
    buf = b""
    while not buf.endswith(b"\n"):
        assert select.select([fd], [], [], 20)[0], "no reply"
        buf += client.proc.stdout.read(1)
    return json.loads(buf)


def _open(command: str) -> Checked:
    if command.startswith("node") and NODE is None:
        pytest.skip("node is not installed")
    return Checked(SubprocessClient(_argv(command), timeout=20.0))


def _plays(reply: dict) -> set[frozenset]:
    return {frozenset(a["cards"]) for a in reply["actions"] if a["type"] == "play"}


def _passes(reply: dict) -> bool:
    return any(a["type"] == "pass" for a in reply["actions"])


def test_ladder_plays_runs_and_lets_the_leader_pass():
    call = _open("node tests/engines/ladder.js")
    call.ok("new_game", config={"players": 3}, hands=[["3C", "4C", "5C", "9D"], ["4H", "5H", "6H", "7H", "8S"], ["8C"]])
    legal = call.ok("legal")
    assert _passes(legal) and frozenset({"3C", "4C", "5C"}) in _plays(legal)
    state = call.ok("act", player=0, action={"type": "play", "cards": ["3C", "4C", "5C"]})["state"]
    assert state["to_act"] == 1 and state["order"] == "normal"
    legal = call.ok("legal")
    assert _plays(legal) == {frozenset({"4H", "5H", "6H"}), frozenset({"5H", "6H", "7H"})}  # same length, higher top
    assert call("act", player=1, action={"type": "play", "cards": ["4H", "5H", "6H", "7H"]})["ok"] is False
    call.ok("new_game", config={"players": 3}, hands=[["3C", "4C"], ["5C"], ["6C"]])
    state = call.ok("act", player=0, action={"type": "pass"})["state"]
    assert state["to_act"] == 1 and state["trick"] is None and state["passed"] == [0]
    call.ok("act", player=1, action={"type": "pass"})
    assert not _passes(call.ok("legal"))  # the last who has not passed must lead
    call.client.close()


def test_clubs3_holder_of_the_three_of_clubs_leads_anything():
    call = _open("python tests/engines/clubs3.py")
    state = call.ok("new_game", config={"players": 3}, hands=[["4C", "9D"], ["5C", "6C"], ["3C", "3D", "7C"]])["state"]
    assert state["to_act"] == 2
    assert frozenset({"7C"}) in _plays(call.ok("legal"))  # the 3C need not be played
    assert call.ok("act", player=2, action={"type": "play", "cards": ["7C"]})["state"]["to_act"] == 0
    # nobody holds the 3C: seat 0 leads, nothing is refused
    assert call.ok("new_game", config={"players": 3}, hands=[["4C"], ["5C"], ["6C"]])["state"]["to_act"] == 0
    call.client.close()


def test_clubs4_holder_of_the_four_of_clubs_leads_with_it():
    call = _open("node tests/engines/clubs4.js")
    state = call.ok("new_game", config={"players": 3}, hands=[["3C", "9D"], ["5C", "6C"], ["4C", "4D", "7C"]])["state"]
    assert state["to_act"] == 2
    assert _plays(call.ok("legal")) == {frozenset({"4C"}), frozenset({"4C", "4D"})}
    assert call("act", player=2, action={"type": "play", "cards": ["7C"]})["ok"] is False
    assert call("act", player=2, action={"type": "pass"})["ok"] is False
    assert call("act", player=0, action={"type": "play", "cards": ["3C"]})["ok"] is False
    assert call.ok("act", player=2, action={"type": "play", "cards": ["4C"]})["state"]["to_act"] == 0
    assert call("new_game", config={"players": 3}, hands=[["3C"], ["5C"], ["6C"]])["ok"] is False  # nobody holds 4C
    call.client.close()


def test_fourplus_seats_four_to_six_only():
    call = _open("node tests/engines/fourplus.js")
    assert call("new_game", config={"players": 3}, hands=[["3C"], ["4C"], ["5C"]])["error"]["rule"] == "setup.players"
    assert "position" not in call.ok("hello")["options"]
    assert call.ok("new_game", config={"players": 4}, hands=[["3C"], ["4C"], ["5C"], ["6C"]])["state"]["to_act"] == 0
    call.client.close()


@pytest.mark.parametrize("args, sizes", [("", {3: [18, 17, 17], 5: [11, 11, 10, 10, 10]}),
                                         (" from-seat-1", {3: [17, 18, 17], 5: [10, 11, 11, 10, 10]})])
def test_shuffle_deals_from_its_first_seat(args, sizes):
    call = _open("python tests/engines/shuffle.py" + args)
    for n, expected in sizes.items():
        for seed in range(4):
            state = call.ok("new_game", config={"players": n}, seed=seed)["state"]
            assert [len(h) for h in state["hands"]] == expected and state["to_act"] == 0
    call.client.close()


def _one_deal_of_three(call: Checked, deals: int = 2) -> dict:
    """Seat 0 goes out first, seat 2 second, seat 1 is last (the spec's score.points example)."""
    call.ok("new_game", config={"players": 3, "deals": deals}, hands=[["5C"], ["3C", "4C"], ["6C", "7C"]])
    call.ok("act", player=0, action={"type": "play", "cards": ["5C"]})
    call.ok("act", player=1, action={"type": "pass"})
    call.ok("act", player=2, action={"type": "play", "cards": ["6C"]})
    return call.ok("act", player=2, action={"type": "play", "cards": ["7C"]})["state"]


def test_laterdeals_scum_gives_worst_and_places_score_n_minus_p():
    call = _open("python tests/engines/laterdeals.py")
    state = _one_deal_of_three(call)
    assert state["finished"] == [0, 2, 1] and state["scores"] == [2, 0, 1]
    state = call.ok("deal", hands=[["3D", "4D", "5D"], ["6D", "9D", "2D", "AD"], ["7D", "8D"]])["state"]
    assert state["phase"] == "exchange" and sorted(state["hands"][1]) == ["2D", "AD"]  # kept the best
    call.client.close()


def test_laterdeals_no_vice_skips_the_vice_swap_only():
    call = _open("python tests/engines/laterdeals.py no-vice")
    assert _one_deal_of_three(call)["scores"] == [3, 1, 2]
    call.ok("new_game", config={"players": 4, "deals": 2}, hands=[["AC"], ["RC"], ["DC"], ["3C", "4C"]])
    for seat, action in [(0, "AC"), (1, None), (2, None), (3, None), (1, "RC"), (2, None), (3, None), (2, "DC")]:
        call.ok("act", player=seat, action={"type": "play", "cards": [action]} if action else {"type": "pass"})
    state = call.ok("deal", hands=[["3S", "4S", "5S"], ["6S", "7S", "8S"], ["9S", "10S", "VS", "2S"], ["DS", "RS", "AS"]])["state"]
    assert state["hands"][1] == ["6S", "7S", "8S"] and state["hands"][2] == ["9S", "10S", "VS", "2S"]  # no vice gift
    state = call.ok("act", player=0, action={"type": "give", "cards": ["3S", "4S"]})["state"]
    assert state["phase"] == "play" and state["to_act"] == 3
    call.client.close()


def test_twothree_a_lone_two_or_three_follows_any_single_of_another_rank():
    call = _open("node tests/engines/twothree.js")
    call.ok("new_game", config={"players": 3}, hands=[["AC", "3S"], ["3C", "2S", "5D"], ["5C"]])
    call.ok("act", player=0, action={"type": "play", "cards": ["AC"]})
    assert _plays(call.ok("legal")) == {frozenset({"3C"}), frozenset({"2S"})}
    state = call.ok("act", player=1, action={"type": "play", "cards": ["3C"]})["state"]
    assert state["trick"] == {"cards": ["3C"], "by": 1}
    assert _plays(call.ok("legal")) == {frozenset({"5C"})}  # the trick stands at 3 now
    call.ok("new_game", config={"players": 3}, hands=[["2C", "3S"], ["2D", "4D"], ["5C"]])
    call.ok("act", player=0, action={"type": "play", "cards": ["2C"]})
    assert _plays(call.ok("legal")) == set()  # a 2 on a 2 is still refused
    call.client.close()


def test_expected_json_names_only_spec_clauses_and_options():
    """expected.json is read by the diagnosis tests: every clause id and option value in it is the spec's."""
    from president.spec import load_spec

    spec = load_spec()
    clause_ids = set(spec.clause_ids)
    for entry in EXPECTED["engines"]:
        devs = entry["deviations"]
        assert entry["clauses"] == [d["clause"] for d in devs], entry["command"]
        named = {d["clause"] for d in devs} | {c for d in devs for c in d["or"]}
        assert named <= clause_ids, (entry["command"], named - clause_ids)
        fitted: dict = {}
        for d in devs:
            fitted.update(d["explained_by"] or {})
        assert fitted == entry["fitted"], entry["command"]
        assert entry["partly"] == bool(entry["partly_by"])
        for variant in [entry["fitted"], *entry["partly_by"]]:
            for option, value in variant.items():
                assert spec.option(option).value_clause(value) is not None, (entry["command"], option, value)
        assert (ROOT / shlex.split(entry["command"])[1]).is_file()


def _observed(state: dict) -> dict:
    """The fields the rules decide (docs/protocol.md, STATE field by field), card lists as sets."""
    seen = {k: v for k, v in state.items() if k not in ("hands", "trick", "passed")}
    seen["hands"] = [sorted(h) for h in state["hands"]]
    if state["phase"] == "play":
        seen["passed"] = sorted(state["passed"])
        seen["trick"] = state["trick"] and {"cards": sorted(state["trick"]["cards"]), "by": state["trick"]["by"]}
    else:
        seen.pop("order" if state["phase"] != "exchange" else "finished")
    return seen


FULLY_EXPLAINED = [e for e in NEW if all(d["explained_by"] for d in e["deviations"])]


@pytest.mark.parametrize("entry", FULLY_EXPLAINED, ids=[e["command"] for e in FULLY_EXPLAINED])
@pytest.mark.slow
def test_engine_plays_like_the_reference_under_its_expected_variant(entry):
    """What expected.json claims of the engines it says nothing unexplained of: the reference, told
    the fitted variant, lists the same legal actions and shows the same state at every step of
    random series (the same hands, the same actions)."""
    from president.protocol.client import InProcessClient

    call = _open(entry["command"])
    reference = InProcessClient()
    rng = random.Random(23)
    deals = 2 if entry["declares"].get("deals") else 1
    for game, n in enumerate(entry["declares"]["players"] * 2):
        config = {"players": n, "deals": deals, "revolution": game % 2 == 0}
        hands = _deal(rng, n)
        mine = call.ok("new_game", config=config, hands=hands)["state"]
        ref = reference.request({"cmd": "new_game", "config": {**config, **entry["fitted"]}, "hands": hands})["state"]
        for _ in range(3000):
            assert _observed(mine) == _observed(ref), (game, mine, ref)
            if ref["phase"] == "game_over":
                break
            if ref["phase"] == "deal_over":
                hands = _deal(rng, n)
                mine, ref = call.ok("deal", hands=hands)["state"], reference.request({"cmd": "deal", "hands": hands})["state"]
                continue
            legal, ref_legal = call.ok("legal"), reference.request({"cmd": "legal"})
            assert legal["player"] == ref_legal["player"]
            assert ({(a["type"], frozenset(a.get("cards", ()))) for a in legal["actions"]}
                    == {(a["type"], frozenset(a.get("cards", ()))) for a in ref_legal["actions"]}), (game, ref)
            act = {"player": ref_legal["player"], "action": rng.choice(ref_legal["actions"])}
            mine = call.ok("act", **act)["state"]
            ref = reference.request({"cmd": "act", **act})["state"]
        assert ref["phase"] == "game_over"
    call.client.close()
