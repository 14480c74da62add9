#!/usr/bin/env python3
"""Four President engines whose states the spec cannot reach, written from the published sheets
(../shared/seeds/ru.txt, el.txt) and docs/protocol.md alone: nothing is imported from `president`.
Cards are integers 0..51 (rank * 4 + suit), a hand is a sorted list of them, and the seats that
passed are not kept as such: the trick keeps a count of the passes since its last play, and the
seats that passed are worked out from it when a STATE is shown. `python tests/engines/offspec.py PROFILE`:

- `out-counts`: a player who has gone out still counts in the deal: the deal ends only when every
  hand is empty, so the last player plays out their hand alone, leading trick after trick
  (1.1.0: the deal ends when one player still holds cards, `deal.end`).
- `turn-to-finished`: when the trick's winner has gone out, the lead stays with that seat: it is
  `to_act` with no card, its only legal action is a pass, which hands the lead on
  (1.1.0: the lead passes straight to the next active player, `lead.next-active`).
- `two-ranks`: a lead may hold cards of two ranks (the trick stands at the higher one); the
  answers are of one rank, as many cards, higher (1.1.0: one rank only, `play.same-rank`).
- `count-passes`: a pass is not remembered by seat: once enough passes were counted the trick
  ends, but a seat that passed is asked again when the turn comes round after a play
  (1.1.0: a pass is final until the trick is reset, `pass.final`).

Everything else is played as CardVerse 1.1.0: 3 to 6 players, revolution on or off, series of deals
with the exchange. It declares no option beyond those.
"""
from __future__ import annotations

import itertools
import json
import random
import sys

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2"]
SUITS = "CDHS"
PROFILES = ("out-counts", "turn-to-finished", "two-ranks", "count-passes")


def name(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def parse(text: object) -> int:
    if not isinstance(text, str) or len(text) < 2 or text[:-1] not in RANKS or text[-1] not in SUITS:
        raise Refused("bad_card", None, f"not a card: {text!r}")
    return RANKS.index(text[:-1]) * 4 + SUITS.index(text[-1])


class Refused(Exception):
    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code, self.rule = code, rule


class Table:
    def __init__(self, profile: str, players: int, revolution: bool, deals: int, seed: int | None):
        self.profile, self.n, self.revolution, self.deals = profile, players, revolution, deals
        self.rng = None if seed is None else random.Random(seed)
        self.scores = [0] * players
        self.number = 0
        self.last_ranking: list[int] = []

    # -- dealing and the exchange -------------------------------------------------------------
    def shuffled(self) -> list[list[int]]:
        if self.rng is None:
            raise Refused("no_seed", "setup.dealing", "this game has no seed: send the hands")
        deck = list(range(52))
        self.rng.shuffle(deck)
        return [sorted(deck[s::self.n]) for s in range(self.n)]

    def start(self, hands: list[list[int]]) -> None:
        self.hands = [sorted(h) for h in hands]
        self.number += 1
        self.reversed = False
        self.top: list[int] | None = None  # the cards to beat
        self.top_rank = -1
        self.top_by: int | None = None
        self.passes = 0  # passes counted since the last play
        self.pass_log: list[int] = []  # seats, for STATE only
        self.done: list[int] = []
        self.gifts: list[tuple[int, int, int, str]] = []
        if not self.last_ranking:
            self.phase, self.to_act = "play", 0
            return
        pres, scum = self.last_ranking[0], self.last_ranking[-1]
        self.hand_over(scum, pres, self.hands[scum][-2:])
        self.gifts.append((pres, scum, 2, "exchange.scum"))
        if self.n >= 4:
            vice, vscum = self.last_ranking[1], self.last_ranking[-2]
            self.hand_over(vscum, vice, self.hands[vscum][-1:])
            self.gifts.append((vice, vscum, 1, "exchange.vice"))
        self.phase, self.to_act = "exchange", self.gifts[0][0]

    def hand_over(self, giver: int, taker: int, cards: list[int]) -> None:
        self.hands[giver] = [c for c in self.hands[giver] if c not in cards]
        self.hands[taker] = sorted(self.hands[taker] + list(cards))

    # -- the rules ---------------------------------------------------------------------------
    def beats(self, rank: int) -> bool:
        return rank < self.top_rank if self.reversed else rank > self.top_rank

    def in_deal(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def legal(self) -> list[dict]:
        if self.phase == "exchange":
            seat, _, k, _ = self.gifts[0]
            return [{"type": "give", "cards": [name(c) for c in combo]}
                    for combo in itertools.combinations(self.hands[seat], k)]
        if self.phase != "play":
            return []
        hand = self.hands[self.to_act]
        if not hand:  # turn-to-finished: a seat without cards can only hand the lead on
            return [{"type": "pass"}]
        by_rank = {r: [c for c in hand if c // 4 == r] for r in sorted({c // 4 for c in hand})}
        out: list[dict] = [] if self.top is None else [{"type": "pass"}]
        for r, cards in by_rank.items():
            sizes = range(1, 5) if self.top is None else (len(self.top),) if self.beats(r) else ()
            for k in sizes:
                out += [{"type": "play", "cards": [name(c) for c in combo]} for combo in itertools.combinations(cards, k)]
        if self.top is None and self.profile == "two-ranks":
            for r1, r2 in itertools.combinations(by_rank, 2):
                for k in range(2, 5):
                    for a in range(1, k):
                        for left in itertools.combinations(by_rank[r1], a):
                            for right in itertools.combinations(by_rank[r2], k - a):
                                out.append({"type": "play", "cards": [name(c) for c in left + right]})
        return out

    def act(self, seat: object, action: dict) -> None:
        if self.phase in ("deal_over", "game_over"):
            raise Refused("bad_phase", "deal.end", "nothing to play: the deal is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise Refused("bad_seat", "turn.order", f"there is no seat {seat!r}")
        kind = action.get("type")
        if kind not in ("play", "pass", "give"):
            raise Refused("bad_field", None, f"unknown action type {kind!r}")
        raw = action.get("cards", [])
        if kind != "pass" and not isinstance(raw, list):
            raise Refused("bad_field", None, "cards must be a list")
        cards = [parse(c) for c in raw] if kind != "pass" else []
        if len(set(cards)) != len(cards):
            raise Refused("not_in_hand", "play.own-cards", "a card twice")
        if self.phase == "exchange":
            return self.give(seat, kind, cards)
        if kind == "give":
            raise Refused("bad_phase", "exchange.order", "no exchange now")
        if seat != self.to_act:
            raise Refused("not_your_turn", "turn.order", f"seat {self.to_act} is to act")
        if kind == "pass":
            if self.top is None and self.hands[seat]:
                raise Refused("must_play", "lead.must-play", "the leader must play")
            return self.passing(seat)
        if not set(cards) <= set(self.hands[seat]):
            raise Refused("not_in_hand", "play.own-cards", "cards you do not hold")
        if not 1 <= len(cards) <= 4:
            raise Refused("wrong_count", "flow.lead", "play 1 to 4 cards")
        ranks = sorted({c // 4 for c in cards})
        two_allowed = self.profile == "two-ranks" and self.top is None and len(cards) >= 2
        if len(ranks) > (2 if two_allowed else 1):
            raise Refused("mixed_ranks", "play.same-rank", "cards of one rank only")
        if self.top is not None:
            if len(cards) != len(self.top):
                raise Refused("wrong_count", "play.count-matches", f"play {len(self.top)} card(s)")
            if not self.beats(ranks[0]):
                raise Refused("not_higher", "play.strictly-higher", "play a higher rank")
        self.playing(seat, cards, ranks[-1] if not self.reversed else ranks[0])

    def give(self, seat: int, kind: str, cards: list[int]) -> None:
        chooser, receiver, k, clause = self.gifts[0]
        if kind != "give":
            raise Refused("bad_phase", "exchange.order", "the exchange comes first")
        if seat != chooser:
            raise Refused("not_your_turn", "exchange.order", f"seat {chooser} gives back first")
        if not set(cards) <= set(self.hands[seat]):
            raise Refused("not_in_hand", "play.own-cards", "cards you do not hold")
        if len(cards) != k:
            raise Refused("wrong_count", clause, f"give back {k} card(s)")
        self.hand_over(seat, receiver, cards)
        self.gifts.pop(0)
        if self.gifts:
            self.to_act = self.gifts[0][0]
        else:
            self.phase, self.to_act = "play", self.last_ranking[-1]

    def playing(self, seat: int, cards: list[int], rank: int) -> None:
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.top, self.top_rank, self.top_by = cards, rank, seat
        if self.profile == "count-passes":  # the count starts again; who passed is forgotten
            self.passes, self.pass_log = 0, []
        if self.revolution and len(cards) == 4 and len({c // 4 for c in cards}) == 1:
            self.reversed = not self.reversed
        if not self.hands[seat]:
            self.done.append(seat)
        left = [s for s in range(self.n) if self.hands[s]]
        if len(left) <= (0 if self.profile == "out-counts" else 1):
            return self.end_of_deal()
        if len(left) == 1:  # out-counts: nobody else can answer, the last player leads again
            self.top, self.top_by, self.pass_log, self.to_act = None, None, [], left[0]
            return
        if all(s in self.pass_log for s in left if s != seat):  # nobody is left to answer
            self.top, self.top_by, self.pass_log = None, None, []
            self.to_act = seat if self.hands[seat] or self.profile == "turn-to-finished" else self.after(seat)
            return
        self.to_act = self.after(seat)

    def passing(self, seat: int) -> None:
        if self.top is None:  # turn-to-finished: the finished winner hands the lead on
            self.to_act = self.after(seat)
            return
        self.passes += 1
        self.pass_log.append(seat)
        others = [s for s in range(self.n) if self.in_deal(s) and s != self.top_by]
        if self.profile == "count-passes":
            over = self.passes >= len(others)
        else:
            over = all(s in self.pass_log for s in others)
        if over:  # the trick is over
            winner = self.top_by
            self.top, self.top_by, self.passes, self.pass_log = None, None, 0, []
            if self.profile == "turn-to-finished" or self.in_deal(winner):
                self.to_act = winner
            else:
                self.to_act = self.after(winner)
            return
        self.to_act = self.after(seat)

    def after(self, seat: int) -> int:
        """The next seat holding cards after `seat`; passes are not remembered by seat, except
        that 1.1.0 profiles skip the seats that already passed in this trick."""
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if not self.in_deal(s) or s == self.top_by:
                continue
            if self.profile != "count-passes" and s in self.pass_log:
                continue
            return s
        return self.top_by if self.top_by is not None else seat

    def end_of_deal(self) -> None:
        self.done += [s for s in range(self.n) if s not in self.done]
        for place, seat in enumerate(self.done):
            self.scores[seat] += self.n - place
        self.last_ranking = list(self.done)
        self.top, self.top_by, self.to_act, self.pass_log = None, None, None, []
        self.phase = "game_over" if self.number >= self.deals else "deal_over"

    def state(self) -> dict:
        finished = self.last_ranking if self.phase == "exchange" else self.done
        return {"phase": self.phase, "deal": self.number, "to_act": self.to_act,
                "order": "reversed" if self.reversed else "normal",
                "trick": None if self.top is None else {"cards": [name(c) for c in sorted(self.top)], "by": self.top_by},
                "passed": sorted(set(self.pass_log)),
                "hands": [[name(c) for c in h] for h in self.hands],
                "finished": list(finished), "scores": list(self.scores)}


def read_hands(raw: object, n: int) -> list[list[int]]:
    if not isinstance(raw, list) or len(raw) != n:
        raise Refused("bad_hands", "setup.partial-hands", f"give {n} hands")
    hands = []
    for h in raw:
        if not isinstance(h, list) or not h:
            raise Refused("bad_hands", "setup.partial-hands", "every hand holds at least one card")
        hands.append([parse(c) for c in h])
    flat = [c for h in hands for c in h]
    if len(set(flat)) != len(flat):
        raise Refused("bad_hands", "setup.partial-hands", "a card is dealt twice")
    return hands


def serve(profile: str) -> None:
    table: Table | None = None
    for line in sys.stdin:
        try:
            try:
                req = json.loads(line)
            except ValueError as exc:
                raise Refused("bad_json", None, str(exc)) from None
            if not isinstance(req, dict):
                raise Refused("bad_request", None, "a request is a JSON object")
            cmd = req.get("cmd")
            if cmd == "hello":
                reply = {"ok": True, "protocol": 1, "name": f"offspec-{profile}", "version": "1",
                         "variant": "cardverse-president", "spec_version": "1.1.0",
                         "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True, "seed": True}}
            elif cmd == "quit":
                print(json.dumps({"ok": True}), flush=True)
                return
            elif cmd == "new_game":
                config = req.get("config") if isinstance(req.get("config"), dict) else {}
                unknown = set(config) - {"players", "revolution", "deals"}
                if unknown:
                    raise Refused("unknown_option", None, f"this engine knows no option {sorted(unknown)[0]!r}")
                n, rev, deals = config.get("players"), config.get("revolution", True), config.get("deals", 1)
                if not isinstance(n, int) or isinstance(n, bool) or not 3 <= n <= 6:
                    raise Refused("bad_config", "setup.players", "3 to 6 players")
                if not isinstance(rev, bool):
                    raise Refused("bad_config", "revolution.option-off", "revolution is true or false")
                if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
                    raise Refused("bad_config", "game.end", "deals is a whole number from 1")
                seed = req.get("seed")
                fresh = Table(profile, n, rev, deals, seed if isinstance(seed, int) else None)
                fresh.start(read_hands(req["hands"], n) if "hands" in req else fresh.shuffled())
                table = fresh
                reply = {"ok": True, "state": table.state()}
            elif cmd in ("legal", "act", "deal", "state"):
                if table is None:
                    raise Refused("no_game", None, "start a game first")
                if cmd == "legal":
                    reply = {"ok": True, "player": table.to_act, "actions": table.legal()}
                elif cmd == "act":
                    action = req.get("action")
                    table.act(req.get("player"), action if isinstance(action, dict) else {})
                    reply = {"ok": True, "state": table.state()}
                elif cmd == "deal":
                    if table.phase != "deal_over":
                        raise Refused("bad_phase", "game.end", "no next deal now")
                    table.start(read_hands(req["hands"], table.n) if "hands" in req else table.shuffled())
                    reply = {"ok": True, "state": table.state()}
                else:
                    reply = {"ok": True, "state": table.state()}
            else:
                raise Refused("unknown_cmd", None, f"unknown command {cmd!r}")
        except Refused as exc:
            reply = {"ok": False, "error": {"code": exc.code, "rule": exc.rule, "message": str(exc)}}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in PROFILES:
        sys.exit(f"usage: offspec.py {{{','.join(PROFILES)}}}")
    serve(sys.argv[1])
