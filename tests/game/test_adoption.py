"""The reference never loops without a bound, and adopts only what the rules can reach.

Two Hypothesis properties: from any position `game_from_state` accepts, random legal play ends
the game within a fixed number of steps; and any STATE dict given to the adoption path of the
replay loop (`conform.replay.Replayer.adopt`) is either refused as not followable (naming a
clause of the spec) or followable to the end of the game.
"""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.conform.replay import Replayer
from president.errors import IllegalAction
from president.game.cards import card_list, iter_cards
from president.game.engine import GameState, Phase, Ruleset
from president.game.position import Unfollowable, game_from_state

RULES = Ruleset.from_spec()
CLAUSES = {c.id for c in RULES.spec.clauses} | {"protocol"}
#: Steps (acts and deals) within which any game from any accepted position ends: every play takes
#: a card (at most 54 a deal, 3 deals), and between two plays each seat passes at most once.
MAX_STEPS = 3 * 54 * 7 + 3 * 12

options_st = st.fixed_dictionaries({
    "revolution": st.booleans(), "equality": st.booleans(), "sequences": st.booleans(),
    "jokers": st.integers(0, 2), "first_lead": st.sampled_from(["seat0", "holder:3C", "holder:7H"]),
    "leader_may_pass": st.booleans(), "scoring": st.sampled_from(["places", "president_only", "none"])})


def random_state(rng: random.Random, players: int, deck: int, consistent: float) -> dict[str, Any]:
    """A STATE dict: often one the rules reach (with probability `consistent` per field), often not."""
    cards = list(iter_cards(deck))
    rng.shuffle(cards)
    cards = cards[:rng.randint(0, len(cards))]
    hands: list[list[int]] = [[] for _ in range(players)]
    for c in cards:
        if rng.random() < 0.9:
            hands[rng.randrange(players)].append(c)
    held = {c for h in hands for c in h}
    spare = [c for c in iter_cards(deck) if c not in held]
    names = [card_list(sum(1 << c for c in h)) for h in hands]
    if rng.random() > consistent and cards:  # a card in two hands
        names[rng.randrange(players)].append(card_list(1 << cards[0])[0])
    holders = [s for s in range(players) if names[s]]
    empty = [s for s in range(players) if not names[s]]
    finished = empty[:] if rng.random() < consistent else rng.sample(range(players), rng.randint(0, players))
    rng.shuffle(finished)
    to_act: Any = rng.choice(holders) if holders and rng.random() < consistent else rng.choice(
        [None, -1, players, *range(players)])
    trick = None
    if rng.random() < 0.5 and spare:
        k = rng.randint(1, 4) if rng.random() > consistent else 1
        trick = {"cards": card_list(sum(1 << c for c in rng.sample(spare, min(k, len(spare))))),
                 "by": rng.choice([s for s in range(players) if s != to_act] or [0])}
    run = [4 * r + 3 for r in range(rng.randrange(10), 13)][:3]  # three spades in a row: a run, if unheld
    if trick is None and rng.random() < 0.3 and all(c in spare for c in run):
        trick = {"cards": card_list(sum(1 << c for c in run)),
                 "by": rng.choice([s for s in range(players) if s != to_act] or [0])}
    by = trick["by"] if trick else None
    passed = [s for s in holders if s != to_act and s != by and rng.random() < 0.3]  # on an empty trick too
    phase = rng.choice(["play"] * 6 + ["exchange", "deal_over", "game_over"] + ["bogus"] * (rng.random() > consistent))
    if phase in ("deal_over", "game_over") and rng.random() < consistent:
        finished = empty + [s for s in holders][:1] + [s for s in holders[1:]]
    fair = rng.random() < consistent
    return {"phase": phase, "deal": rng.choice([1, 2, 3] if fair else [0, "1", 9]), "to_act": to_act,
            "order": rng.choice(["normal", "reversed"] if fair else ["reversed", "sideways", None]), "trick": trick,
            "passed": passed, "hands": names, "finished": finished,
            "scores": [rng.randint(0, 9) for _ in range(players)] if rng.random() < consistent else [0]}


def play_to_the_end(g: GameState, rng: random.Random) -> int:
    """Random legal actions (and fresh deals) until game over; the steps it took."""
    for step in range(MAX_STEPS):
        if g.phase == Phase.GAME_OVER:
            return step
        if g.phase == Phase.DEAL_OVER:
            deck = list(iter_cards(g.config.deck))
            rng.shuffle(deck)
            hands = [0] * g.n
            for i, c in enumerate(deck):
                hands[i % g.n] |= 1 << c
            g.start_next_deal(hands)
            continue
        actions = g.legal_actions()
        assert actions, f"no legal action at {g!r}"
        g.act(g.to_act, rng.choice(actions), give=g.phase == Phase.EXCHANGE)  # type: ignore[arg-type]
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps: {g!r}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(players=st.integers(3, 6), options=options_st, deals=st.integers(1, 3), seed=st.integers(0, 10**9))
def test_every_accepted_position_ends_within_a_bound(players: int, options: dict, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    config = RULES.config(players, deals=deals, **options)
    accepted = 0
    for _ in range(30):
        state = random_state(rng, players, config.deck, consistent=0.97)
        try:
            g = game_from_state(RULES, config, state, rng.sample(range(players), players))
        except Unfollowable as exc:
            assert exc.clause in CLAUSES, exc
            continue
        accepted += 1
        play_to_the_end(g, rng)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), options=options_st, deals=st.integers(1, 3), seed=st.integers(0, 10**9),
       consistent=st.sampled_from([0.5, 0.9, 1.0]))
def test_adoption_refuses_or_follows_to_the_end(players: int, options: dict, deals: int, seed: int,
                                                consistent: float) -> None:
    rng = random.Random(seed)
    config = {"players": players, "deals": deals, **options}
    hands = [["3C", "7H"][s % 2:s % 2 + 1] + [f"{r}S" for r in "456789"[s::players]] for s in range(players)]
    rep = Replayer(RULES)
    rep.step({"cmd": "new_game", "config": config, "hands": hands}, None)
    state = random_state(rng, players, RULES.config(**config).deck, consistent)
    try:
        game = rep.adopt(state)
    except Unfollowable as exc:
        assert exc.clause in CLAUSES, exc
        return
    try:
        play_to_the_end(game, rng)
    except IllegalAction as exc:  # only a deal the reference refuses: never a refused legal action
        raise AssertionError(f"{exc} after adopting {state}") from None


def _play_state(to_act: int, trick: Any, hands: list[list[str]], finished: list[int]) -> dict[str, Any]:
    return {"phase": "play", "deal": 1, "to_act": to_act, "order": "normal", "trick": trick, "passed": [],
            "hands": hands, "finished": finished, "scores": [0, 0, 0, 0]}


@pytest.mark.parametrize("state, clause", [
    (_play_state(2, None, [["3C"], ["4C"], [], ["5C"]], [2]), "lead.next-active"),  # a finished seat to act
    (_play_state(1, {"cards": ["5C", "6C"], "by": 0}, [["3C"], ["4C"], ["7D"], ["8D"]], []), "play.same-rank"),
    (_play_state(0, None, [["3C"], [], [], []], [1, 2, 3]), "deal.end"),  # one seat left holding cards
], ids=["finished-seat-to-act", "lead-of-two-ranks", "one-seat-left"])
def test_a_state_no_rule_reaches_is_not_followable(state: dict[str, Any], clause: str) -> None:
    with pytest.raises(Unfollowable) as caught:
        game_from_state(RULES, RULES.config(4), state)
    assert caught.value.clause == clause, caught.value
    if clause == "lead.next-active":
        assert str(caught.value) == "seat 2 is to act but has finished: lead.next-active"
