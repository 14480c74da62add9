import pytest

from president.game.cards import (CARD_NAMES, Card, best_cards, card_list, cards_text, is_one_rank, parse_cards,
                             rank_counts, rank_of, worst_cards)
from president.errors import CardError


@pytest.mark.parametrize("name", CARD_NAMES)
def test_every_card_round_trips(name):
    card = Card.parse(name)
    assert str(card) == name
    assert eval(repr(card)) == card  # the repr pastes back


def test_card_order_is_rank_then_suit():
    assert Card.parse("3C") < Card.parse("3S") < Card.parse("4C") < Card.parse("2C")
    assert Card.parse("10H").rank == 7 and Card.parse("10H").suit == 2


@pytest.mark.parametrize("bad", ["", "1C", "10", "3X", "11H", "3c", "V", None])
def test_bad_cards_are_refused_with_a_hint(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_masks():
    m = parse_cards("2S 3C 3D 10H")
    assert card_list(m) == ["3C", "3D", "10H", "2S"]
    assert cards_text(m) == "3C 3D 10H 2S"
    assert parse_cards(card_list(m)) == m
    assert rank_counts(m)[0] == 2 and rank_counts(m)[12] == 1
    assert cards_text(best_cards(m, 2)) == "10H 2S"
    assert cards_text(worst_cards(m, 2)) == "3C 3D"
    assert is_one_rank(parse_cards("VC VS")) and not is_one_rank(m)
    assert rank_of(parse_cards("VC VS")) == 8


def test_duplicate_card_is_an_error():
    with pytest.raises(CardError, match="twice"):
        parse_cards("3C 3C")


def test_card_list_returns_fresh_lists():
    m = parse_cards("3C 4C")
    card_list(m).append("XX")
    assert card_list(m) == ["3C", "4C"]
