"""The reference engine: Ruleset (frozen, from the spec), GameState (mutable), Observation.

Every rule the engine applies is read from the loaded spec (player range, the table options and
their values, revolution size, combination sizes, exchanges, scoring, titles); nothing is written
twice. A spec value or a table option the engine cannot play is refused, never ignored. Illegal
actions raise `IllegalAction` naming the violated clause id, and leave the state unchanged.

With the 1.1.0 options the hot path works on one-rank nibbles only; the house rules (equality,
runs, jokers, a leader's pass) go through `president.game.plays`.

Actions are ints: a mask of cards (see `president.game.cards`). In the play phase the empty mask
`PASS` is a pass; in the exchange phase a mask is the set of cards given back.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from math import comb
from typing import Any, Final, Sequence, TypeAlias

from . import plays as P
from .cards import (CARD_NAMES, DECK_SIZE, NUM_RANKS, RANK_MASKS, RANK_SYMBOLS, SUBSETS, CardMask, best_cards,
                    card_list, iter_cards, parse_cards)
from ..errors import IllegalAction, PresidentError
from .ruleset import Config, Ruleset
from ..spec import MAX_LEGAL_ACTIONS, place_index

Action: TypeAlias = int
PASS: Final[Action] = 0


class UnreachableState(PresidentError):
    """The game is in a state no play of the rules reaches (set up from an unchecked STATE): the
    reference refuses to go on rather than loop or guess. `game.position.game_from_state` refuses
    such states before they get here."""


class Phase(IntEnum):
    EXCHANGE = 0
    PLAY = 1
    DEAL_OVER = 2
    GAME_OVER = 3

    @property
    def wire(self) -> str:
        return ("exchange", "play", "deal_over", "game_over")[self]


@dataclass(frozen=True)
class Observation:
    """What one seat may see. AIs receive this and nothing else."""

    seat: int
    players: int
    revolution: bool
    deals: int
    phase: Phase
    deal: int
    to_act: int | None
    reversed: bool
    hand: CardMask
    hand_sizes: tuple[int, ...]
    trick: CardMask
    trick_by: int | None
    passed: tuple[int, ...]
    finished: tuple[int, ...]
    scores: tuple[int, ...]
    history: tuple[tuple[int, int, Action], ...]  # (deal, seat, action) of public plays and passes
    exchanges: tuple[tuple[int, int, int, CardMask], ...]  # (deal, giver, receiver, cards) this seat saw
    last_ranking: tuple[int, ...]
    legal: tuple[Action, ...]
    rules: Ruleset  # the game's own rules and table configuration: AIs that search step worlds with them
    #: the table's options (public): equality, sequences, jokers, first_lead, leader_may_pass, scoring...
    config: Config


class GameState:
    """A game in progress: one series of deals at one table. Mutable; `copy()` is cheap."""

    __slots__ = ("rules", "config", "n", "hands", "phase", "deal", "to_act", "reversed", "trick", "trick_by",
                 "passed", "finished", "scores", "history", "exchanges", "pending", "last_ranking", "rng",
                 "_legal", "must")

    def __init__(self, rules: Ruleset, config: Config, hands: Sequence[CardMask] | None = None,
                 seed: int | None = None):
        self.rules = rules
        self.config = config
        self.n = config.players
        self.rng = random.Random(seed) if seed is not None else None
        self.scores = [0] * self.n
        self.history: list[tuple[int, int, Action]] = []
        self.exchanges: list[tuple[int, int, int, CardMask]] = []
        self.last_ranking: list[int] = []
        self.deal = 0
        self._start_deal(self._hands_or_deal(hands))

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Ruleset | None = None, players: int = 4, revolution: bool | None = None,
            deals: int | None = None, hands: Sequence[CardMask | str | Sequence[str]] | None = None,
            seed: int | None = None, **options: Any) -> "GameState":
        rules = rules or Ruleset.from_spec()
        masks = None if hands is None else [h if isinstance(h, int) else parse_cards(h) for h in hands]
        return cls(rules, rules.config(players, revolution, deals, **options), masks, seed)

    @classmethod
    def from_observation(cls, obs: "Observation", hands: Sequence[CardMask], deal_start: bool = False) -> "GameState":
        """A game that `obs` cannot tell from the real one, with these hands for every seat (a
        determinization, for AIs that search): the position of `obs`, or with `deal_start` the start
        of this deal's play (the hands given are then those the seats held at that point), from
        which this deal's public history can be replayed with `apply`. No seeded deck."""
        g = cls.__new__(cls)
        g.rules, g.config, g.n, g.rng = obs.rules, obs.config, obs.players, None
        g.scores, g.last_ranking, g.deal = list(obs.scores), list(obs.last_ranking), obs.deal
        g.exchanges = list(obs.exchanges)
        g.hands = list(hands)
        g._reset_deal()
        holder = g.config.holder
        if deal_start:
            g.history = [h for h in obs.history if h[0] < obs.deal]
            first = next((seat for d, seat, _a in obs.history if d == obs.deal), obs.to_act)
            g.phase, g.to_act = Phase.PLAY, first
            if g.deal == 1 and holder is not None:  # option.first-lead.holder: the first play holds it
                g.must = 1 << holder
            return g
        g.history = list(obs.history)
        g.phase, g.to_act, g.reversed = obs.phase, obs.to_act, obs.reversed
        g.trick, g.trick_by, g.passed = obs.trick, obs.trick_by, sum(1 << s for s in obs.passed)
        g.finished = list(obs.finished)
        if g.deal == 1 and holder is not None and not any(d == 1 and a for d, _s, a in obs.history):
            g.must = 1 << holder
        if obs.phase == Phase.EXCHANGE:  # the gives still to come, from the seat to act on
            pending = [(r, gv, k, rule) for gv, r, k, rule in g._forced_gives() if k > 0]
            while pending and pending[0][0] != obs.to_act:
                pending.pop(0)
            g.pending = pending
        return g

    def copy(self) -> "GameState":
        new = GameState.__new__(GameState)
        new.rules, new.config, new.n = self.rules, self.config, self.n
        new.hands = self.hands[:]
        new.phase, new.deal, new.to_act, new.reversed = self.phase, self.deal, self.to_act, self.reversed
        new.trick, new.trick_by, new.passed = self.trick, self.trick_by, self.passed
        new.finished, new.scores = self.finished[:], self.scores[:]
        new.history, new.exchanges = self.history[:], self.exchanges[:]
        new.pending, new.last_ranking = self.pending[:], self.last_ranking[:]
        new.rng = None
        if self.rng is not None:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        new._legal = self._legal
        new.must = self.must
        return new

    def deal_cards(self) -> list[CardMask]:
        """The chance step: shuffle the deck with the game's seeded rng and deal one card at a
        time from seat 0, so lower seats get the extra cards (`setup.dealing`)."""
        if self.rng is None:
            raise IllegalAction("no_seed", "setup.dealing", "this game has no seed: give the hands explicitly")
        deck = list(range(DECK_SIZE + self.config.jokers))  # jokers X1, X2 after the 52 cards
        self.rng.shuffle(deck)
        hands = [0] * self.n
        for i, card in enumerate(deck):
            hands[i % self.n] |= 1 << card
        return hands

    def _hands_or_deal(self, hands: Sequence[CardMask] | None) -> list[CardMask]:
        if hands is None:
            return self.deal_cards()
        hands = list(hands)
        if len(hands) != self.n:
            raise IllegalAction("bad_hands", "setup.partial-hands", f"{self.n} players need {self.n} hands, got {len(hands)}")
        seen = 0
        deck = self.config.deck
        for seat, h in enumerate(hands):
            if h == 0:
                raise IllegalAction("bad_hands", "setup.partial-hands", f"seat {seat} has an empty hand")
            if seen & h:
                raise IllegalAction("bad_hands", "setup.partial-hands",
                                    f"card {card_list(seen & h)[0]} is dealt twice")
            if h & ~deck:
                rule = self.rules.option("jokers").value_clause(self.config.jokers)
                raise IllegalAction("bad_hands", rule, f"card {card_list(h & ~deck)[0]} is not in a deck with "
                                    f"{self.config.jokers} joker(s)")
            seen |= h
        holder = self.config.holder
        if self.deal == 0 and holder is not None and not seen >> holder & 1:
            raise IllegalAction("bad_hands", "option.first-lead.holder",
                                f"nobody holds {CARD_NAMES[holder]}, whose holder leads the first deal")
        return hands

    def _reset_deal(self) -> None:
        self.reversed = False  # revolution.order: the normal order returns at each new deal
        self.trick = 0
        self.trick_by: int | None = None
        self.passed = 0
        self.finished: list[int] = []
        # (chooser, receiver, cards, clause) still to give back
        self.pending: list[tuple[int, int, int, str]] = []
        self._legal: list[Action] | None = None
        self.must = 0  # a card the next play must contain (option.first-lead.holder)

    def _forced_gives(self) -> list[tuple[int, int, int, str]]:
        """(giver, receiver, cards, clause) of the exchanges the last ranking imposes, in order."""
        ranking, n = self.last_ranking, self.n
        out = []
        for giver_place, receiver_place, k, min_players in self.rules.exchanges:
            if n < min_players:
                continue
            rule = "exchange.scum" if giver_place == -1 else "exchange.vice"
            out.append((ranking[place_index(giver_place, n)], ranking[place_index(receiver_place, n)], k, rule))
        return out

    def _start_deal(self, hands: list[CardMask]) -> None:
        self.hands = hands
        self.deal += 1
        self._reset_deal()
        if self.deal == 1 or not self.last_ranking:
            self.phase = Phase.PLAY
            holder = self.config.holder
            if holder is None:
                self.to_act: int | None = 0  # setup.first-lead
            else:  # option.first-lead.holder
                self.must = 1 << holder
                holding = [s for s in range(self.n) if hands[s] & self.must]
                if not holding:
                    raise IllegalAction("bad_hands", "option.first-lead.holder",
                                        f"nobody holds {CARD_NAMES[holder]}, whose holder leads the first deal")
                self.to_act = holding[0]
            return
        for giver, receiver, k, rule in self._forced_gives():
            given = best_cards(self.hands[giver], k)  # exchange.best
            self.hands[giver] ^= given
            self.hands[receiver] |= given
            self.exchanges.append((self.deal, giver, receiver, given))
            self.pending.append((receiver, giver, given.bit_count(), rule))
        self.pending = [p for p in self.pending if p[2] > 0]
        if self.pending:
            self.phase = Phase.EXCHANGE
            self.to_act = self.pending[0][0]  # exchange.order: the President chooses first
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        self.phase = Phase.PLAY
        self.to_act = self.last_ranking[-1]  # the previous deal's last place leads

    def start_next_deal(self, hands: Sequence[CardMask] | None = None) -> None:
        """Start the next deal of the series with these hands (or a seeded deal); the exchange follows."""
        if self.phase != Phase.DEAL_OVER:
            raise IllegalAction("bad_phase", "game.end",
                                "a new deal starts only when the previous one is over and the series is not")
        self._start_deal(self._hands_or_deal(hands))

    # --- queries ------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every distinct legal action of the seat to act, in a fixed order: pass first, then plays
        weakest first in the current order, fewer cards first, lowest suits first."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self) -> list[Action]:
        if self.phase == Phase.EXCHANGE:
            chooser, _, k, _ = self.pending[0]
            cards = list(iter_cards(self.hands[chooser]))
            if comb(len(cards), k) > MAX_LEGAL_ACTIONS:  # never for a spec that loads; a position may ask
                raise IllegalAction("too_many_actions", "exchange.order",
                                    f"choosing {k} of {len(cards)} cards is {comb(len(cards), k):,} actions, more "
                                    f"than the {MAX_LEGAL_ACTIONS:,} `legal` ever lists")
            return [sum(1 << c for c in combo) for combo in combinations(cards, k)]
        if self.phase != Phase.PLAY:
            return []
        hand = self.hands[self.to_act]  # type: ignore[index]
        trick = self.trick
        if not self.config.plain or self.must:
            return self._generate_house(hand, trick)
        if trick:
            out: list[Action] = [PASS]
            k = trick.bit_count()
            t = (trick.bit_length() - 1) >> 2
            if self.reversed:
                for r in range(t - 1, -1, -1):
                    nib = (hand >> (r << 2)) & 0xF
                    if nib:
                        out += SUBSETS[r][nib][k]
            else:
                r = t + 1
                h = hand >> (r << 2)
                while h:
                    nib = h & 0xF
                    if nib:
                        out += SUBSETS[r][nib][k]
                    h >>= 4
                    r += 1
            return out
        out = []
        lead = self.rules.lead_table
        if self.reversed:
            for r in range(NUM_RANKS - 1, -1, -1):
                nib = (hand >> (r << 2)) & 0xF
                if nib:
                    out += lead[r][nib]
        else:
            r = 0
            h = hand
            while h:
                nib = h & 0xF
                if nib:
                    out += lead[r][nib]
                h >>= 4
                r += 1
        return out

    def _generate_house(self, hand: CardMask, trick: CardMask) -> list[Action]:
        c, r = self.config, self.rules
        out = P.plays(hand, trick, self.reversed, c.equality, c.sequences, r.min_cards, r.max_cards, r.min_run)
        if self.must:
            return [a for a in out if a & self.must]
        if trick or self._leader_may_pass():
            out.insert(0, PASS)
        return out

    def _leader_may_pass(self) -> bool:
        """option.leader-may-pass.on: the leader of an empty trick may pass unless every other
        active player has passed it already (then someone has to play)."""
        if not self.config.leader_may_pass or self.must:
            return False
        seat, passed, hands = self.to_act, self.passed, self.hands
        return any(hands[s] and not passed >> s & 1 for s in range(self.n) if s != seat)

    def check(self, seat: int | None, action: Action, give: bool = False) -> IllegalAction | None:
        """Why `seat` may not take `action` now, or None if it may. `give` marks an exchange action."""
        phase = self.phase
        if phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            return IllegalAction("bad_phase", "game.end" if phase == Phase.GAME_OVER else "deal.end",
                                 "the deal is over: no one acts until the next deal starts")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return IllegalAction("bad_seat", "turn.order", f"no seat {seat!r} at a table of {self.n}")
        if phase == Phase.EXCHANGE:
            chooser, _, k, rule = self.pending[0]
            if not give:
                return IllegalAction("bad_phase", "exchange.order", "the exchange comes first: the seat to act must give cards")
            if seat != chooser:
                return IllegalAction("not_your_turn", "exchange.order", f"seat {chooser} chooses first, not seat {seat}")
            if action & ~self.hands[seat]:
                return IllegalAction("not_in_hand", "play.own-cards",
                                     f"seat {seat} does not hold {' '.join(card_list(action & ~self.hands[seat]))}")
            if action.bit_count() != k:
                return IllegalAction("wrong_count", rule, f"seat {seat} must give back exactly {k} card(s)")
            return None
        if give:
            return IllegalAction("bad_phase", "exchange.order", "there is no exchange in progress")
        if seat != self.to_act:
            if not self.hands[seat]:
                return IllegalAction("not_your_turn", "flow.out", f"seat {seat} has finished this deal")
            if self.passed >> seat & 1:
                return IllegalAction("not_your_turn", "pass.final", f"seat {seat} passed in this trick")
            return IllegalAction("not_your_turn", "turn.order", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        trick = self.trick
        if action == PASS:
            if self.must:
                return IllegalAction("must_play", "option.first-lead.holder",
                                     f"the first play must contain {card_list(self.must)[0]}")
            if not trick and not self._leader_may_pass():
                if self.config.leader_may_pass:
                    return IllegalAction("must_play", "option.leader-may-pass.on",
                                         "every other active player has passed this empty trick: the leader must play")
                return IllegalAction("must_play", "lead.must-play", "the leader of an empty trick must play")
            return None
        hand = self.hands[seat]
        if action & ~hand:
            return IllegalAction("not_in_hand", "play.own-cards",
                                 f"seat {seat} does not hold {' '.join(card_list(action & ~hand))}")
        if self.must and not action & self.must:
            return IllegalAction("must_contain", "option.first-lead.holder",
                                 f"the first play must contain {card_list(self.must)[0]}")
        if not self.config.plain:
            return self._check_house(action, trick)
        r = (action.bit_length() - 1) >> 2
        if action & RANK_MASKS[r] != action:
            return IllegalAction("mixed_ranks", "play.same-rank", "the cards of a play must have the same rank")
        k = action.bit_count()
        if not trick:
            if not self.rules.min_cards <= k <= self.rules.max_cards:
                return IllegalAction("wrong_count", "flow.lead",
                                     f"a play has {self.rules.min_cards} to {self.rules.max_cards} cards")
            return None
        if k != trick.bit_count():
            return IllegalAction("wrong_count", "play.count-matches",
                                 f"the trick holds {trick.bit_count()} card(s); play as many")
        t = (trick.bit_length() - 1) >> 2
        if (r >= t) if self.reversed else (r <= t):
            rule = "play.strictly-higher"
            return IllegalAction("not_higher", rule, f"{RANK_SYMBOLS[r]} does not beat {RANK_SYMBOLS[t]} in the "
                                 f"{'reversed' if self.reversed else 'normal'} order")
        return None

    def _check_house(self, action: Action, trick: CardMask) -> IllegalAction | None:
        c = self.config
        a = P.combo(action, c.sequences, self.rules.min_run)
        if a is None:
            return IllegalAction("mixed_ranks", P.why_not_combo(action, c.sequences),
                                 "the cards form no combination: one rank (jokers standing in), a run of one suit"
                                 " or a lone joker")
        if a[0] == P.SET and not self.rules.min_cards <= a[1] <= self.rules.max_cards:
            return IllegalAction("wrong_count", "flow.lead" if not trick else "play.count-matches",
                                 f"a play has {self.rules.min_cards} to {self.rules.max_cards} cards of one rank")
        if not trick:
            return None
        t = P.combo(trick, c.sequences, self.rules.min_run)
        if t is None:  # a trick of another table's house rule (a run, set up from a STATE): only a pass follows it
            return IllegalAction("wrong_kind", P.why_not_combo(trick, c.sequences),
                                 f"{' '.join(card_list(trick))} is no combination of this table: nothing follows it")
        if t[0] == P.LONE:
            return IllegalAction("not_higher", "option.jokers.wild", "nothing beats a lone joker")
        if a[0] == P.LONE:
            if t[1] != 1:
                return IllegalAction("wrong_count", "play.count-matches", "a lone joker beats a single card only")
            return None
        if a[0] != t[0]:
            return IllegalAction("wrong_kind", "option.sequences.on", "a run follows a run, a set follows a set")
        if a[1] != t[1]:
            return IllegalAction("wrong_count", "play.count-matches",
                                 f"the trick holds {t[1]} card(s); play as many")
        if not P.beats(a, t, self.reversed, c.equality):
            return IllegalAction("not_higher", "option.equality.on" if c.equality else "play.strictly-higher",
                                 f"{RANK_SYMBOLS[a[2]]} does not beat {RANK_SYMBOLS[t[2]]} in the "
                                 f"{'reversed' if self.reversed else 'normal'} order")
        return None

    # --- actions ------------------------------------------------------------------------
    def act(self, seat: int, action: Action, give: bool = False) -> None:
        """Apply an action after checking it; raise IllegalAction (state unchanged) if refused."""
        err = self.check(seat, action, give)
        if err is not None:
            raise err
        if self.phase == Phase.EXCHANGE:
            self._give(action)
        else:
            self.apply(action)

    def _give(self, action: Action) -> None:
        chooser, receiver, _, _ = self.pending.pop(0)
        self.hands[chooser] ^= action
        self.hands[receiver] |= action
        self.exchanges.append((self.deal, chooser, receiver, action))
        self._legal = None
        if self.pending:
            self.to_act = self.pending[0][0]
        else:
            self._begin_play()

    def apply(self, action: Action) -> None:
        """Apply a legal action of the seat to act without checking it (hot path for search)."""
        if self.phase == Phase.EXCHANGE:
            self._give(action)
            return
        seat: int = self.to_act  # type: ignore[assignment]
        n = self.n
        hands = self.hands
        self._legal = None
        self.history.append((self.deal, seat, action))
        skip = False
        if action == PASS:
            self.passed |= 1 << seat
        else:
            config = self.config
            if config.plain:
                if config.revolution and action.bit_count() == self.rules.revolution_cards:
                    self.reversed = not self.reversed  # revolution.quad-reverses / revolution.again
                if self.must:
                    self.must = 0
            else:
                a = P.combo(action, config.sequences, self.rules.min_run)
                if config.equality and self.trick:  # option.equality.on: an equal play skips the next seat
                    t = P.combo(self.trick, config.sequences, self.rules.min_run)
                    skip = t is not None and P.is_equal(a, t)  # type: ignore[arg-type]
                if config.revolution and a[0] == P.SET and a[1] == self.rules.revolution_cards:  # type: ignore
                    self.reversed = not self.reversed  # a quad, jokers standing in (option.jokers.wild)
                self.must = 0
            hands[seat] ^= action
            self.trick = action
            self.trick_by = seat
            if not hands[seat]:
                self.finished.append(seat)
                if len(self.finished) == n - 1:
                    self._end_deal()
                    return
        # trick.end: every active player other than the trick's last player has passed
        by = self.trick_by
        passed = self.passed
        s = seat
        for _ in range(n):
            s = s + 1 if s + 1 < n else 0
            if hands[s] and not passed >> s & 1 and s != by:
                if skip:  # the skipped seat loses this turn but has not passed
                    skip = False
                    continue
                self.to_act = s
                return
        # nobody else may act: the trick ends
        self.trick = 0
        self.passed = 0
        if by is None:  # pragma: no cover - a leader's pass never ends an empty trick
            raise AssertionError("an empty trick ended")
        if hands[by]:
            self.to_act = by
        else:  # lead.next-active
            s = by
            for _ in range(n):
                s = s + 1 if s + 1 < n else 0
                if hands[s]:
                    self.to_act = s
                    return
            raise UnreachableState(f"lead.next-active: no seat holds cards after seat {by}'s trick")

    def _end_deal(self) -> None:
        n = self.n
        last = next((s for s in range(n) if self.hands[s]), None)
        if last is None:
            raise UnreachableState("deal.end: the deal ends with no seat holding cards")
        self.finished.append(last)
        for place, seat in enumerate(self.finished, start=1):
            self.scores[seat] += self.rules.points(place, n, self.config.scoring)
        self.last_ranking = self.finished[:]
        self.trick = 0
        self.trick_by = None
        self.passed = 0
        self.to_act = None
        self.phase = Phase.GAME_OVER if self.deal >= self.config.deals else Phase.DEAL_OVER

    # --- views --------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        legal = tuple(self.legal_actions()) if seat == self.to_act else ()
        return Observation(
            seat=seat, players=self.n, revolution=self.config.revolution, deals=self.config.deals,
            phase=self.phase, deal=self.deal, to_act=self.to_act, reversed=self.reversed,
            hand=self.hands[seat], hand_sizes=tuple(h.bit_count() for h in self.hands), trick=self.trick,
            trick_by=self.trick_by, passed=tuple(s for s in range(self.n) if self.passed >> s & 1),
            finished=tuple(self.finished), scores=tuple(self.scores), history=tuple(self.history),
            exchanges=tuple(e for e in self.exchanges if seat in (e[1], e[2])),
            last_ranking=tuple(self.last_ranking), legal=legal, rules=self.rules, config=self.config)

    def to_wire(self) -> dict:
        """The protocol's STATE object."""
        return {
            "phase": self.phase.wire,
            "deal": self.deal,
            "to_act": self.to_act,
            "order": "reversed" if self.reversed else "normal",
            "trick": {"cards": card_list(self.trick), "by": self.trick_by} if self.trick else None,
            "passed": [s for s in range(self.n) if self.passed >> s & 1],
            "hands": [card_list(h) for h in self.hands],
            "finished": list(self.finished),
            "scores": list(self.scores),
        }

    def __repr__(self) -> str:
        hands = ", ".join(repr(" ".join(card_list(h))) for h in self.hands)
        return (f"<GameState deal={self.deal} phase={self.phase.wire} to_act={self.to_act} "
                f"order={'reversed' if self.reversed else 'normal'} hands=[{hands}]>")


def action_text(action: Action, give: bool = False) -> str:
    """`pass`, `play 3C 3D` or `give 2S AH`."""
    if action == PASS and not give:
        return "pass"
    return ("give " if give else "play ") + " ".join(card_list(action))


__all__ = ["PASS", "Action", "CARD_NAMES", "Config", "GameState", "Observation", "Phase", "Ruleset", "UnreachableState",
           "action_text"]
