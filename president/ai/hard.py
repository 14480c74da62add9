"""Hard: counts the cards still out and plans its way out of its hand (`ai.hard`).

Card counting (`unseen_cards`): the cards still out are the deck minus its own hand, minus every
card played publicly this deal; the cards it gave in this deal's exchange are known to sit in the
receiver's hand until played, and a player that had to give it their best cards holds nothing
better than the worst of them.

Belief (`sample_worlds`): hidden hands of exactly the observed sizes, consistent with those counts,
drawn by a Metropolis chain over swaps of hidden cards between opponents that favours the deals in
which the medium policy would have made the opponents' plays and passes of this deal (replayed from
the public history, `opponent_decisions`). Against medium players this is close to sampling the
exact posterior; against others it only tilts the sample.

Planning: determinized Monte-Carlo. For each candidate play (one per rank and size, medium's own
choice first so that it wins ties) it plays the deal out in every sampled world with the medium
policy at every seat, on plain ints (`playout`), the same worlds for every candidate, and scores the
points of its own final place. With few cards left it searches its own plays exhaustively in each
world instead (`solve`). The exchange is planned with rollouts in sampled worlds. The amount of work
is fixed by the position (not timed), so a decision depends only on the observation and the seeded
rng.
"""
from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Sequence

from ..cards import FULL_DECK, NUM_RANKS, iter_cards
from ..engine import PASS, Action, Config, GameState, Observation, Phase, Ruleset
from .base import LOW_SUITS, POP, register
from .medium import medium_give, medium_play

#: Rollouts per decision (worlds x candidates) and the fewest / most sampled worlds.
ROLLOUTS = 500
MIN_WORLDS, MAX_WORLDS = 20, 400

_RULES: Ruleset | None = None


def _rules() -> Ruleset:
    global _RULES
    if _RULES is None:
        _RULES = Ruleset.from_spec()
    return _RULES


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
    out = FULL_DECK & ~obs.hand & ~played
    for k in known:
        out &= ~k
    return out, known, cap


def sample_hands(obs: Observation, rng: random.Random, unseen: int, known: list[int], cap: list[int],
                 sizes: Sequence[int] | None = None, hand: int | None = None) -> list[int]:
    """Hidden hands of exactly the observed sizes, consistent with the counted cards."""
    n = obs.players
    sizes = obs.hand_sizes if sizes is None else sizes
    hands = [0] * n
    hands[obs.seat] = obs.hand if hand is None else hand
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


def world_state(obs: Observation, hands: list[int], to_act: int | None = None) -> GameState:
    """A GameState of the public position of `obs` with these hands, that ends with this deal."""
    g = GameState.__new__(GameState)
    g.rules = _rules()
    g.config = Config(obs.players, obs.revolution, obs.deal)
    g.n = obs.players
    g.hands = hands
    g.phase = Phase.PLAY
    g.deal = obs.deal
    g.to_act = obs.to_act if to_act is None else to_act
    g.reversed = obs.reversed
    g.trick = obs.trick
    g.trick_by = obs.trick_by
    g.passed = sum(1 << s for s in obs.passed)
    g.finished = list(obs.finished)
    g.scores = [0] * obs.players
    g.history, g.exchanges, g.pending = [], [], []
    g.last_ranking = list(obs.last_ranking)
    g.rng = None
    g._legal = None
    g.must = 0  # no first-lead card to play (option.first-lead.holder)
    return g


def rollout(g: GameState, me: int) -> int:
    """Play the deal out with the medium policy everywhere; the points of `me`'s place."""
    hands, apply, play = g.hands, g.apply, medium_play
    while g.phase == Phase.PLAY and hands[me]:
        apply(play(hands[g.to_act], g.trick, g.reversed))  # type: ignore[index]
    fin = g.finished
    place = fin.index(me) + 1 if me in fin else g.n
    return g.n - place + 1


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


def playout(hands: list[int], n: int, to_act: int, trick: int, by: int, passed: int, rev: bool, out: int,
            me: int, revolution: bool, first: int = -1) -> int:
    """Play the deal out from this position with the medium policy everywhere (the seat to act
    plays `first` if it is given), on plain ints (no GameState): the points of `me`'s place (n for
    President ... 1 for last). `hands` is modified."""
    a = first if first >= 0 else medium_play(hands[to_act], trick, rev)
    return _run(hands, n, to_act, trick, by, passed, rev, out, me, revolution, a, False)[0]  # type: ignore[return-value]


def _evaluate(obs: Observation, rng: random.Random, cands: list[Action], exchange: bool) -> Action:
    unseen, known, cap = unseen_cards(obs)
    me, n = obs.seat, obs.players
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, ROLLOUTS // len(cands)))
    totals = [0] * len(cands)
    if exchange:  # give back to the seat whose best cards it received; the last place then leads
        giver = next(g for _d, g, r, _c in _deal_exchanges(obs) if r == me)
        leader = obs.last_ranking[-1]
    for _ in range(worlds):
        base = sample_hands(obs, rng, unseen, known, cap)
        for i, action in enumerate(cands):
            hands = base[:]
            if exchange:
                hands[me] ^= action
                hands[giver] |= action
                g = world_state(obs, hands, to_act=leader)
            else:
                g = world_state(obs, hands)
                g.apply(action)
            totals[i] += rollout(g, me)
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


def _options(hand: int, trick: int, rev: bool) -> list[int]:
    """The plays the endgame search tries: following, pass and the lowest suits of each rank that
    beats the trick; leading, one card or all cards of each rank."""
    if trick:
        t = (trick.bit_length() - 1) >> 2
        k = trick.bit_count()
        out = [PASS]
        for r in (range(t - 1, -1, -1) if rev else range(t + 1, NUM_RANKS)):
            nib = hand >> (4 * r) & 0xF
            if POP[nib] >= k:
                out.append(LOW_SUITS[nib][k] << (4 * r))
        return out
    out = []
    for r in range(NUM_RANKS):
        nib = hand >> (4 * r) & 0xF
        if nib:
            out.append(LOW_SUITS[nib][1] << (4 * r))
            if POP[nib] > 1:
                out.append(nib << (4 * r))
    return out


def _advance(hands: list[int], n: int, s: int, trick: int, by: int, passed: int, rev: bool, out: int,
             me: int, revolution: bool, a: int):
    """Seat `s` plays `a`, then the medium policy plays every other seat until `me` is to act:
    (points, None) when `me`'s place is settled, else (None, state at `me`'s turn)."""
    return _run(hands, n, s, trick, by, passed, rev, out, me, revolution, a, True)


def _run(hands: list[int], n: int, s: int, trick: int, by: int, passed: int, rev: bool, out: int,
         me: int, revolution: bool, a: int, stop: bool):
    """The rules of a trick on plain ints (`GameState.apply` without the objects): seat `s` plays
    `a`, then the medium policy plays, `me` included unless `stop`. Returns (points of `me`'s place,
    None), or (None, (hands, trick, by, passed, rev, out)) when `stop` and `me` is to act."""
    play = medium_play
    quad = _rules().revolution_cards if revolution else 0
    while True:
        h = hands[s]
        if a:
            h ^= a
            hands[s] = h
            trick = a
            by = s
            if a.bit_count() == quad:
                rev = not rev
            if not h:
                out += 1
                if s == me:
                    return n - out + 1, None
                if out == n - 1:
                    return 1, None
        else:
            passed |= 1 << s
        # the next seat that may still act in this trick, or the trick ends
        t = s
        for _ in range(n):
            t = t + 1 if t + 1 < n else 0
            if t != by and hands[t] and not passed >> t & 1:
                break
        else:
            trick = 0
            passed = 0
            t = by
            while not hands[t]:  # lead.next-active
                t = t + 1 if t + 1 < n else 0
        s = t
        if stop and s == me:
            return None, (hands, trick, by, passed, rev, out)
        a = play(hands[s], trick, rev)


def solve(hands: list[int], n: int, trick: int, by: int, passed: int, rev: bool, out: int, me: int,
          revolution: bool, memo: dict) -> int:
    """The most points `me` (to act) can reach in this deal with every hand known, the others
    playing the medium policy: an exhaustive search over its own plays."""
    key = (tuple(hands), trick, by, passed, rev)
    v = memo.get(key)
    if v is not None:
        return v
    best = 0
    for a in _options(hands[me], trick, rev):
        pts, state = _advance(hands[:], n, me, trick, by, passed, rev, out, me, revolution, a)
        if pts is None:
            pts = solve(state[0], n, *state[1:], me, revolution, memo)
        if pts > best:
            best = pts
            if best == n:
                break
    memo[key] = best
    return best


#: Rollout work per decision, in cards dealt out: rollouts = ROLLOUT_CARDS / cards still in hands
#: (a rollout costs about one medium decision per card left), then worlds = rollouts / candidates.
ROLLOUT_CARDS = 24_000
#: Belief: sampled worlds are moved towards hands with which the medium policy would have made the
#: opponents' plays and passes of this deal: a swap of two hidden cards that explains `d` fewer of
#: them is always kept, one that explains `d` more is kept with probability exp(-BETA * d).
BETA = 6.0
BURN_IN, THIN = 300, 6
#: With at most this many cards in hand, each candidate is scored by an exhaustive search of its own
#: later plays in each of ENDGAME_WORLDS sampled worlds (the others playing medium) instead of a rollout.
ENDGAME_CARDS, ENDGAME_WORLDS = 4, 40
#: Candidates are scored by the points of their place, plus this for being President.
PRESIDENT_BONUS = 3


def opponent_decisions(obs: Observation) -> list[list[tuple[int, bool, int, int]]]:
    """Per seat, its plays and passes of this deal as (trick before, order reversed before, action,
    the cards it played from then on): replayed from the public history."""
    n, me = obs.players, obs.seat
    hist = [(seat, a) for d, seat, a in obs.history if d == obs.deal]
    sizes = list(obs.hand_sizes)
    for seat, a in hist:
        sizes[seat] += a.bit_count()
    quad = _rules().revolution_cards if obs.revolution else 0
    steps = []
    trick = by = passed = 0
    by = -1
    rev = False
    for seat, a in hist:
        steps.append((seat, trick, rev, a))
        if a:
            sizes[seat] -= a.bit_count()
            trick, by = a, seat
            if a.bit_count() == quad:
                rev = not rev
        else:
            passed |= 1 << seat
        if not any(t != by and sizes[t] and not passed >> t & 1 for t in range(n)):
            trick = passed = 0
    out: list[list[tuple[int, bool, int, int]]] = [[] for _ in range(n)]
    later = [0] * n
    for seat, trick, rev, a in reversed(steps):
        later[seat] |= a
        if seat != me:
            out[seat].append((trick, rev, a, later[seat]))
    return out


def _misfits(hand: int, decisions: list[tuple[int, bool, int, int]]) -> int:
    play = medium_play
    return sum(1 for trick, rev, a, later in decisions if play(hand | later, trick, rev) != a)


def sample_worlds(obs: Observation, rng: random.Random, count: int) -> list[list[int]]:
    """`count` hidden deals consistent with the counted cards, drawn by a Metropolis chain that
    favours deals explaining the opponents' decisions (see BETA)."""
    unseen, known, cap = unseen_cards(obs)
    decisions = opponent_decisions(obs)
    hands = sample_hands(obs, rng, unseen, known, cap)
    seats = [s for s in range(obs.players) if s != obs.seat and hands[s] & ~known[s]]
    if len(seats) < 2 or not any(decisions[s] for s in seats):
        return [hands] + [sample_hands(obs, rng, unseen, known, cap) for _ in range(count - 1)]
    free = {s: list(iter_cards(hands[s] & ~known[s])) for s in seats}
    misfit = [_misfits(hands[s], decisions[s]) if s in free else 0 for s in range(obs.players)]
    out = []
    exp, rand, randrange = math.exp, rng.random, rng.randrange
    steps = BURN_IN + count * THIN
    for step in range(1, steps + 1):
        a, b = rng.sample(seats, 2)
        la, lb = free[a], free[b]
        i, j = randrange(len(la)), randrange(len(lb))
        x, y = la[i], lb[j]
        if (x >> 2) != (y >> 2) and y < cap[a] and x < cap[b]:
            ha = hands[a] ^ (1 << x) | (1 << y)
            hb = hands[b] ^ (1 << y) | (1 << x)
            ma, mb = _misfits(ha, decisions[a]), _misfits(hb, decisions[b])
            d = ma + mb - misfit[a] - misfit[b]
            if d <= 0 or rand() < exp(-BETA * d):
                hands[a], hands[b], misfit[a], misfit[b] = ha, hb, ma, mb
                la[i], lb[j] = y, x
        if step > BURN_IN and (step - BURN_IN) % THIN == 0:
            out.append(hands[:])
    return out


def _evaluate_play(obs: Observation, rng: random.Random, cands: list[Action]) -> Action:
    me, n = obs.seat, obs.players
    cards = sum(obs.hand_sizes)
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, ROLLOUT_CARDS // max(cards, 1) // len(cands)))
    totals = [0] * len(cands)
    trick, by, rev = obs.trick, -1 if obs.trick_by is None else obs.trick_by, obs.reversed
    passed = sum(1 << s for s in obs.passed)
    out = len(obs.finished)
    revolution = obs.revolution
    endgame = obs.hand.bit_count() <= ENDGAME_CARDS
    if endgame:
        worlds = ENDGAME_WORLDS
    for base in sample_worlds(obs, rng, worlds):
        memo: dict = {}
        for i, action in enumerate(cands):
            if endgame:
                pts, state = _advance(base[:], n, me, trick, by, passed, rev, out, me, revolution, action)
                if pts is None:
                    pts = solve(state[0], n, *state[1:], me, revolution, memo)
            else:
                pts = playout(base[:], n, me, trick, by, passed, rev, out, me, revolution, action)
            totals[i] += pts + PRESIDENT_BONUS if pts == n else pts
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


@register("hard")
def hard(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    if obs.phase == Phase.EXCHANGE:
        k = legal[0].bit_count()
        cands = give_candidates(obs.hand, k)
        fallback = medium_give(obs.hand, k)
        if fallback not in cands:
            cands.insert(0, fallback)
        return _evaluate(obs, rng, cands, exchange=True) if len(cands) > 1 else cands[0]
    cands = play_candidates(legal, obs.trick)
    mine = medium_play(obs.hand, obs.trick, obs.reversed)  # ties go to medium's choice
    if mine in cands:
        cands.remove(mine)
    cands.insert(0, mine)
    if len(cands) == 1:
        return cands[0]
    return _evaluate_play(obs, rng, cands)


__all__ = ["hard", "unseen_cards", "sample_hands", "world_state", "rollout", "PASS"]
