"""Hard: information-set Monte-Carlo tree search over its own decisions (`ai.hard`).

Card counting (`unseen_cards`): the cards still out are the deck minus its own hand, minus every
card played publicly this deal; the cards it gave in this deal's exchange are known to sit in the
receiver's hand until played, and a player that had to give it their best cards holds nothing
better than the worst of them.

Belief (`sample_worlds`): hidden hands of exactly the observed sizes, consistent with those counts,
drawn by a Metropolis chain over swaps of hidden cards between opponents that favours the deals in
which the opponent model (the medium policy) would have made the opponents' plays and passes of
this deal. Those decisions are found by replaying the deal's public history through the engine
(`opponent_decisions`).

Search (`search`): single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012).
Each iteration draws a fresh determinization from the belief chain and builds it as an engine
`GameState` (`GameState.from_observation`, with the game's own Ruleset and configuration from the
observation). It descends one tree whose nodes are hard's own information sets: a node is reached
by hard's action and then the opponents' observed actions until hard is to act again, so the same
node serves every world in which the public play went that way, and hard plans its own later plays
per information set rather than per world (no strategy fusion over its own moves). Hard's actions
are chosen by UCB1 among candidates (one per rank and size; medium's choice first); opponents act
per seat, each from its own determinized hand, by the opponent model with a little noise
(`OPP_NOISE`), and the tree branches on what they do. Below the tree the deal is played out by the
medium policy with noise (`PLAYOUT_NOISE`). The reward is the points the game's scoring gives hard's
place, plus a bonus for President (`place_reward`). Every step goes through the engine (`apply`,
`legal_actions`): the rules of turns, tricks, revolutions and exchanges live there only.

The work is fixed by the position (iterations = `WORK` / cards still in hands, clamped), never by a
clock, so a decision depends only on the observation and the seeded rng.
"""
from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Sequence

from ..game.cards import iter_cards
from ..game.engine import PASS, Action, GameState, Observation, Phase
from .base import register
from .medium import medium, medium_give, medium_move

#: Search work: iterations = WORK // cards still in all hands, between MIN_ITER and MAX_ITER.
WORK = 7_000
MIN_ITER, MAX_ITER = 50, 450
#: UCB1 exploration constant (rewards are scaled to 0..1).
UCB_C = 0.2
#: Probability that a playout step (resp. an opponent step in the tree) is a random candidate play
#: instead of the medium policy's.
PLAYOUT_NOISE = 0.02
OPP_NOISE = 0.0
#: Rewards: the points of the place under the game's scoring (`place_reward`), plus this for President.
PRESIDENT_BONUS = 3
#: Belief chain: a swap of two hidden cards that explains `d` more opponent decisions than before
#: is kept with probability exp(-BETA * d); one world is taken every THIN steps after BURN_IN.
BETA = 6.0
BURN_IN, THIN = 200, 2


def _deal_exchanges(obs: Observation):
    return [e for e in obs.exchanges if e[0] == obs.deal]


def unseen_cards(obs: Observation) -> tuple[int, list[int], list[int]]:
    """(cards still out and unknown, cards known to sit in each seat's hand, highest card index + 1
    each seat may hold) from the observation alone."""
    n = obs.players
    played = 0
    for deal, _seat, action in obs.history:
        if deal == obs.deal:
            played |= action
    known = [0] * n
    cap = [64] * n
    place = {s: i for i, s in enumerate(obs.last_ranking)}
    for _deal, giver, receiver, cards in _deal_exchanges(obs):
        if giver == obs.seat:
            known[receiver] |= cards & ~obs.hand & ~played
        elif receiver == obs.seat and place.get(giver, 0) > place.get(receiver, 0):
            # the giver had to give its best cards: it kept nothing better than the worst of them
            cap[giver] = min(cap[giver], (cards & -cards).bit_length() - 1)
    out = obs.config.deck & ~obs.hand & ~played  # the 52 cards and the table's jokers
    for k in known:
        out &= ~k
    return out, known, cap


def sample_hands(obs: Observation, rng: random.Random, unseen: int, known: list[int], cap: list[int]) -> list[int]:
    """Hidden hands of exactly the observed sizes, consistent with the counted cards."""
    n, sizes = obs.players, obs.hand_sizes
    hands = [0] * n
    hands[obs.seat] = obs.hand
    pool = list(iter_cards(unseen))
    rng.shuffle(pool)
    # capped seats first, from the cards under their cap
    order = sorted((s for s in range(n) if s != obs.seat and sizes[s]), key=lambda s: cap[s])
    for s in order:
        need = sizes[s] - known[s].bit_count()
        hands[s] = known[s]
        if need <= 0:
            continue
        take = [c for c in pool if c < cap[s]][:need] if cap[s] < 64 else pool[:need]
        if len(take) < need:  # inconsistent caps (partial hands): fill from anything left
            take += [c for c in pool if c not in take][:need - len(take)]
        chosen = set(take)
        pool = [c for c in pool if c not in chosen]
        for c in take:
            hands[s] |= 1 << c
    return hands


def opponent_decisions(obs: Observation, hands: Sequence[int]) -> list[list[tuple[int, bool, int, int]]]:
    """Per seat, its plays and passes of this deal as (trick before, order reversed before, action,
    the cards it played from then on): this deal's public history replayed through the engine from
    its start, each seat holding the cards of `hands` plus those it has played since."""
    played = [0] * obs.players
    hist = [(seat, a) for d, seat, a in obs.history if d == obs.deal]
    for seat, a in hist:
        played[seat] |= a
    g = GameState.from_observation(obs, [h | p for h, p in zip(hands, played)], deal_start=True)
    steps = []
    for seat, a in hist:
        steps.append((seat, g.trick, g.reversed, a))
        g.apply(a)
    out: list[list[tuple[int, bool, int, int]]] = [[] for _ in range(obs.players)]
    later = [0] * obs.players
    for seat, trick, rev, a in reversed(steps):
        later[seat] |= a
        if seat != obs.seat:
            out[seat].append((trick, rev, a, later[seat]))
    return out


#: The opponent model is a pure function of (hand, trick, order), called millions of times with
#: many repeats (about two in three within a decision): its answers are kept here, up to MEMO_SIZE.
_MEMO: dict[tuple, Action] = {}
MEMO_SIZE = 400_000


def _table(g: GameState | Observation) -> tuple | None:
    """None for the 1.1.0 plays, else the game's (Config, Ruleset) for the house-rule model."""
    return None if g.config.plain else (g.config, g.rules)


def model_play(hand: int, trick: int, rev: bool, table: tuple | None = None) -> Action:
    """The opponent model's play (the medium policy, under the game's own rules), memoized."""
    key = (hand, trick, rev) if table is None else (hand, trick, rev, table[0])
    a = _MEMO.get(key)
    if a is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        a = _MEMO[key] = medium_move(hand, trick, rev, table)
    return a


def _misfits(hand: int, decisions: list[tuple[int, bool, int, int]], limit: int = 1 << 30,
             table: tuple | None = None) -> int:
    """How many of these decisions the opponent model would not have made with `hand` (counting
    stops once it exceeds `limit`)."""
    play = model_play
    count = 0
    for trick, rev, a, later in decisions:
        if play(hand | later, trick, rev, table) != a:
            count += 1
            if count > limit:
                break
    return count


def sample_worlds(obs: Observation, rng: random.Random, count: int) -> list[list[int]]:
    """`count` hidden deals consistent with the counted cards, drawn by a Metropolis chain that
    favours deals explaining the opponents' decisions (see BETA)."""
    unseen, known, cap = unseen_cards(obs)
    hands = sample_hands(obs, rng, unseen, known, cap)
    decisions = opponent_decisions(obs, hands)
    seats = [s for s in range(obs.players) if s != obs.seat and hands[s] & ~known[s]]
    if len(seats) < 2 or not any(decisions[s] for s in seats):
        return [hands] + [sample_hands(obs, rng, unseen, known, cap) for _ in range(count - 1)]
    free = {s: list(iter_cards(hands[s] & ~known[s])) for s in seats}
    table = _table(obs)
    misfit = [_misfits(hands[s], decisions[s], table=table) if s in free else 0 for s in range(obs.players)]
    out = []
    log, rand, randrange = math.log, rng.random, rng.randrange
    steps = BURN_IN + count * THIN
    for step in range(1, steps + 1):
        a, b = rng.sample(seats, 2)
        la, lb = free[a], free[b]
        i, j = randrange(len(la)), randrange(len(lb))
        x, y = la[i], lb[j]
        if (x >> 2) != (y >> 2) and y < cap[a] and x < cap[b]:
            # Metropolis: keep the swap when it adds at most -log(u)/BETA misfits; counting stops
            # as soon as that budget is exceeded (the same rule, most proposals rejected early)
            budget = misfit[a] + misfit[b] + int(-log(1.0 - rand()) / BETA)
            ha = hands[a] ^ (1 << x) | (1 << y)
            ma = _misfits(ha, decisions[a], budget, table)
            if ma <= budget:
                hb = hands[b] ^ (1 << y) | (1 << x)
                mb = _misfits(hb, decisions[b], budget - ma, table)
                if ma + mb <= budget:
                    hands[a], hands[b], misfit[a], misfit[b] = ha, hb, ma, mb
                    la[i], lb[j] = y, x
        if step > BURN_IN and (step - BURN_IN) % THIN == 0:
            out.append(hands[:])
    return out


def play_candidates(legal: Sequence[Action], trick: int) -> list[Action]:
    """Legal plays that differ in rank or size (lowest suits kept); leading, whole ranks and singles."""
    seen: dict[tuple[int, int], Action] = {}
    for a in legal:
        key = ((a.bit_length() - 1) >> 2, a.bit_count())
        if key not in seen:
            seen[key] = a
    if trick:
        return list(seen.values())
    whole: dict[int, Action] = {}
    for (r, k), a in seen.items():
        if k >= whole.get(r, 0).bit_count():
            whole[r] = a
    out = []
    for (r, k), a in seen.items():
        if k == 1 or a == whole[r]:
            out.append(a)
    return out


def give_candidates(hand: int, k: int) -> list[Action]:
    """Gives made of its lowest cards (one per multiset of ranks): the sensible ones."""
    low = list(iter_cards(hand))[:k + 4]
    seen: dict[tuple[int, ...], Action] = {}
    for combo in combinations(low, k):
        key = tuple(c >> 2 for c in combo)
        if key not in seen:
            seen[key] = sum(1 << c for c in combo)
    return list(seen.values())



class _Node:
    """One of hard's information sets: its candidate actions and their visits and reward sums."""

    __slots__ = ("actions", "visits", "totals", "children", "n")

    def __init__(self, actions: list[Action]):
        self.actions = actions
        self.visits = [0] * len(actions)
        self.totals = [0.0] * len(actions)
        self.children: dict[tuple[int, tuple[Action, ...]], _Node] = {}
        self.n = 0

    def select(self) -> int:
        visits = self.visits
        if self.n < len(visits):
            return self.n  # each candidate once, in order (medium's choice first)
        log_n = math.log(self.n)
        totals = self.totals
        return max(range(len(visits)), key=lambda i: totals[i] / visits[i] + UCB_C * math.sqrt(log_n / visits[i]))


def play_options(g: GameState) -> list[Action]:
    """Hard's candidates in a position: medium's choice first, then one play per rank and size."""
    legal = g.legal_actions()
    mine = medium_move(g.hands[g.to_act], g.trick, g.reversed, _table(g))  # type: ignore[index]
    cands = play_candidates(legal, g.trick)
    return _medium_first(cands, mine) if mine in legal else cands


def _medium_first(cands: list[Action], mine: Action) -> list[Action]:
    if mine in cands:
        cands.remove(mine)
    cands.insert(0, mine)
    return cands


def give_options(hand: int, k: int) -> list[Action]:
    return _medium_first(give_candidates(hand, k), medium_give(hand, k))


def model_action(g: GameState, rng: random.Random, noise: float) -> Action:
    """The opponent model and playout policy: medium, and with probability `noise` a random candidate."""
    hand = g.hands[g.to_act]  # type: ignore[index]
    if g.phase == Phase.EXCHANGE:
        return medium_give(hand, g.legal_actions()[0].bit_count())
    if noise and rng.random() < noise:
        return rng.choice(play_candidates(g.legal_actions(), g.trick))
    return model_play(hand, g.trick, g.reversed, _table(g))


def _reward(g: GameState, me: int, rng: random.Random) -> float:
    """Play the deal out from `g` (policy with noise) and score `me`'s place, scaled to 0..1."""
    hands, apply = g.hands, g.apply
    noise = PLAYOUT_NOISE
    rand, get = rng.random, _MEMO.get
    if _table(g) is not None:  # house rules: the model reads the game's own rules (no int-key memo path)
        while g.phase == Phase.PLAY and hands[me]:
            apply(model_action(g, rng, 1.0 if noise and rand() < noise else 0.0))
    while g.phase == Phase.PLAY and hands[me]:
        if noise and rand() < noise:
            apply(model_action(g, rng, 1.0))
        else:
            key = (hands[g.to_act], g.trick, g.reversed)  # type: ignore[index]
            a = get(key)
            if a is None:
                a = model_play(*key)
            apply(a)
    return place_reward(g, g.finished.index(me) + 1)


def place_reward(g: GameState, place: int) -> float:
    """The search's reward for finishing at `place` (1 = President), scaled to 0..1: the points the
    game's scoring gives that place, plus PRESIDENT_BONUS for President. With `scoring: none` the
    places still rank the players, so it aims for them as `places` scores them."""
    n, scheme = g.n, g.config.scoring
    if scheme == "none":
        scheme = "places"
    points, top = g.rules.points(place, n, scheme), g.rules.points(1, n, scheme)
    return (points + (PRESIDENT_BONUS if place == 1 else 0)) / (top + PRESIDENT_BONUS)


def iterations(obs: Observation) -> int:
    return max(MIN_ITER, min(MAX_ITER, WORK // max(1, sum(obs.hand_sizes))))


def _iterate(g: GameState, root: _Node, me: int, rng: random.Random) -> None:
    """One ISMCTS iteration in the determinization `g`: UCB1 at hard's own nodes (each candidate
    once first), opponents by the model, a playout from the first new node, the reward backed up."""
    live = (Phase.EXCHANGE, Phase.PLAY)
    node, path = root, []
    i = root.select()
    while True:
        fresh = node.visits[i] == 0
        path.append((node, i))
        g.apply(node.actions[i])
        seen = []
        while g.phase in live and g.to_act != me and g.hands[me]:
            b = model_action(g, rng, OPP_NOISE)
            seen.append(b)
            g.apply(b)
        if fresh or g.phase not in live or not g.hands[me]:
            break
        key = (i, tuple(seen))
        child = node.children.get(key)
        if child is None:  # a new information set: its first candidate is tried, then a playout
            child = node.children[key] = _Node(play_options(g))
        node, i = child, child.select()
    reward = _reward(g, me, rng)
    for nd, i in path:
        nd.n += 1
        nd.visits[i] += 1
        nd.totals[i] += reward


def search(obs: Observation, rng: random.Random, root_actions: list[Action], iters: int) -> _Node:
    """`iters` ISMCTS iterations from hard's information set `obs`, each in a fresh world drawn
    from the belief chain; the root node."""
    root = _Node(root_actions)
    for hands in sample_worlds(obs, rng, iters):
        _iterate(GameState.from_observation(obs, hands), root, obs.seat, rng)
    return root


def best_action(root: _Node) -> Action:
    """The most visited candidate (ties: the earlier, so medium's choice)."""
    v = root.visits
    return root.actions[max(range(len(v)), key=lambda i: (v[i], -i))]


@register("hard")
def hard(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    if obs.phase == Phase.EXCHANGE:
        cands = give_options(obs.hand, legal[0].bit_count())
    else:
        cands = _medium_first(play_candidates(legal, obs.trick), medium(obs, legal, rng))
    if len(cands) == 1:
        return cands[0]
    return best_action(search(obs, rng, cands, iterations(obs)))


__all__ = ["hard", "unseen_cards", "sample_hands", "sample_worlds", "opponent_decisions", "search", "PASS"]
