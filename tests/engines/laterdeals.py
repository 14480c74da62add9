#!/usr/bin/env python3
"""laterdeals.py: a President engine whose play of a deal is CardVerse 1.1.0, written from the
published rule sheets (it imports nothing from `president`), serving engine protocol v1 on
stdin/stdout (replies only). It declares `deals`, so series with the exchange are played.

    python tests/engines/laterdeals.py          # profile "worst": two differences
    python tests/engines/laterdeals.py no-vice  # profile "no-vice": one difference

What differs from 1.1.0 (the play itself, who leads, passes, revolution... are all 1.1.0):

- profile "worst" (the default):
  - in the exchange before a later deal the Scum hands the President their 2 WORST cards (lowest
    in the normal order, lowest suits first) instead of their 2 best (clause exchange.scum); the
    Vice-Scum still gives their best card to the Vice-President;
  - place p of n players scores n - p points (the last scores 0) instead of n - p + 1 (clause
    score.points); the totals still add up over the series. This shows at the end of every
    deal, the first one included; no scoring option of the spec gives these points.
- profile "no-vice": the Vice-Presidents' swap never happens: with 4 or more players the
  Vice-Scum keeps their cards and the Vice-President gives nothing back (clause exchange.vice);
  the exchange is the Scum's 2 best cards and the President's 2 cards back only. Nothing else
  differs, so deal 1 and every series of 3 players are 1.1.0 exactly.

Representation: a hand is a Python int used as a 52-bit set, bit 4 * rank + suit.
"""
from __future__ import annotations

import json
import sys
from itertools import combinations

RANKS = "3 4 5 6 7 8 9 10 V D R A 2".split()
SUITS = "CDHS"
NAME = [r + s for r in RANKS for s in SUITS]
BIT = {n: i for i, n in enumerate(NAME)}
FULL_RANK = 0b1111
CONFIG = ("players", "revolution", "deals", "equality", "sequences", "jokers", "first_lead", "leader_may_pass", "scoring")
FIXED = {"equality": (False, "option.equality.on"), "sequences": (False, "option.sequences.on"),
         "jokers": (0, "option.jokers.two"), "first_lead": ("seat0", "option.first-lead.holder"),
         "leader_may_pass": (False, "option.leader-may-pass.on"), "scoring": ("places", "option.scoring.none")}


class Refuse(Exception):
    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code, self.rule, self.message = code, rule, message


def cards_of(mask: int) -> list[str]:
    return [NAME[i] for i in range(52) if mask >> i & 1]


def bits_of(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def rank_part(mask: int, r: int) -> int:
    return mask >> (4 * r) & FULL_RANK


def mask_of(value) -> tuple[int, int]:
    """(mask, number of cards given) of a list of card texts."""
    if not isinstance(value, list):
        raise Refuse("bad_field", None, "cards: a list")
    mask = 0
    for c in value:
        if c in ("X1", "X2"):
            raise Refuse("bad_card", "setup.no-jokers-sequences", "no jokers in this deck")
        if not isinstance(c, str) or c not in BIT:
            raise Refuse("bad_card", None, f"not a card: {c!r}")
        mask |= 1 << BIT[c]
    return mask, len(value)


class Table:
    def __init__(self, n: int, revolution: bool, deals: int, profile: str):
        self.n, self.revolution, self.deals, self.profile = n, revolution, deals, profile
        self.scores = [0] * n
        self.deal = 0
        self.ranking: list[int] | None = None

    def start(self, hands: list[int]) -> None:
        self.hands = list(hands)
        self.deal += 1
        self.reversed = False
        self.top: tuple[int, int, int] | None = None  # (mask, rank, by)
        self.passed: set[int] = set()
        self.out: list[int] = []
        self.back: list[tuple[int, int, int, str]] = []  # (giver, receiver, k, clause)
        if self.ranking is None:
            self.phase, self.turn = "play", 0
            return
        r, n = self.ranking, self.n
        scum_cards = bits_of(self.hands[r[-1]])
        scum_cards = scum_cards[:2] if self.profile == "worst" else scum_cards[-2:]
        self.transfer(r[-1], r[0], sum(1 << b for b in scum_cards))
        self.back.append((r[0], r[-1], 2, "exchange.scum"))
        if n >= 4 and self.profile != "no-vice":
            self.transfer(r[-2], r[1], sum(1 << b for b in bits_of(self.hands[r[-2]])[-1:]))
            self.back.append((r[1], r[-2], 1, "exchange.vice"))
        self.phase, self.turn = "exchange", self.back[0][0]

    def transfer(self, giver: int, receiver: int, mask: int) -> None:
        self.hands[giver] &= ~mask
        self.hands[receiver] |= mask

    def higher(self, a: int, b: int) -> bool:
        return a < b if self.reversed else a > b

    def legal(self) -> list[dict]:
        if self.phase == "exchange":
            giver, _, k, _ = self.back[0]
            return [{"type": "give", "cards": [NAME[b] for b in combo]} for combo in combinations(bits_of(self.hands[giver]), k)]
        if self.phase != "play":
            return []
        acts: list[dict] = [{"type": "pass"}] if self.top else []
        hand = self.hands[self.turn]
        for r in range(13):
            suits = rank_part(hand, r)
            if not suits or (self.top and not self.higher(r, self.top[1])):
                continue
            for sub in range(1, 16):
                if sub & suits != sub:
                    continue
                if self.top and bin(sub).count("1") != bin(self.top[0]).count("1"):
                    continue
                acts.append({"type": "play", "cards": cards_of(sub << (4 * r))})
        return acts

    def act(self, seat, action) -> None:
        if self.phase in ("deal_over", "game_over"):
            raise Refuse("bad_phase", "game.end" if self.phase == "game_over" else "deal.end", "the deal is over")
        if type(seat) is not int:
            raise Refuse("bad_field", None, "player: a seat number")
        if not 0 <= seat < self.n:
            raise Refuse("bad_seat", "turn.order", f"no seat {seat}")
        if not isinstance(action, dict) or action.get("type") not in ("play", "pass", "give"):
            raise Refuse("bad_field", None, "action: play, pass or give")
        kind = action["type"]
        mask, given = (0, 0) if kind == "pass" else mask_of(action.get("cards"))
        count = bin(mask).count("1")
        owns = count == given and mask & self.hands[seat] == mask
        if self.phase == "exchange":
            giver, receiver, k, clause = self.back[0]
            if kind != "give":
                raise Refuse("bad_phase", "exchange.order", "the exchange comes first")
            if seat != giver:
                raise Refuse("not_your_turn", "exchange.order", f"seat {giver} gives back now")
            if not owns:
                raise Refuse("not_in_hand", "play.own-cards", "not your cards")
            if count != k:
                raise Refuse("wrong_count", clause, f"give back {k}")
            self.transfer(seat, receiver, mask)
            self.back.pop(0)
            if self.back:
                self.turn = self.back[0][0]
            else:
                assert self.ranking is not None
                self.phase, self.turn = "play", self.ranking[-1]
            return
        if kind == "give":
            raise Refuse("bad_phase", "exchange.order", "no exchange now")
        if seat != self.turn:
            rule = "flow.out" if not self.hands[seat] else "pass.final" if seat in self.passed else "turn.order"
            raise Refuse("not_your_turn", rule, f"seat {self.turn} is to act")
        if kind == "pass":
            if self.top is None:
                raise Refuse("must_play", "lead.must-play", "the leader must play")
            self.passed.add(seat)
            self.advance(seat)
            return
        if not owns:
            raise Refuse("not_in_hand", "play.own-cards", "not your cards")
        ranks = {b // 4 for b in bits_of(mask)}
        if not 1 <= count <= 4:
            raise Refuse("wrong_count", "flow.lead", "1 to 4 cards")
        if len(ranks) != 1:
            raise Refuse("mixed_ranks", "play.same-rank", "cards of one rank")
        r = ranks.pop()
        if self.top is not None:
            if count != bin(self.top[0]).count("1"):
                raise Refuse("wrong_count", "play.count-matches", "as many cards as the trick")
            if not self.higher(r, self.top[1]):
                raise Refuse("not_higher", "play.strictly-higher", "not higher in the current order")
        self.hands[seat] &= ~mask
        self.top = (mask, r, seat)
        if self.revolution and count == 4:
            self.reversed = not self.reversed
        if not self.hands[seat]:
            self.out.append(seat)
            left = [s for s in range(self.n) if self.hands[s]]
            if len(left) == 1:
                self.finish(left[0])
                return
        self.advance(seat)

    def advance(self, seat: int) -> None:
        by = self.top[2] if self.top else -1
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if s != by and self.hands[s] and s not in self.passed:
                self.turn = s
                return
        self.top, self.passed = None, set()
        s = by
        while not self.hands[s]:
            s = (s + 1) % self.n
        self.turn = s

    def finish(self, last: int) -> None:
        self.out.append(last)
        bonus = 0 if self.profile == "worst" else 1
        for place, s in enumerate(self.out, start=1):
            self.scores[s] += self.n - place + bonus
        self.ranking = list(self.out)
        self.turn, self.top, self.passed, self.reversed = None, None, set(), False
        self.phase = "game_over" if self.deal >= self.deals else "deal_over"

    def state(self) -> dict:
        return {"phase": self.phase, "deal": self.deal, "to_act": self.turn,
                "order": "reversed" if self.reversed else "normal",
                "trick": None if self.top is None else {"cards": cards_of(self.top[0]), "by": self.top[2]},
                "passed": sorted(self.passed), "hands": [cards_of(h) for h in self.hands],
                "finished": list(self.out), "scores": list(self.scores)}


def read_hands(value, n: int) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
        raise Refuse("bad_field", None, "hands: a list of lists")
    if len(value) != n:
        raise Refuse("bad_hands", "setup.partial-hands", f"{n} hands")
    if any(c in ("X1", "X2") for h in value for c in h):
        raise Refuse("bad_hands", "setup.no-jokers-sequences", "no jokers in this deck")
    seen, hands = 0, []
    for h in value:
        mask, given = mask_of(h)
        if not given:
            raise Refuse("bad_hands", "setup.partial-hands", "an empty hand")
        if bin(mask).count("1") != given or mask & seen:
            raise Refuse("bad_hands", "setup.partial-hands", "a card dealt twice")
        seen |= mask
        hands.append(mask)
    return hands


def read_config(cfg) -> tuple[int, bool, int]:
    if not isinstance(cfg, dict):
        raise Refuse("bad_field", None, "config: an object")
    for key in cfg:
        if key not in CONFIG:
            raise Refuse("unknown_option", None, f"unknown option {key!r}")
    n = cfg.get("players")
    if type(n) is not int or not 3 <= n <= 6:
        raise Refuse("bad_config", "setup.players", "3 to 6 players")
    deals = cfg.get("deals", 1)
    if type(deals) is not int or deals < 1:
        raise Refuse("bad_config", "game.end", "deals >= 1")
    revolution = cfg.get("revolution", True)
    if type(revolution) is not bool:
        raise Refuse("bad_config", "revolution.option-off", "revolution: a boolean")
    for key, (value, rule) in FIXED.items():
        if key in cfg and (cfg[key] != value or type(cfg[key]) is not type(value)):
            raise Refuse("bad_config", rule, f"{key}={cfg[key]!r} is not played")
    return n, revolution, deals


def serve(profile: str) -> None:
    table: Table | None = None
    hello = {"ok": True, "protocol": 1, "name": f"laterdeals-py-{profile}", "version": "1.0",
             "variant": "cardverse-president", "spec_version": "1.1.0",
             "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True}}
    for line in sys.stdin:
        if not line.strip():
            continue
        req = None
        try:
            try:
                req = json.loads(line)
            except (ValueError, RecursionError):
                raise Refuse("bad_json", None, "not JSON") from None
            if not isinstance(req, dict):
                req = None
                raise Refuse("bad_request", None, "a request is an object")
            cmd = req.get("cmd")
            if cmd == "hello":
                reply = hello
            elif cmd == "quit":
                reply = {"ok": True}
            elif cmd == "new_game":
                n, revolution, deals = read_config(req.get("config", {}))
                if "hands" not in req:
                    raise Refuse("missing_field", "setup.dealing", "no shuffle here: give the hands")
                hands = read_hands(req["hands"], n)
                table = Table(n, revolution, deals, profile)
                table.start(hands)
                reply = {"ok": True, "state": table.state()}
            elif cmd not in ("deal", "legal", "act", "state"):
                raise Refuse("unknown_cmd", None, f"unknown command {cmd!r}")
            elif table is None:
                raise Refuse("no_game", None, "new_game first")
            elif cmd == "state":
                reply = {"ok": True, "state": table.state()}
            elif cmd == "legal":
                reply = {"ok": True, "player": table.turn, "actions": table.legal()}
            elif cmd == "deal":
                if table.phase != "deal_over":
                    raise Refuse("bad_phase", "game.end" if table.phase == "game_over" else "deal.end", "no next deal now")
                if "hands" not in req:
                    raise Refuse("missing_field", "setup.dealing", "no shuffle here: give the hands")
                table.start(read_hands(req["hands"], table.n))
                reply = {"ok": True, "state": table.state()}
            else:
                if "player" not in req or "action" not in req:
                    raise Refuse("missing_field", None, "act: player and action")
                table.act(req["player"], req["action"])
                reply = {"ok": True, "state": table.state()}
        except Refuse as no:
            reply = {"ok": False, "error": {"code": no.code, "rule": no.rule, "message": no.message}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if reply.get("ok") and req is not None and req.get("cmd") == "quit":
            return


if __name__ == "__main__":
    args = sys.argv[1:]
    if args not in ([], ["no-vice"]):
        print("usage: laterdeals.py [no-vice]", file=sys.stderr)
        sys.exit(2)
    serve(args[0] if args else "worst")
