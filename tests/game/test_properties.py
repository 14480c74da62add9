"""Hypothesis property tests of the reference engine under random play, over random table options
(every value of every option, 3 to 6 players, jokers included)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.game.cards import FULL_DECK, RANK_MASKS
from president.game.engine import PASS, GameState, Phase, Ruleset
from president.errors import IllegalAction

pytestmark = pytest.mark.slow

RULES = Ruleset.from_spec()
CARDS = [f"holder:{c}" for c in ("3C", "4C", "7H", "2S")]

#: random table options: every value of every option the spec defines
options_st = st.fixed_dictionaries({
    "revolution": st.booleans(), "equality": st.booleans(), "sequences": st.booleans(),
    "jokers": st.integers(0, 2), "first_lead": st.sampled_from(["seat0", *CARDS]),
    "leader_may_pass": st.booleans(), "scoring": st.sampled_from(["places", "president_only", "none"])})


def deal_points(scoring: str, n: int) -> int:
    """What the points of one deal add up to (score.points and option.scoring.*)."""
    return {"places": n * (n + 1) // 2, "president_only": 1, "none": 0}[scoring]


def quad_rich_hands(rng: random.Random, n: int) -> list[int]:
    """Deal whole ranks to players so that quads are common (random deals rarely hold any)."""
    ranks = list(range(13))
    rng.shuffle(ranks)
    hands = [0] * n
    for i, r in enumerate(ranks):
        hands[i % n] |= RANK_MASKS[r]
    return hands


def random_illegal(rng: random.Random, g: GameState) -> tuple[int, int, bool]:
    """A random action by a random seat: usually refused, sometimes legal."""
    seat = rng.randrange(g.n)
    kind = rng.random()
    if kind < 0.2:
        return seat, PASS, False
    mask = 0
    for _ in range(rng.randint(1, 5)):
        mask |= 1 << rng.randrange(54)
    if kind < 0.6:
        mask &= g.hands[seat] or FULL_DECK
    return seat, mask, g.phase == Phase.EXCHANGE and kind < 0.9


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), options=options_st, deals=st.integers(1, 3), seed=st.integers(0, 10**9),
       quads=st.booleans())
def test_random_series_invariants(players: int, options: dict, deals: int, seed: int, quads: bool) -> None:
    rng = random.Random(seed)
    config = RULES.config(players, deals=deals, **options)
    hands = quad_rich_hands(rng, players) if quads else None
    if hands is not None and config.holder is not None and not any(h >> config.holder & 1 for h in hands):
        hands[0] |= 1 << config.holder  # whole ranks dealt: the first-lead card is among them
        for s in range(1, players):
            hands[s] &= ~(1 << config.holder)
    g = GameState(RULES, config, hands, seed)
    total_points = 0
    for deal in range(1, deals + 1):
        steps = 0
        while g.phase in (Phase.PLAY, Phase.EXCHANGE):
            # cards are conserved: no card twice, none outside the deck
            all_cards = 0
            for h in g.hands:
                assert all_cards & h == 0
                all_cards |= h
            assert all_cards & ~config.deck == 0
            legal = g.legal_actions()
            assert legal, "the seat to act always has an action"
            assert len(set(legal)) == len(legal), "legal actions are distinct"
            for a in rng.sample(legal, min(len(legal), 5)):  # every listed action is accepted
                assert g.check(g.to_act, a, give=g.phase == Phase.EXCHANGE) is None  # type: ignore[arg-type]
            # a refused action leaves the state unchanged; an accepted one was legal
            seat, action, give = random_illegal(rng, g)
            probe = g.copy()
            before = (g.to_wire(), repr(g))
            try:
                probe.act(seat, action, give=give)
            except IllegalAction as exc:
                assert exc.rule in RULES.spec.clause_ids
                assert (g.to_wire(), repr(g)) == before
            else:
                assert seat == g.to_act and action in legal
            choice = rng.choice(legal)
            g.act(g.to_act, choice, give=g.phase == Phase.EXCHANGE)  # type: ignore[arg-type]
            steps += 1
            assert steps < 3000, "every deal terminates"
        # the points of each deal add up to what the scoring gives
        assert sum(g.scores) - total_points == deal_points(config.scoring, players)
        total_points = sum(g.scores)
        assert sorted(g.finished) == list(range(players))
        if g.phase == Phase.DEAL_OVER:
            g.start_next_deal(quad_rich_hands(rng, players) if quads else None)
            assert not g.reversed
    assert g.phase == Phase.GAME_OVER and g.deal == deals


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 10**9), options=options_st)
def test_cards_conserved_over_a_full_deck_deal(players: int, seed: int, options: dict) -> None:
    rng = random.Random(seed)
    g = GameState(RULES, RULES.config(players, deals=2, **options), None, seed)
    deck = 52 + options["jokers"]
    while g.phase != Phase.GAME_OVER:
        if g.phase == Phase.DEAL_OVER:
            g.start_next_deal()
            continue
        played = sum(a.bit_count() for d, s, a in g.history if d == g.deal)
        assert sum(h.bit_count() for h in g.hands) + played == deck
        g.act(g.to_act, rng.choice(g.legal_actions()), give=g.phase == Phase.EXCHANGE)  # type: ignore[arg-type]
