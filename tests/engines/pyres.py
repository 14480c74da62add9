#!/usr/bin/env python3
"""A President engine written from scratch (it imports nothing from `president`), serving
engine protocol v1 on stdin/stdout. `python tests/engines/pyres.py PROFILE`:

- `repr`: the CardVerse rules, with representation choices of its own where the protocol
  leaves latitude (the last trick stays on the table and the order reads normal once the deal
  is over, the previous ranking stays visible during the exchange, cards highest first,
  `passed` in the order the seats passed, keys in another order). It must pass conformance.
- `house`: a family's house rules: the leader may pass (`leader_may_pass`), a pass is not
  final (a seat that passed may play again once someone plays), only the President scores
  (`scoring: president_only`), and no revolution at all (it declares `revolution: [false]`).
"""
from __future__ import annotations

import itertools
import json
import random
import sys

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2"]
SUITS = ["C", "D", "H", "S"]
DECK = [r + s for r in RANKS for s in SUITS]
VALUE = {c: i for i, c in enumerate(DECK)}


def rank(card: str) -> int:
    return VALUE[card] // 4


class Refused(Exception):
    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code, self.rule = code, rule


class Game:
    def __init__(self, house: bool, players: int, revolution: bool, deals: int, seed: int | None):
        self.house = house
        self.n, self.revolution, self.deals = players, revolution, deals
        self.rng = random.Random(seed) if seed is not None else None
        self.scores = [0] * players
        self.deal_no = 0
        self.ranking: list[int] = []

    def shuffled(self) -> list[list[str]]:
        if self.rng is None:
            raise Refused("no_seed", "setup.dealing", "no seed: give the hands")
        order = list(range(52))
        self.rng.shuffle(order)
        hands: list[list[str]] = [[] for _ in range(self.n)]
        for i, c in enumerate(order):
            hands[i % self.n].append(DECK[c])
        return hands

    def begin(self, hands: list[list[str]]) -> None:
        self.hands = [set(h) for h in hands]
        self.deal_no += 1
        self.flipped = False
        self.top: tuple[list[str], int] | None = None
        self.passers: list[int] = []
        self.out: list[int] = []
        self.owed: list[tuple[int, int, int, str]] = []  # (chooser, receiver, count, clause)
        if not self.ranking:
            self.phase, self.turn = "play", 0
            return
        first, last = self.ranking[0], self.ranking[-1]
        self.move(last, first, sorted(self.hands[last], key=VALUE.get)[-2:])
        self.owed.append((first, last, 2, "exchange.scum"))
        if self.n >= 4:
            second, second_last = self.ranking[1], self.ranking[-2]
            self.move(second_last, second, sorted(self.hands[second_last], key=VALUE.get)[-1:])
            self.owed.append((second, second_last, 1, "exchange.vice"))
        self.phase, self.turn = "exchange", self.owed[0][0]

    def move(self, giver: int, taker: int, cards: list[str]) -> None:
        self.hands[giver] -= set(cards)
        self.hands[taker] |= set(cards)

    def higher(self, a: int, b: int) -> bool:
        return a < b if self.flipped else a > b

    def legal(self) -> list[dict]:
        if self.phase == "exchange":
            chooser, _, k, _ = self.owed[0]
            return [{"type": "give", "cards": list(c)} for c in itertools.combinations(sorted(self.hands[chooser]), k)]
        if self.phase != "play":
            return []
        hand = sorted(self.hands[self.turn], key=VALUE.get)
        groups = [list(g) for _, g in itertools.groupby(hand, key=rank)]
        acts: list[dict] = []
        if self.top is not None or self.house:
            acts.append({"type": "pass"})
        for g in groups:
            if self.top is None:
                sizes = range(1, 5)
            elif self.higher(rank(g[0]), rank(self.top[0][0])):
                sizes = range(len(self.top[0]), len(self.top[0]) + 1)
            else:
                continue
            for k in sizes:
                acts += [{"type": "play", "cards": list(c)} for c in itertools.combinations(g, k)]
        return acts

    def act(self, seat, action: dict) -> None:
        if self.phase in ("deal_over", "game_over"):
            raise Refused("bad_phase", "deal.end", "the deal is over")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise Refused("bad_seat", "turn.order", f"no seat {seat!r}")
        kind, cards = action.get("type"), action.get("cards") or []
        if kind not in ("play", "pass", "give") or not all(c in VALUE for c in cards):
            raise Refused("bad_field", None, f"bad action {action!r}")
        if self.phase == "exchange":
            chooser, receiver, k, clause = self.owed[0]
            if kind != "give":
                raise Refused("bad_phase", "exchange.order", "the exchange comes first")
            if seat != chooser:
                raise Refused("not_your_turn", "exchange.order", f"seat {chooser} gives first")
            if not set(cards) <= self.hands[seat] or len(set(cards)) != len(cards):
                raise Refused("not_in_hand", "play.own-cards", "not your cards")
            if len(cards) != k:
                raise Refused("wrong_count", clause, f"give back {k}")
            self.move(seat, receiver, cards)
            self.owed.pop(0)
            if self.owed:
                self.turn = self.owed[0][0]
            else:
                self.phase, self.turn = "play", self.ranking[-1]
            return
        if kind == "give":
            raise Refused("bad_phase", "exchange.order", "no exchange now")
        if seat != self.turn:
            rule = "flow.out" if not self.hands[seat] else "pass.final" if seat in self.passers else "turn.order"
            raise Refused("not_your_turn", rule, f"seat {self.turn} acts")
        if kind == "pass":
            if self.top is None and not self.house:
                raise Refused("must_play", "lead.must-play", "lead a card")
            self.passers.append(seat)
            self.next_turn(seat)
            return
        if not set(cards) <= self.hands[seat] or len(set(cards)) != len(cards):
            raise Refused("not_in_hand", "play.own-cards", "not your cards")
        if not 1 <= len(cards) <= 4:
            raise Refused("wrong_count", "flow.lead", "1 to 4 cards")
        if len({rank(c) for c in cards}) != 1:
            raise Refused("mixed_ranks", "play.same-rank", "one rank only")
        if self.top is not None:
            if len(cards) != len(self.top[0]):
                raise Refused("wrong_count", "play.count-matches", "as many cards as the trick")
            if not self.higher(rank(cards[0]), rank(self.top[0][0])):
                raise Refused("not_higher", "play.strictly-higher", "not higher")
        self.hands[seat] -= set(cards)
        self.top = (list(cards), seat)
        if self.house:
            self.passers = []  # a pass is not final: a new play reopens the trick to everyone
        if self.revolution and len(cards) == 4:
            self.flipped = not self.flipped
        if not self.hands[seat]:
            self.out.append(seat)
            if len(self.out) == self.n - 1:
                self.end_deal()
                return
        self.next_turn(seat)

    def next_turn(self, seat: int) -> None:
        by = self.top[1] if self.top else None
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if self.hands[s] and s not in self.passers and s != by:
                self.turn = s
                return
        # everyone else passed: the trick is over
        self.top, self.passers = None, []
        s = seat if by is None else by
        while not self.hands[s]:
            s = (s + 1) % self.n
        self.turn = s

    def end_deal(self) -> None:
        self.out += [s for s in range(self.n) if self.hands[s]]
        for place, s in enumerate(self.out):
            if self.house:
                self.scores[s] += 1 if place == 0 else 0
            else:
                self.scores[s] += self.n - place
        self.ranking = list(self.out)
        self.turn, self.passers = None, []
        self.flipped = False
        self.phase = "game_over" if self.deal_no >= self.deals else "deal_over"

    def state(self) -> dict:
        shown = self.ranking if self.phase == "exchange" else self.out
        return {"deal": self.deal_no, "phase": self.phase, "to_act": self.turn,
                "order": "reversed" if self.flipped else "normal",
                "trick": None if self.top is None else {"by": self.top[1], "cards": sorted(self.top[0], key=VALUE.get, reverse=True)},
                "passed": list(self.passers), "hands": [sorted(h, key=VALUE.get, reverse=True) for h in self.hands],
                "finished": list(shown), "scores": list(self.scores)}


def check_hands(hands, n: int) -> list[list[str]]:
    if not isinstance(hands, list) or len(hands) != n:
        raise Refused("bad_hands", "setup.partial-hands", f"{n} hands needed")
    seen: set[str] = set()
    for h in hands:
        if not isinstance(h, list) or not h or not all(c in VALUE for c in h):
            raise Refused("bad_hands", "setup.partial-hands", "an empty or bad hand")
        if seen & set(h):
            raise Refused("bad_hands", "setup.partial-hands", "a card dealt twice")
        seen |= set(h)
    return hands


def main() -> None:
    house = sys.argv[1:] == ["house"]
    game: Game | None = None
    for line in sys.stdin:
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise Refused("bad_request", None, "not an object")
            cmd = req.get("cmd")
            if cmd == "hello":
                reply = {"ok": True, "protocol": 1, "name": f"pyres-{'house' if house else 'repr'}", "version": "1",
                         "variant": "cardverse-president", "spec_version": "1.1.0",
                         "options": {"players": [3, 4, 5, 6], "revolution": [False] if house else [True, False],
                                     "deals": True, "seed": not house}}
            elif cmd == "quit":
                print(json.dumps({"ok": True}), flush=True)
                return
            elif cmd == "new_game":
                cfg = req.get("config") or {}
                n, rev, deals = cfg.get("players"), cfg.get("revolution", True), cfg.get("deals", 1)
                if not isinstance(n, int) or not 3 <= n <= 6:
                    raise Refused("bad_config", "setup.players", "3 to 6 players")
                if rev and house:
                    raise Refused("bad_config", "revolution.option-off", "this engine plays without revolution")
                if not isinstance(deals, int) or deals < 1:
                    raise Refused("bad_config", "game.end", "deals >= 1")
                seed = req.get("seed")
                fresh = Game(house, n, bool(rev), deals, seed)
                fresh.begin(check_hands(req["hands"], n) if "hands" in req else fresh.shuffled())
                game = fresh
                reply = {"ok": True, "state": game.state()}
            elif cmd in ("legal", "act", "deal", "state"):
                if game is None:
                    raise Refused("no_game", None, "no game yet")
                if cmd == "legal":
                    reply = {"ok": True, "player": game.turn, "actions": game.legal()}
                elif cmd == "act":
                    game.act(req.get("player"), req.get("action") or {})
                    reply = {"ok": True, "state": game.state()}
                elif cmd == "deal":
                    if game.phase != "deal_over":
                        raise Refused("bad_phase", "game.end", "no next deal now")
                    game.begin(check_hands(req["hands"], game.n) if "hands" in req else game.shuffled())
                    reply = {"ok": True, "state": game.state()}
                else:
                    reply = {"ok": True, "state": game.state()}
            else:
                raise Refused("unknown_cmd", None, f"unknown command {cmd!r}")
        except Refused as exc:
            reply = {"ok": False, "error": {"code": exc.code, "rule": exc.rule, "message": str(exc)}}
        except json.JSONDecodeError as exc:
            reply = {"ok": False, "error": {"code": "bad_json", "rule": None, "message": str(exc)}}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
