"""The house-rule options in the engine and the protocol (beyond the spec's own scenarios)."""
from __future__ import annotations

import pytest

from president.game.cards import card_list, parse_cards
from president.game.engine import PASS, GameState, Ruleset
from president.errors import IllegalAction
from president.game.plays import LONE, RUN, SET, combo
from president.protocol.server import Session

RULES = Ruleset.from_spec()


def game(*hands: str, **options) -> GameState:
    return GameState.new(RULES, len(hands), hands=list(hands), **options)


def texts(g: GameState) -> list[str]:
    return ["pass" if a == PASS else " ".join(card_list(a)) for a in g.legal_actions()]


def test_unknown_config_key_is_refused_not_ignored():
    s = Session()
    reply = s.handle({"cmd": "new_game", "config": {"players": 4, "bogus": 1}, "seed": 1})
    assert reply["ok"] is False and reply["error"]["code"] == "unknown_option" and "bogus" in reply["error"]["message"]
    assert s.handle({"cmd": "state"})["error"]["code"] == "no_game"


@pytest.mark.parametrize("key,value,rule", [
    ("jokers", 3, "option.jokers.two"), ("jokers", True, "option.jokers.two"),
    ("equality", "yes", "option.equality.on"), ("first_lead", "holder:X1", "option.first-lead.holder"),
    ("first_lead", "seat1", "option.first-lead.holder"), ("scoring", "most", "option.scoring.none"),
    ("leader_may_pass", 1, "option.leader-may-pass.on"), ("deals", 0, "game.end")])
def test_a_value_the_spec_does_not_define_is_refused_with_its_clause(key, value, rule):
    reply = Session().handle({"cmd": "new_game", "config": {"players": 4, key: value}, "seed": 1})
    assert reply["ok"] is False and reply["error"]["code"] == "bad_config" and reply["error"]["rule"] == rule


def test_hello_lists_every_value_played():
    opts = Session().handle({"cmd": "hello"})["options"]
    assert opts["equality"] == [False, True] and opts["sequences"] == [False, True]
    assert opts["jokers"] == [0, 1, 2] and opts["leader_may_pass"] == [False, True]
    assert opts["scoring"] == ["places", "president_only", "none"]
    assert opts["first_lead"][0] == "seat0" and {"holder:3C", "holder:4C", "holder:2S"} <= set(opts["first_lead"])
    assert len(opts["first_lead"]) == 53 and opts["revolution"] == [True, False] and opts["deals"] is True


def test_combinations_are_read_without_ambiguity():
    assert combo(parse_cards("5C 5D X1"), True) == (SET, 3, 2)
    assert combo(parse_cards("X2"), True) == (LONE, 1, 13)
    assert combo(parse_cards("3H 4H 5H 6H"), True) == (RUN, 4, 0)
    assert combo(parse_cards("3H 4H 5H 6H"), False) is None
    assert combo(parse_cards("3H 4H X1"), True) is None  # no joker in a run
    assert combo(parse_cards("X1 X2"), True) is None
    assert combo(parse_cards("RH AH 2H"), True) == (RUN, 3, 10)  # a run may end with the 2
    assert combo(parse_cards("AH 2H 3H"), True) is None  # no wrap from 2 to 3


def test_equality_with_two_players_left_ends_the_trick():
    g = game("5C 3C", "5D 9D", "8C", equality=True)
    g.act(0, parse_cards("5C"))
    g.act(1, parse_cards("5D"))  # equal: skips seat 2, then seat 0, who played before, may still act
    assert g.to_act == 0 and g.trick_by == 1
    g = game("5C", "5D 9D", "8C 7C", equality=True)
    g.act(0, parse_cards("5C"))  # seat 0 is out
    g.act(1, parse_cards("5D"))  # equal: skips seat 2, nobody else may act: the trick ends
    assert g.trick == 0 and g.to_act == 1


def test_runs_in_revolution_compare_by_the_current_order():
    g = game("5C 5D 5H 5S 8H 9H 10H", "6D 7D 8D VS DS RS", "2C", sequences=True)
    g.act(0, parse_cards("5C 5D 5H 5S"))
    g.act(1, PASS)
    g.act(2, PASS)
    assert g.reversed and g.to_act == 0
    g.act(0, parse_cards("8H 9H 10H"))
    assert texts(g) == ["pass", "6D 7D 8D"]


def test_a_run_does_not_reverse_and_only_a_higher_run_follows():
    g = game("3C 4C 5C 6C 9D", "4H 5H 6H 7H 8H", "2S", sequences=True)
    g.act(0, parse_cards("3C 4C 5C 6C"))
    assert not g.reversed
    assert texts(g) == ["pass", "4H 5H 6H 7H", "5H 6H 7H 8H"]
    with pytest.raises(IllegalAction) as info:
        g.act(1, parse_cards("4H 5H 6H 7H 8H"))
    assert info.value.rule == "play.count-matches"


def test_the_leader_pass_never_loops():
    g = game("3C", "4C", "5C", leader_may_pass=True)
    g.act(0, PASS)
    g.act(1, PASS)
    assert texts(g) == ["5C"]
    with pytest.raises(IllegalAction) as info:
        g.act(2, PASS)
    assert info.value.rule == "option.leader-may-pass.on"


def test_jokers_are_dealt_and_given_first_in_the_exchange():
    g = GameState.new(RULES, 3, seed=5, jokers=2)
    assert sum(h.bit_count() for h in g.hands) == 54
    assert sum(1 for h in g.hands if h >> 52) >= 1
    with pytest.raises(IllegalAction) as info:
        game("X1 3C", "4C", "5C")
    assert info.value.rule == "setup.no-jokers-sequences"


def test_first_lead_holder_leads_and_must_use_the_card():
    g = game("4C", "3D 3C 9S", "5C", first_lead="holder:3C")
    assert g.to_act == 1 and texts(g) == ["3C", "3C 3D"]
    with pytest.raises(IllegalAction) as info:
        g.act(1, parse_cards("9S"))
    assert info.value.rule == "option.first-lead.holder"
    g.act(1, parse_cards("3C"))
    g.act(2, PASS)
    g.act(0, PASS)
    assert "9S" in texts(g)  # only the first play is bound


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.slow
def test_easy_and_medium_play_every_option_combination(level):
    """Random option combinations, 3 to 6 players, series of 2 deals: every choice is legal (choose()
    refuses anything else) and uses the new kinds of plays."""
    import random

    from president.ai import choose
    from president.game.engine import Phase
    from president.game.plays import combo

    rng = random.Random(7)
    kinds: set[str] = set()
    for i in range(40):
        opts = dict(revolution=rng.random() < .5, equality=rng.random() < .5, sequences=i % 2 == 0,
                    jokers=i % 3, first_lead=rng.choice(["seat0", "holder:3C", "holder:9H"]),
                    leader_may_pass=rng.random() < .5, scoring=rng.choice(["places", "president_only", "none"]))
        g = GameState.new(RULES, players=3 + i % 4, seed=i, deals=2, **opts)
        while g.phase != Phase.GAME_OVER:
            if g.phase == Phase.DEAL_OVER:
                g.start_next_deal()
                continue
            seat = g.to_act
            a = choose(level, g.observation(seat), random.Random(i))
            if g.phase == Phase.PLAY and a:
                c = combo(a, True)
                kinds.add({0: "set", 1: "run", 2: "lone joker"}[c[0]] + ("+joker" if c[0] == 0 and a >> 52 else ""))
            g.act(seat, a, give=g.phase == Phase.EXCHANGE)
    assert {"set", "run", "lone joker", "set+joker"} <= kinds
