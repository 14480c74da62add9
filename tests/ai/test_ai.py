"""AI players: exact easy choices, medium keeps its 2s and quads, the spec's AI scenarios,
observation-only invariance, and small fixed-seed tournaments ranking hard > medium > easy."""
from __future__ import annotations

import random

import pytest

from president.ai import choose, levels, player
from president.ai.examples import ai_examples, run_example
from president.ai import hard as hard_ai
from president.ai.base import ASCENDING, LOW_SUITS, POP
from president.ai.hard import opponent_decisions, sample_hands, sample_worlds, search, unseen_cards
from president.ai.medium import ABOVE, medium_play
from president.game.cards import FULL_DECK, NUM_RANKS, SUBSETS, parse_cards
from president.game.engine import PASS, GameState, Phase
from president.arena.strength import paired_gain
from president.arena.tournament import tournament


def _game(hands, **kw) -> GameState:
    return GameState.new(players=len(hands), hands=[parse_cards(h) for h in hands], **kw)


def test_levels_come_from_the_spec():
    assert levels() == ("easy", "medium", "hard")
    with pytest.raises(KeyError):
        player("expert")


def test_an_ai_receives_an_observation_only():
    g = GameState.new(seed=1)
    with pytest.raises(TypeError):
        choose("easy", g, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("clause,ex", list(ai_examples()), ids=lambda v: getattr(v, "name", v))
def test_spec_ai_scenarios(clause, ex):
    results = run_example(ex)
    assert results
    for level, expected, actual in results:
        assert actual == expected, f"{clause}: {level} chose {actual}, the spec says {expected}"


def test_easy_exact_choices():
    g = _game(["5C 3C", "4C 7D 7S 9H 2C", "10C"])
    g.act(0, parse_cards("5C"))
    assert choose("easy", g.observation(1), random.Random(0)) == parse_cards("7D")
    g = _game(["4D 4S 6C 2H", "3C", "5C"])
    assert choose("easy", g.observation(0), random.Random(0)) == parse_cards("4D 4S")


def test_easy_never_passes_when_it_can_play():
    for seed in range(20):
        g = GameState.new(seed=seed)
        while g.phase == Phase.PLAY:
            obs = g.observation(g.to_act)
            a = choose("easy", obs, random.Random(0))
            if a == PASS:
                assert obs.legal == (PASS,)
            g.apply(a)


def test_medium_keeps_its_2s_and_quads():
    g = _game(["5C 3C", "4C 4D 6C 6D 7C 7D 8C 8D 9C 9D 2S", "10C"])
    g.act(0, parse_cards("5C"))
    assert choose("medium", g.observation(1), random.Random(0)) == PASS  # easy would play the 2
    g = _game(["5C 3C", "7C 7D 7H 7S 8C 8D 9C 9D VC VD DC DD", "10C"])
    g.act(0, parse_cards("5C"))
    assert choose("medium", g.observation(1), random.Random(0)) == PASS  # easy would split the quad
    g = _game(["3C 3D 5H 2C 2D", "4C", "6C"])
    assert choose("medium", g.observation(0), random.Random(0)) == parse_cards("3C 3D")


def _medium_reference(hand: int, trick: int, reversed_: bool) -> int:
    """The medium clauses written rank by rank, the plain way (medium_play is the bit-parallel form)."""
    top = 0 if reversed_ else NUM_RANKS - 1
    if not trick:
        low = quad = -1
        groups = 0
        for r in ASCENDING[reversed_]:
            nib = hand >> (4 * r) & 0xF
            if nib and r != top:
                if nib != 0xF:
                    groups += 1
                    low = r if low < 0 else low
                elif quad < 0:
                    quad = r
        nib = hand >> (4 * top) & 0xF
        if nib and (low < 0 or groups <= 1):
            return nib << (4 * top)
        return (hand >> (4 * low) & 0xF) << (4 * low) if low >= 0 else 0xF << (4 * quad)
    t, k = (trick.bit_length() - 1) >> 2, trick.bit_count()
    ranks = sum(1 for r in range(NUM_RANKS) if hand >> (4 * r) & 0xF)
    second = (1 if reversed_ else NUM_RANKS - 2) if ranks > 6 else -1
    for r in ABOVE[reversed_][t]:
        nib = hand >> (4 * r) & 0xF
        if nib and POP[nib] == k and r != top and nib != 0xF:
            if r == second:
                break
            return nib << (4 * r)
    nib = hand >> (4 * top) & 0xF
    if t != top and POP[nib] >= k and ranks - 1 <= 4 + POP[nib] - k:
        return LOW_SUITS[nib][k] << (4 * top)
    if ranks <= 4:
        for r in ABOVE[reversed_][t]:
            nib = hand >> (4 * r) & 0xF
            if POP[nib] >= k:
                return LOW_SUITS[nib][k] << (4 * r)
    return PASS


def test_medium_play_matches_the_plain_reading_of_its_clauses():
    rng = random.Random(3)
    for _ in range(20_000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.choice([1, 2, 3, 5, 8, 13])))
        trick = 0
        if rng.random() < 0.7:
            r = rng.randrange(NUM_RANKS)
            free = 0xF & ~(hand >> (4 * r))
            sizes = [k for k in range(1, 5) if SUBSETS[r][free][k]]
            if sizes:
                trick = rng.choice(SUBSETS[r][free][rng.choice(sizes)])
        rev = rng.random() < 0.3
        assert medium_play(hand, trick, rev) == _medium_reference(hand, trick, rev), (hex(hand), hex(trick), rev)


@pytest.mark.slow
def test_worlds_from_an_observation_play_on_like_the_real_game():
    """A determinization built from an observation with the true hands (the search's only way into
    the rules) is the real game: same observation, and the same play from then on, exchanges included."""
    rng = random.Random(5)
    for seed in range(30):
        g = GameState.new(players=3 + seed % 3, deals=2, seed=seed)
        while g.phase in (Phase.PLAY, Phase.EXCHANGE, Phase.DEAL_OVER):
            if g.phase == Phase.DEAL_OVER:
                g.start_next_deal()
                continue
            if rng.random() < 0.15:
                seat = g.to_act
                obs = g.observation(seat)
                w = GameState.from_observation(obs, g.hands)
                assert w.observation(seat) == obs
                real = g.copy()
                while real.phase in (Phase.PLAY, Phase.EXCHANGE):
                    a = choose("medium", real.observation(real.to_act), random.Random(0))
                    assert w.to_act == real.to_act and w.legal_actions() == real.legal_actions()
                    w.apply(a)
                    real.apply(a)
                assert (w.finished, w.last_ranking, w.scores) == (real.finished, real.last_ranking, real.scores)
            a = choose("medium", g.observation(g.to_act), random.Random(0))
            g.act(g.to_act, a, give=g.phase == Phase.EXCHANGE)


def test_opponents_decisions_fit_their_true_hands():
    """Replayed against the medium policy, the true hands of medium opponents explain every play and
    pass; the belief sampler draws hands that explain them far better than a blind deal does."""
    for seed in range(4):
        g = GameState.new(seed=seed)
        for _ in range(22):
            g.apply(medium_play(g.hands[g.to_act], g.trick, g.reversed))
        me = g.to_act
        obs = g.observation(me)
        decisions = opponent_decisions(obs, g.hands)
        assert sum(map(len, decisions)) == 22 - sum(1 for _d, s, _a in obs.history if s == me)
        assert all(hard_ai._misfits(g.hands[s], decisions[s]) == 0 for s in range(4) if s != me)
        worlds = sample_worlds(obs, random.Random(seed), 20)
        assert len(worlds) == 20
        for w in worlds:
            assert [w[s].bit_count() for s in range(4)] == list(obs.hand_sizes) and w[me] == obs.hand
        misfits = sum(hard_ai._misfits(w[s], decisions[s]) for w in worlds for s in range(4) if s != me)
        rng = random.Random(seed)
        uniform = [sample_hands(obs, rng, *unseen_cards(obs)) for _ in range(20)]
        blind = sum(hard_ai._misfits(w[s], decisions[s]) for w in uniform for s in range(4) if s != me)
        assert misfits < blind / 2, (misfits, blind)


def test_search_finds_the_sure_way_out():
    # 3 players, one card each for the others: leading 2S, then 3C, makes seat 0 President in every
    # world; leading 3C first lets a higher single go out first
    g = GameState.new(players=3, hands=["3C 2S", "4D", "5D"])
    obs = g.observation(0)
    root = search(obs, random.Random(1), [parse_cards("3C"), parse_cards("2S")], 120)
    assert root.n == 120 and sum(root.visits) == 120
    means = [t / v for t, v in zip(root.totals, root.visits)]
    assert means[1] == 1.0 > means[0]  # President (reward 1) every time
    assert choose("hard", obs, random.Random(1)) == parse_cards("2S")


@pytest.fixture
def light_hard(monkeypatch):
    """A lighter hard (far fewer iterations and a shorter belief chain): the same code paths, faster tests.
    Tournament processes are forked, so they see the patch too."""
    for name, value in (("WORK", 600), ("MIN_ITER", 12), ("MAX_ITER", 40), ("BURN_IN", 60)):
        monkeypatch.setattr(hard_ai, name, value)


def _redeal(g: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game with every hidden card re-dealt in a way consistent with `seat`'s observation."""
    obs = g.observation(seat)
    unseen, known, cap = unseen_cards(obs)
    # the re-deal may use any card the seat has not seen, placed at random among the other seats
    hands = sample_hands(obs, rng, unseen, known, cap)
    h = g.copy()
    h.hands = hands
    h._legal = None
    return h


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.slow
def test_hidden_cards_never_change_a_decision(level, light_hard):
    """Re-dealing the hidden cards consistently with the observation never changes the choice."""
    rng = random.Random(7)
    checked = changed = 0
    for seed in range(6 if level == "hard" else 30):
        g = GameState.new(players=4, deals=2, seed=seed)
        steps = 0
        while g.phase in (Phase.PLAY, Phase.EXCHANGE, Phase.DEAL_OVER):
            if g.phase == Phase.DEAL_OVER:
                g.start_next_deal()
                continue
            seat = g.to_act
            steps += 1
            if steps % (9 if level == "hard" else 3) == 0:
                obs = g.observation(seat)
                other = _redeal(g, seat, rng)
                changed += other.hands != g.hands
                assert other.observation(seat) == obs
                assert (choose(level, other.observation(seat), random.Random(seed))
                        == choose(level, obs, random.Random(seed)))
                checked += 1
            a = choose("medium", g.observation(seat), random.Random(0))
            g.act(seat, a, give=g.phase == Phase.EXCHANGE)
    assert checked > 10 and changed > checked // 2


def test_card_counting_from_plays_and_exchanges():
    g = GameState.new(players=4, deals=2, seed=3)
    while g.phase == Phase.PLAY:
        g.apply(choose("easy", g.observation(g.to_act), random.Random(0)))
    g.start_next_deal()
    president = g.last_ranking[0]
    obs = g.observation(president)
    unseen, known, cap = unseen_cards(obs)
    scum = g.last_ranking[-1]
    assert unseen | obs.hand == FULL_DECK
    assert cap[scum] < 64  # the scum gave its best cards: it holds nothing better than the worst of them
    assert all(c < cap[scum] for c in range(52) if g.hands[scum] >> c & 1)
    give = choose("hard", obs, random.Random(0))
    g.act(president, give, give=True)
    unseen, known, _ = unseen_cards(g.observation(president))
    assert known[scum] == give and not unseen & give


@pytest.mark.slow
def test_medium_beats_easy_significantly():
    """The short significance check of the suite; hard > medium, which needs minutes, is measured by
    benchmarks/test_strength.py (marked slow, outside the suite's testpaths)."""
    r = tournament(["medium", "easy", "easy", "easy"], games=800, seed=11)
    pts, ci = r["mean_points"], r["ci95"]
    assert pts[0] - ci[0] > max(pts[1:]), r
    gain, half = paired_gain("medium", "easy", 300, seed=11)
    assert gain - half > 0, (gain, half)


@pytest.mark.parametrize("scoring, president, second, last", [
    ("places", 1.0, 3 / 7, 1 / 7),          # 4, 3, 2, 1 points plus the bonus of 3 for President
    ("president_only", 1.0, 0.0, 0.0),      # only President scores: second place is worth no more than last
    ("none", 1.0, 3 / 7, 1 / 7),            # nothing scores: the places still rank the players
])
def test_hard_aims_for_what_the_games_scoring_pays(scoring, president, second, last):
    g = GameState.new(players=4, seed=3, scoring=scoring)
    reward = [hard_ai.place_reward(g, place) for place in (1, 2, 4)]
    assert reward == pytest.approx([president, second, last])
