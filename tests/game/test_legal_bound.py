"""`legal` never lists more than MAX_LEGAL_ACTIONS (docs/protocol.md, Bounds): the published spec
stays far below it, and an exchange that would exceed it is refused, never enumerated."""
import math

import pytest

from president.errors import IllegalAction
from president.game import engine
from president.game.cards import parse_cards
from president.game.engine import PASS, GameState, Phase, Ruleset
from president.spec import MAX_LEGAL_ACTIONS

RULES = Ruleset.from_spec()


def _exchange_phase() -> GameState:
    """Deal 2 of a 4-player series, the President (seat 0) choosing 2 of 5 cards to give back."""
    g = GameState.new(RULES, 4, True, 2, hands=["3C", "4C 9D", "5C 5D", "6C 6D"])
    for seat, cards in [(0, "3C"), (1, "4C"), (2, "5C"), (3, "6C")]:
        g.act(seat, parse_cards(cards))
    g.act(1, PASS), g.act(2, PASS)
    g.act(3, parse_cards("6D")), g.act(1, parse_cards("9D"))
    g.start_next_deal([parse_cards("3C 3D 9C"), parse_cards("4C 4D 10C"), parse_cards("5C 2S 2H"),
                       parse_cards("6C 6D AC")])
    assert g.phase == Phase.EXCHANGE and g.to_act == 0
    return g


def test_the_published_exchange_is_listed_in_full():
    assert len(_exchange_phase().legal_actions()) == math.comb(5, 2) <= MAX_LEGAL_ACTIONS


def test_an_exchange_over_the_bound_is_refused_not_enumerated(monkeypatch):
    monkeypatch.setattr(engine, "MAX_LEGAL_ACTIONS", 9)  # C(5, 2) = 10 choices: one too many
    with pytest.raises(IllegalAction) as info:
        _exchange_phase().legal_actions()
    assert info.value.code == "too_many_actions" and "10 actions" in info.value.message


def test_plays_of_a_hand_of_every_card_stay_far_below_the_bound():
    from president.game import plays
    every = (1 << 54) - 1  # 52 cards and both jokers
    worst = max(len(plays.plays(every, 0, False, eq, seq, 1, 4, run))
                for eq in (False, True) for seq in (False, True) for run in (2, 3))
    assert worst + 1 <= MAX_LEGAL_ACTIONS // 5
