import pytest

from president.game.cards import card_list, parse_cards
from president.game.engine import PASS, GameState, Phase, Ruleset, action_text
from president.errors import IllegalAction

RULES = Ruleset.from_spec()


def game(*hands: str, revolution: bool = True, deals: int = 1) -> GameState:
    return GameState.new(RULES, len(hands), revolution, deals, hands=list(hands))


def play(g: GameState, seat: int, cards: str) -> None:
    g.act(seat, parse_cards(cards))


def refused(g: GameState, seat: int, cards: str | None, rule: str, give: bool = False) -> None:
    before = (repr(g), g.to_wire())
    with pytest.raises(IllegalAction) as info:
        g.act(seat, PASS if cards is None else parse_cards(cards), give=give)
    assert info.value.rule == rule
    assert (repr(g), g.to_wire()) == before


def test_ruleset_reads_the_spec():
    assert (RULES.min_players, RULES.max_players) == (3, 6)
    assert RULES.revolution_default is True and RULES.revolution_cards == 4
    assert RULES.points(1, 4) == 4 and RULES.points(4, 4) == 1


@pytest.mark.parametrize("n", [2, 7])
def test_player_range_comes_from_the_spec(n):
    with pytest.raises(IllegalAction) as info:
        RULES.config(n)
    assert info.value.rule == "setup.players"


def test_dealing_is_one_card_at_a_time_from_seat_0():
    g = GameState.new(RULES, 5, seed=7)
    sizes = [h.bit_count() for h in g.hands]
    assert sizes == [11, 11, 10, 10, 10]
    assert sum(sizes) == 52
    again = GameState.new(RULES, 5, seed=7)
    assert again.hands == g.hands


def test_legal_order_and_refusals():
    g = game("3C 3D 3H 5S", "4C 4D 6C 6D", "7C")
    assert [action_text(a) for a in g.legal_actions()][:4] == ["play 3C", "play 3D", "play 3H", "play 3C 3D"]
    assert PASS not in g.legal_actions()
    refused(g, 0, None, "lead.must-play")
    refused(g, 0, "3C 5S", "play.same-rank")
    refused(g, 1, "4C", "turn.order")
    refused(g, 0, "7C", "play.own-cards")
    play(g, 0, "3C 3D")
    assert [action_text(a) for a in g.legal_actions()] == ["pass", "play 4C 4D", "play 6C 6D"]
    refused(g, 1, "4C", "play.count-matches")
    play(g, 1, "4C 4D")
    refused(g, 2, "7C", "play.count-matches")
    g.act(2, PASS)
    refused(g, 2, None, "pass.final")
    assert g.to_act == 0
    refused(g, 0, "3H 5S", "play.same-rank")


def test_strictly_higher_no_equality():
    g = game("5C 9C", "5D 9D", "5H 9H")
    play(g, 0, "5C")
    refused(g, 1, "5D", "play.strictly-higher")


def test_trick_end_and_next_leader():
    g = game("3C 9C", "4C 8C", "5C 7C")
    play(g, 0, "3C")
    play(g, 1, "4C")
    play(g, 2, "5C")
    g.act(0, PASS)
    g.act(1, PASS)
    assert g.trick == 0 and g.to_act == 2 and g.passed == 0


def test_lead_passes_to_next_active_when_winner_is_out():
    g = game("3C 9C", "2C", "5C 7C", "6C 8C")
    play(g, 0, "3C")
    play(g, 1, "2C")  # seat 1 goes out with the highest card
    assert g.finished == [1]
    g.act(2, PASS)
    g.act(3, PASS)
    g.act(0, PASS)
    assert g.trick == 0 and g.to_act == 2


def test_revolution_flips_and_flips_back():
    g = game("5C 5D 5H 5S 9C", "4C 4D 4H 4S 2C", "6C 6D 6H 6S 8C")
    play(g, 0, "5C 5D 5H 5S")
    assert g.reversed and g.trick  # the quad does not clear the trick
    refused(g, 1, "2C", "play.count-matches")
    refused(g, 2, "6C 6D 6H 6S", "turn.order")
    g.act(1, PASS)
    refused(g, 2, "6C 6D 6H 6S", "play.strictly-higher")
    g2 = game("5C 5D 5H 5S 9C", "4C 4D 4H 4S 2C", "6C 6D 6H 6S 8C")
    play(g2, 0, "5C 5D 5H 5S")
    play(g2, 1, "4C 4D 4H 4S")
    assert not g2.reversed


def test_revolution_option_off():
    g = game("5C 5D 5H 5S 9C", "4C", "6C", revolution=False)
    play(g, 0, "5C 5D 5H 5S")
    assert not g.reversed


def test_deal_end_scores_and_game_over():
    g = game("3C", "4C 9C", "5C 8C")
    play(g, 0, "3C")
    play(g, 1, "4C")
    play(g, 2, "5C")
    g.act(1, PASS)
    play(g, 2, "8C")
    # seat 1 alone holds cards: the deal is over and seat 1 is last
    assert g.phase == Phase.GAME_OVER and g.to_act is None
    assert g.finished == [0, 2, 1]
    assert g.scores == [3, 1, 2]


def test_series_with_both_exchanges_four_players():
    g = game("3C", "4C 9D", "5C 5D", "6C 6D", deals=2)
    play(g, 0, "3C")  # out first
    play(g, 1, "4C")
    play(g, 2, "5C")
    play(g, 3, "6C")
    g.act(1, PASS), g.act(2, PASS)
    play(g, 3, "6D")  # out second
    play(g, 1, "9D")  # out third; seat 2 last
    assert g.phase == Phase.DEAL_OVER and g.finished == [0, 3, 1, 2]
    assert g.scores == [4, 2, 1, 3]
    refused(g, 0, "3C", "deal.end")
    g.start_next_deal([parse_cards("3C 3D 9C"), parse_cards("4C 4D 10C"), parse_cards("5C 2S 2H"),
                       parse_cards("6C 6D AC")])
    assert g.phase == Phase.EXCHANGE and not g.reversed
    # last (seat 2) gave 2S 2H to the President (seat 0); vice-last (seat 1) gave 10C to the vice (seat 3)
    assert card_list(g.hands[0]) == ["3C", "3D", "9C", "2H", "2S"]
    assert card_list(g.hands[3]) == ["6C", "6D", "10C", "AC"]
    assert g.to_act == 0
    refused(g, 3, "6C", "exchange.order", give=True)
    refused(g, 0, "3C", "exchange.scum", give=True)
    refused(g, 0, "3C 3D", "exchange.order")  # a play in the exchange phase
    g.act(0, parse_cards("3C 3D"), give=True)
    assert g.to_act == 3
    refused(g, 3, "6C 6D", "exchange.vice", give=True)
    g.act(3, parse_cards("6C"), give=True)
    assert g.phase == Phase.PLAY and g.to_act == 2  # the previous last leads
    assert card_list(g.hands[2]) == ["3C", "3D", "5C"]
    assert card_list(g.hands[1]) == ["4C", "4D", "6C"]


def test_three_players_only_president_exchanges():
    g = game("3C", "4C 9C", "5C 8C", deals=2)
    for seat, cards in [(0, "3C"), (1, "4C"), (2, "5C")]:
        play(g, seat, cards)
    g.act(1, PASS)
    play(g, 2, "8C")
    assert g.phase == Phase.DEAL_OVER and g.finished == [0, 2, 1]
    g.start_next_deal([parse_cards("3C 3D"), parse_cards("AS AH 7C"), parse_cards("5C")])
    assert g.phase == Phase.EXCHANGE and g.to_act == 0
    assert card_list(g.hands[0]) == ["3C", "3D", "AH", "AS"] and card_list(g.hands[1]) == ["7C"]
    g.act(0, parse_cards("3C 3D"), give=True)
    assert g.phase == Phase.PLAY and g.to_act == 1


def test_order_returns_to_normal_at_next_deal():
    g = game("5C 5D 5H 5S 9C", "4C", "6C 7C", deals=2)
    play(g, 0, "5C 5D 5H 5S")
    assert g.reversed
    g.act(1, PASS)
    g.act(2, PASS)
    play(g, 0, "9C")  # seat 0 out, in the reversed order
    play(g, 1, "4C")  # seat 1 out: 4 beats 9 in the reversed order; seat 2 last
    assert g.phase == Phase.DEAL_OVER and g.reversed
    g.start_next_deal([parse_cards("3C"), parse_cards("4C 4D"), parse_cards("5C 2S")])
    assert not g.reversed and g.to_wire()["order"] == "normal"


def test_observation_shows_only_what_a_seat_may_see():
    g = GameState.new(RULES, 4, seed=3)
    obs = g.observation(2)
    assert obs.hand == g.hands[2]
    assert obs.hand_sizes == (13, 13, 13, 13)
    assert not hasattr(obs, "hands")
    assert obs.legal == () and g.observation(0).legal == tuple(g.legal_actions())


def test_copy_is_independent():
    g = GameState.new(RULES, 4, seed=1)
    c = g.copy()
    c.apply(c.legal_actions()[0])
    assert g.to_wire() != c.to_wire()
    assert g.to_act == 0
