#!/usr/bin/env python3
"""shuffle.py: a President engine with a seeded shuffle of its own, written from the published
rule sheets (it imports nothing from `president`), serving engine protocol v1 on stdin/stdout.

    python tests/engines/shuffle.py              # deals from seat 0, as setup.dealing requires
    python tests/engines/shuffle.py from-seat-1  # deals from seat 1: seat 1 gets the first extra card

What it plays: CardVerse 1.1.0. It declares `seed`: given a seed, it shuffles the 52 cards with
its own generator (a 64-bit xorshift* seeded from the seed, then a Fisher-Yates shuffle), so its
seeded deals differ card by card from any other engine's; that is the engine's own business, not
a rule. It deals one card at a time from seat 0, so lower seats get the extra cards (clause
setup.dealing). A series without hands in `deal` goes on with the same generator.

With `from-seat-1` the one difference from 1.1.0 is that the dealing starts at seat 1 and goes
round: seat 1 (then 2, ...) gets the extra cards, and seat 0 one card fewer when the deck does
not split evenly (3 players: 17, 18, 17; 5 players: 10, 11, 11, 10, 10). Seat 0 still leads.

Representation: a card is its text ("10H"); a hand is a Python set of texts; strength is looked
up in a dict.
"""
from __future__ import annotations

import itertools
import json
import sys

RANK_TEXT = "3 4 5 6 7 8 9 10 V D R A 2".split()
SUIT_TEXT = "CDHS"
DECK = [r + s for r in RANK_TEXT for s in SUIT_TEXT]
POWER = {c: i for i, c in enumerate(DECK)}  # normal order, suits C < D < H < S
KNOWN = ("players", "revolution", "deals", "equality", "sequences", "jokers", "first_lead", "leader_may_pass",
         "scoring")
ONLY_DEFAULT = {"equality": (False, "option.equality.on"), "sequences": (False, "option.sequences.on"),
                "jokers": (0, "option.jokers.two"), "first_lead": ("seat0", "option.first-lead.holder"),
                "leader_may_pass": (False, "option.leader-may-pass.on"), "scoring": ("places", "option.scoring.none")}
MASK = (1 << 64) - 1


def rank(card: str) -> int:
    return POWER[card] // 4


def ordered(cards) -> list[str]:
    return sorted(cards, key=POWER.__getitem__)


class Refusal(Exception):
    def __init__(self, code: str, rule: str | None, text: str):
        super().__init__(text)
        self.code, self.rule, self.text = code, rule, text


class XorShift:
    """xorshift64* (Vigna): the engine's own generator."""

    def __init__(self, seed: int):
        self.x = (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK or 1

    def next(self) -> int:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.x = x
        return (x * 0x2545F4914F6CDD1D) & MASK

    def below(self, n: int) -> int:
        return self.next() % n


class Deal:
    """One table: the series, the current deal, and the generator when seeded."""

    def __init__(self, players: int, revolution: bool, deals: int, seed: int | None, first_seat: int):
        self.n, self.revolution, self.deals = players, revolution, deals
        self.gen = XorShift(seed) if seed is not None else None
        self.first_seat = first_seat
        self.scores = [0] * players
        self.number = 0
        self.previous: list[int] | None = None

    def shuffle_and_deal(self) -> list[set[str]]:
        if self.gen is None:
            raise Refusal("missing_field", "setup.dealing", "no seed was given: send the hands")
        deck = list(DECK)
        for i in range(len(deck) - 1, 0, -1):
            j = self.gen.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands: list[set[str]] = [set() for _ in range(self.n)]
        for i, card in enumerate(deck):
            hands[(self.first_seat + i) % self.n].add(card)
        return hands

    def start(self, hands: list[set[str]]) -> None:
        self.number += 1
        self.hands = hands
        self.reversed = False
        self.table: tuple[list[str], int] | None = None  # (cards, by)
        self.passes: list[int] = []
        self.finished: list[int] = []
        self.gifts: list[tuple[int, int, int, str]] = []  # (giver back, receiver, count, clause)
        if self.previous is None:
            self.phase, self.to_act = "play", 0
            return
        rank_list = self.previous
        plan = [(rank_list[-1], rank_list[0], 2, "exchange.scum")]
        if self.n >= 4:
            plan.append((rank_list[-2], rank_list[1], 1, "exchange.vice"))
        for poor, rich, k, clause in plan:
            for card in ordered(self.hands[poor])[len(self.hands[poor]) - k:]:
                self.hands[poor].discard(card)
                self.hands[rich].add(card)
            self.gifts.append((rich, poor, k, clause))
        self.phase, self.to_act = "exchange", self.gifts[0][0]

    def beats(self, cards: list[str]) -> bool:
        assert self.table is not None
        mine, theirs = rank(cards[0]), rank(self.table[0][0])
        return mine < theirs if self.reversed else mine > theirs

    def legal(self) -> list[dict]:
        if self.phase == "exchange":
            giver, _, k, _ = self.gifts[0]
            return [{"type": "give", "cards": list(c)} for c in itertools.combinations(ordered(self.hands[giver]), k)]
        if self.phase != "play":
            return []
        out: list[dict] = [{"type": "pass"}] if self.table else []
        for _, same in itertools.groupby(ordered(self.hands[self.to_act]), key=rank):
            same = list(same)
            counts = [len(self.table[0])] if self.table else range(1, len(same) + 1)
            for k in counts:
                for combo in itertools.combinations(same, k):
                    if self.table is None or self.beats(list(combo)):
                        out.append({"type": "play", "cards": list(combo)})
        return out

    def act(self, seat, action) -> None:
        if self.phase in ("deal_over", "game_over"):
            raise Refusal("bad_phase", "game.end" if self.phase == "game_over" else "deal.end", "nothing to play now")
        if type(seat) is not int:
            raise Refusal("bad_field", None, "player is a seat number")
        if not 0 <= seat < self.n:
            raise Refusal("bad_seat", "turn.order", f"there is no seat {seat}")
        if not isinstance(action, dict) or action.get("type") not in ("play", "pass", "give"):
            raise Refusal("bad_field", None, "an action is play, pass or give")
        kind = action["type"]
        cards = [] if kind == "pass" else card_list(action.get("cards"))
        if self.phase == "exchange":
            giver, receiver, k, clause = self.gifts[0]
            if kind != "give":
                raise Refusal("bad_phase", "exchange.order", "the exchange is not over")
            if seat != giver:
                raise Refusal("not_your_turn", "exchange.order", f"seat {giver} gives back now")
            self.holds(seat, cards)
            if len(cards) != k:
                raise Refusal("wrong_count", clause, f"give back exactly {k}")
            self.hands[seat] -= set(cards)
            self.hands[receiver] |= set(cards)
            self.gifts.pop(0)
            if self.gifts:
                self.to_act = self.gifts[0][0]
            else:
                assert self.previous is not None
                self.phase, self.to_act = "play", self.previous[-1]
            return
        if kind == "give":
            raise Refusal("bad_phase", "exchange.order", "there is no exchange now")
        if seat != self.to_act:
            clause = "flow.out" if not self.hands[seat] else "pass.final" if seat in self.passes else "turn.order"
            raise Refusal("not_your_turn", clause, f"it is seat {self.to_act}'s turn")
        if kind == "pass":
            if self.table is None:
                raise Refusal("must_play", "lead.must-play", "the leader plays")
            self.passes.append(seat)
            self.advance(seat)
            return
        self.holds(seat, cards)
        if not 1 <= len(cards) <= 4:
            raise Refusal("wrong_count", "flow.lead", "1 to 4 cards")
        if len({rank(c) for c in cards}) != 1:
            raise Refusal("mixed_ranks", "play.same-rank", "all cards of one rank")
        if self.table is not None:
            if len(cards) != len(self.table[0]):
                raise Refusal("wrong_count", "play.count-matches", f"{len(self.table[0])} card(s) needed")
            if not self.beats(cards):
                raise Refusal("not_higher", "play.strictly-higher", "not strictly higher")
        self.hands[seat] -= set(cards)
        self.table = (ordered(cards), seat)
        if self.revolution and len(cards) == 4:
            self.reversed = not self.reversed
        if not self.hands[seat]:
            self.finished.append(seat)
            holding = [s for s in range(self.n) if self.hands[s]]
            if len(holding) == 1:
                self.end(holding[0])
                return
        self.advance(seat)

    def holds(self, seat: int, cards: list[str]) -> None:
        if len(set(cards)) != len(cards) or not set(cards) <= self.hands[seat]:
            raise Refusal("not_in_hand", "play.own-cards", "not in your hand")

    def advance(self, seat: int) -> None:
        by = self.table[1] if self.table else -1
        for d in range(1, self.n + 1):
            s = (seat + d) % self.n
            if s != by and self.hands[s] and s not in self.passes:
                self.to_act = s
                return
        self.table, self.passes = None, []
        s = by
        while not self.hands[s]:
            s = (s + 1) % self.n
        self.to_act = s

    def end(self, last: int) -> None:
        self.finished.append(last)
        for place, s in enumerate(self.finished, start=1):
            self.scores[s] += self.n - place + 1
        self.previous = list(self.finished)
        self.to_act, self.table, self.passes, self.reversed = None, None, [], False
        self.phase = "game_over" if self.number >= self.deals else "deal_over"

    def state(self) -> dict:
        return {"phase": self.phase, "deal": self.number, "to_act": self.to_act,
                "order": "reversed" if self.reversed else "normal",
                "trick": None if self.table is None else {"cards": self.table[0], "by": self.table[1]},
                "passed": sorted(self.passes), "hands": [ordered(h) for h in self.hands],
                "finished": list(self.finished), "scores": list(self.scores)}


def card_list(value) -> list[str]:
    if not isinstance(value, list):
        raise Refusal("bad_field", None, "cards is a list")
    for c in value:
        if c in ("X1", "X2"):
            raise Refusal("bad_card", "setup.no-jokers-sequences", "no jokers in this deck")
        if not isinstance(c, str) or c not in POWER:
            raise Refusal("bad_card", None, f"{c!r} is not a card")
    return list(value)


def given_hands(value, n: int) -> list[set[str]]:
    if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
        raise Refusal("bad_field", None, "hands is a list of lists")
    if len(value) != n:
        raise Refusal("bad_hands", "setup.partial-hands", f"one hand for each of the {n} seats")
    if any(c in ("X1", "X2") for h in value for c in h):
        raise Refusal("bad_hands", "setup.no-jokers-sequences", "no jokers in this deck")
    hands = [card_list(h) for h in value]
    if any(not h for h in hands):
        raise Refusal("bad_hands", "setup.partial-hands", "a hand is empty")
    flat = [c for h in hands for c in h]
    if len(flat) != len(set(flat)):
        raise Refusal("bad_hands", "setup.partial-hands", "a card appears twice")
    return [set(h) for h in hands]


class Engine:
    def __init__(self, first_seat: int):
        self.first_seat = first_seat
        self.game: Deal | None = None

    def hello(self) -> dict:
        name = "shuffle-py" + ("-from-seat-1" if self.first_seat else "")
        return {"ok": True, "protocol": 1, "name": name, "version": "1.0", "variant": "cardverse-president",
                "spec_version": "1.1.0",
                "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True, "seed": True}}

    def new_game(self, req: dict) -> dict:
        cfg = req.get("config", {})
        if not isinstance(cfg, dict):
            raise Refusal("bad_field", None, "config is an object")
        for key in cfg:
            if key not in KNOWN:
                raise Refusal("unknown_option", None, f"unknown option {key!r}; known: {', '.join(KNOWN)}")
        n = cfg.get("players")
        if type(n) is not int or not 3 <= n <= 6:
            raise Refusal("bad_config", "setup.players", "3 to 6 players")
        deals = cfg.get("deals", 1)
        if type(deals) is not int or deals < 1:
            raise Refusal("bad_config", "game.end", "deals >= 1")
        revolution = cfg.get("revolution", True)
        if type(revolution) is not bool:
            raise Refusal("bad_config", "revolution.option-off", "revolution is a boolean")
        for key, (value, clause) in ONLY_DEFAULT.items():
            if key in cfg and (cfg[key] != value or type(cfg[key]) is not type(value)):
                raise Refusal("bad_config", clause, f"{key}={cfg[key]!r} is not played here")
        seed = req.get("seed")
        if "hands" in req:
            hands = given_hands(req["hands"], n)
            game = Deal(n, revolution, deals, seed if type(seed) is int else None, self.first_seat)
        else:
            if type(seed) is not int:
                raise Refusal("missing_field", None, "new_game needs hands or an integer seed")
            game = Deal(n, revolution, deals, seed, self.first_seat)
            hands = game.shuffle_and_deal()
        game.start(hands)
        self.game = game
        return {"ok": True, "state": game.state()}

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd == "hello":
            return self.hello()
        if cmd == "quit":
            return {"ok": True}
        if cmd == "new_game":
            return self.new_game(req)
        if cmd not in ("deal", "legal", "act", "state"):
            raise Refusal("unknown_cmd", None, f"unknown command {cmd!r}")
        game = self.game
        if game is None:
            raise Refusal("no_game", None, "start with new_game")
        if cmd == "state":
            return {"ok": True, "state": game.state()}
        if cmd == "legal":
            return {"ok": True, "player": game.to_act, "actions": game.legal()}
        if cmd == "deal":
            if game.phase != "deal_over":
                raise Refusal("bad_phase", "game.end" if game.phase == "game_over" else "deal.end", "no next deal now")
            hands = given_hands(req["hands"], game.n) if "hands" in req else game.shuffle_and_deal()
            game.start(hands)
            return {"ok": True, "state": game.state()}
        if "player" not in req or "action" not in req:
            raise Refusal("missing_field", None, "act needs player and action")
        game.act(req["player"], req["action"])
        return {"ok": True, "state": game.state()}


def main(argv: list[str]) -> int:
    if argv not in ([], ["from-seat-1"]):
        print("usage: shuffle.py [from-seat-1]", file=sys.stderr)
        return 2
    engine = Engine(1 if argv else 0)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            try:
                req = json.loads(line)
            except (ValueError, RecursionError):
                raise Refusal("bad_json", None, "not JSON") from None
            if not isinstance(req, dict):
                raise Refusal("bad_request", None, "a request is an object")
            reply = engine.handle(req)
        except Refusal as r:
            reply = {"ok": False, "error": {"code": r.code, "rule": r.rule, "message": r.text}}
        print(json.dumps(reply), flush=True)
        if reply.get("ok") and req.get("cmd") == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
