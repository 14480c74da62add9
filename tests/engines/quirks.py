#!/usr/bin/env python3
"""quirks.py: three President engines written from the published rule sheets (../shared/seeds/ru.txt,
el.txt) and docs/protocol.md alone; nothing is imported from `president`. `python tests/engines/quirks.py PROFILE`:

- `not-final`: a pass is not final. After a play the turn goes round every seat still holding cards,
  the ones that passed before included, and the trick ends only when every such seat other than the
  trick's player has passed since the last play. `passed` is shown exactly as docs/protocol.md defined
  it before issue 30: every seat that passed since the trick was last reset, so the seat to act may be
  listed in it (the doc now asks for the passes since the last play; conform must follow both)
  (1.1.0: a pass is final until the trick is reset, `pass.final`).
- `two-limits`: two house restrictions on the follows, both showing the same way (a follow that
  `legal` leaves out and `act` refuses) under the same clause: a follow may climb at most four ranks
  above the trick in the current order (a 7 on a 3, not an 8), and a lone 2 may not follow at all
  (not even on an ace; 2s follow as pairs or more). Leads are free (1.1.0: any higher rank follows,
  `play.strictly-higher`).
- `returns-hands`: at the end of every deal the last player's cards go back to the deck with the rest:
  in `deal_over` and `game_over` every hand is shown empty (1.1.0: the last player keeps their cards,
  `deal.end`: `hands: [[], [3C, 4C], []]`).

Everything else is CardVerse 1.1.0: 3 to 6 players, 52 cards (no jokers), seat 0 leads the first deal,
revolution on or off, series of deals with the exchange, points n - p + 1. A seed is its own
(random.Random(seed) shuffles a sorted deck, dealt one card at a time from seat 0); it declares no
`shuffle`.

Representation: a card is its text; a hand is a dict rank index -> the suit letters held ("CH"); the
trick keeps the list of its moves since it was last reset, (seat, cards or None for a pass), and
everything else (the cards to beat, who passed) is read from that list.
"""
from __future__ import annotations

import itertools
import json
import random
import sys

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2"]
SUITS = "CDHS"
PROFILES = ("not-final", "two-limits", "returns-hands")
DEFAULTS = {"equality": False, "sequences": False, "jokers": 0, "first_lead": "seat0",
            "leader_may_pass": False, "scoring": "places"}
TWO = RANKS.index("2")


class Refused(Exception):
    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code, self.rule = code, rule


def split(text: object) -> tuple[int, str]:
    if not isinstance(text, str) or text[:-1] not in RANKS or text[-1:] not in tuple(SUITS) or not text[-1:]:
        raise Refused("bad_card", None, f"not a card: {text!r}")
    return RANKS.index(text[:-1]), text[-1]


def to_hand(cards: list[str]) -> dict[int, str]:
    hand: dict[int, str] = {}
    for c in cards:
        r, s = split(c)
        hand[r] = "".join(sorted(hand.get(r, "") + s, key=SUITS.index))
    return hand


def texts(hand: dict[int, str]) -> list[str]:
    return [RANKS[r] + s for r in sorted(hand) for s in hand[r]]


class Game:
    def __init__(self, profile: str, n: int, revolution: bool, deals: int, seed: int | None):
        self.profile, self.n, self.revolution, self.deals = profile, n, revolution, deals
        self.rng = None if seed is None else random.Random(seed)
        self.scores = [0] * n
        self.deal_no = 0
        self.ranking: list[int] = []

    def seeded(self) -> list[list[str]]:
        if self.rng is None:
            raise Refused("no_seed", "setup.dealing", "no seed: send the hands")
        deck = [r + s for r in RANKS for s in SUITS]
        self.rng.shuffle(deck)
        return [deck[i::self.n] for i in range(self.n)]

    def begin(self, hands: list[list[str]]) -> None:
        self.hands = [to_hand(h) for h in hands]
        self.deal_no += 1
        self.reversed = False
        self.moves: list[tuple[int, list[str] | None]] = []
        self.out: list[int] = []
        self.owed: list[tuple[int, int, int, str]] = []  # (chooser, receiver, count, clause)
        if not self.ranking:
            self.phase, self.to_act = "play", 0
            return
        first, last = self.ranking[0], self.ranking[-1]
        self.move_cards(last, first, texts(self.hands[last])[-2:])
        self.owed.append((first, last, 2, "exchange.scum"))
        if self.n >= 4:
            second, second_last = self.ranking[1], self.ranking[-2]
            self.move_cards(second_last, second, texts(self.hands[second_last])[-1:])
            self.owed.append((second, second_last, 1, "exchange.vice"))
        self.phase, self.to_act = "exchange", self.owed[0][0]

    def take(self, seat: int, cards: list[str]) -> None:
        for c in cards:
            r, s = split(c)
            left = self.hands[seat][r].replace(s, "")
            if left:
                self.hands[seat][r] = left
            else:
                del self.hands[seat][r]

    def move_cards(self, giver: int, taker: int, cards: list[str]) -> None:
        self.take(giver, cards)
        for c in cards:
            r, s = split(c)
            self.hands[taker][r] = "".join(sorted(self.hands[taker].get(r, "") + s, key=SUITS.index))

    # -- what the trick's moves say ------------------------------------------------------------
    def top(self) -> tuple[int, list[str]] | None:
        for seat, cards in reversed(self.moves):
            if cards is not None:
                return seat, cards
        return None

    def passed_seats(self) -> list[int]:
        """Every seat that passed since the trick was last reset (`passed` as docs/protocol.md defined it before issue 30)."""
        return sorted({seat for seat, cards in self.moves if cards is None})

    def passed_since_play(self) -> set[int]:
        seats: set[int] = set()
        for seat, cards in reversed(self.moves):
            if cards is not None:
                break
            seats.add(seat)
        return seats

    def active(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def higher(self, rank: int, than: int) -> bool:
        return rank < than if self.reversed else rank > than

    def within_reach(self, rank: int, than: int) -> bool:
        return self.profile != "two-limits" or abs(rank - than) <= 4

    # -- legal actions ----------------------------------------------------------------------------
    def legal(self) -> list[dict]:
        if self.phase == "exchange":
            seat, _, k, _ = self.owed[0]
            return [{"type": "give", "cards": list(c)} for c in itertools.combinations(texts(self.hands[seat]), k)]
        if self.phase != "play":
            return []
        hand = self.hands[self.to_act]
        top = self.top()
        out: list[dict] = [] if top is None else [{"type": "pass"}]
        for r in sorted(hand):
            cards = [RANKS[r] + s for s in hand[r]]
            if top is None:
                sizes: range | tuple[int, ...] = range(1, len(cards) + 1)
            else:
                t = split(top[1][0])[0]
                lone_two = self.profile == "two-limits" and r == TWO and len(top[1]) == 1
                fits = self.higher(r, t) and self.within_reach(r, t) and not lone_two
                sizes = (len(top[1]),) if fits and len(cards) >= len(top[1]) else ()
            for k in sizes:
                out += [{"type": "play", "cards": list(c)} for c in itertools.combinations(cards, k)]
        return out

    # -- acting -----------------------------------------------------------------------------------
    def act(self, seat: object, action: dict) -> None:
        if self.phase in ("deal_over", "game_over"):
            raise Refused("bad_phase", "game.end" if self.phase == "game_over" else "deal.end", "the deal is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise Refused("bad_seat", "turn.order", f"no seat {seat!r}")
        kind = action.get("type")
        if kind not in ("play", "pass", "give"):
            raise Refused("bad_field", None, f"unknown action type {kind!r}")
        cards = action.get("cards", [])
        if kind != "pass":
            if not isinstance(cards, list):
                raise Refused("bad_field", None, "cards: a list")
            for c in cards:
                split(c)
            if len(set(cards)) != len(cards):
                raise Refused("not_in_hand", "play.own-cards", "a card twice")
        if self.phase == "exchange":
            return self.give(seat, kind, cards)
        if kind == "give":
            raise Refused("bad_phase", "exchange.order", "no exchange now")
        if seat != self.to_act:
            if not self.active(seat):
                raise Refused("not_your_turn", "flow.out", f"seat {seat} is out")
            raise Refused("not_your_turn", "turn.order", f"seat {self.to_act} is to act")
        wanted = {"type": "pass"} if kind == "pass" else {"type": "play", "cards": sorted(cards)}
        listed = [{"type": a["type"], **({"cards": sorted(a["cards"])} if "cards" in a else {})} for a in self.legal()]
        if wanted not in listed:
            raise self.why(seat, kind, cards)
        if kind == "pass":
            self.moves.append((seat, None))
        else:
            self.play(seat, cards)
        self.after_move(seat)

    def why(self, seat: int, kind: str, cards: list[str]) -> Refused:
        top = self.top()
        if kind == "pass":
            return Refused("must_play", "lead.must-play", "the leader must play")
        hand = self.hands[seat]
        if any(split(c)[1] not in hand.get(split(c)[0], "") for c in cards):
            return Refused("not_in_hand", "play.own-cards", "cards you do not hold")
        ranks = {split(c)[0] for c in cards}
        if not cards or len(cards) > 4:
            return Refused("wrong_count", "flow.lead", "play 1 to 4 cards")
        if len(ranks) != 1:
            return Refused("mixed_ranks", "play.same-rank", "cards of one rank")
        if len(cards) != len(top[1]):
            return Refused("wrong_count", "play.count-matches", f"play {len(top[1])} card(s)")
        return Refused("not_higher", "play.strictly-higher", "not higher, more than four ranks higher, or a lone 2")

    def play(self, seat: int, cards: list[str]) -> None:
        self.take(seat, cards)
        self.moves.append((seat, sorted(cards, key=lambda c: SUITS.index(c[-1]))))
        if self.revolution and len(cards) == 4:
            self.reversed = not self.reversed
        if not self.hands[seat]:
            self.out.append(seat)

    def after_move(self, seat: int) -> None:
        left = [s for s in range(self.n) if self.active(s)]
        if len(left) <= 1:
            return self.finish()
        top = self.top()
        assert top is not None
        winner = top[0]
        if self.profile == "not-final":
            waiting = [s for s in left if s != winner and s not in self.passed_since_play()]
        else:
            waiting = [s for s in left if s != winner and s not in self.passed_seats()]
        if not waiting:  # the trick is over
            self.moves = []
            self.to_act = winner if self.active(winner) else self.next_of(winner, left)
            return
        self.to_act = self.next_of(seat, waiting)

    def next_of(self, seat: int, among: list[int]) -> int:
        return min(among, key=lambda s: (s - seat - 1) % self.n)

    def give(self, seat: int, kind: str, cards: list[str]) -> None:
        chooser, receiver, k, clause = self.owed[0]
        if kind != "give":
            raise Refused("bad_phase", "exchange.order", "give back first")
        if seat != chooser:
            raise Refused("not_your_turn", "exchange.order", f"seat {chooser} gives back")
        if any(split(c)[1] not in self.hands[seat].get(split(c)[0], "") for c in cards):
            raise Refused("not_in_hand", "play.own-cards", "cards you do not hold")
        if len(cards) != k:
            raise Refused("wrong_count", clause, f"give {k} card(s)")
        self.move_cards(seat, receiver, cards)
        self.owed.pop(0)
        if self.owed:
            self.to_act = self.owed[0][0]
        else:
            self.phase, self.to_act = "play", self.ranking[-1]

    def finish(self) -> None:
        self.out += [s for s in range(self.n) if s not in self.out]
        for place, seat in enumerate(self.out, start=1):
            self.scores[seat] += self.n - place + 1
        self.ranking = list(self.out)
        self.moves, self.to_act = [], None
        if self.profile == "returns-hands":
            self.hands = [{} for _ in range(self.n)]
        self.phase = "game_over" if self.deal_no >= self.deals else "deal_over"

    def state(self) -> dict:
        top = self.top()
        return {"phase": self.phase, "deal": self.deal_no, "to_act": self.to_act,
                "order": "reversed" if self.reversed else "normal",
                "trick": None if top is None else {"cards": top[1], "by": top[0]},
                "passed": self.passed_seats(), "hands": [texts(h) for h in self.hands],
                "finished": list(self.ranking if self.phase == "exchange" else self.out),
                "scores": list(self.scores)}


def read_hands(raw: object, n: int) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) != n:
        raise Refused("bad_hands", "setup.partial-hands", f"{n} hands")
    seen: set[str] = set()
    for hand in raw:
        if not isinstance(hand, list) or not hand:
            raise Refused("bad_hands", "setup.partial-hands", "every hand holds a card")
        for c in hand:
            split(c)
            if c in seen:
                raise Refused("bad_hands", "setup.partial-hands", f"{c} dealt twice")
            seen.add(c)
    return raw


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def new_game(profile: str, req: dict) -> Game:
    config = req.get("config")
    if not isinstance(config, dict):
        raise Refused("missing_field", None, "config")
    for key, value in config.items():
        if key in ("players", "revolution", "deals"):
            continue
        if key not in DEFAULTS:
            raise Refused("unknown_option", None, f"unknown option {key!r}")
        if value != DEFAULTS[key]:
            raise Refused("bad_config", f"option.{key}", f"{key}={value!r} is not played here")
    n, rev, deals = config.get("players"), config.get("revolution", True), config.get("deals", 1)
    if not whole(n) or not 3 <= n <= 6:
        raise Refused("bad_config", "setup.players", "3 to 6 players")
    if not isinstance(rev, bool):
        raise Refused("bad_config", "revolution.option-off", "revolution: true or false")
    if not whole(deals) or deals < 1:
        raise Refused("bad_config", "game.end", "deals: a whole number from 1")
    seed = req.get("seed")
    if seed is not None and not whole(seed):
        raise Refused("bad_field", None, "seed: an integer")
    game = Game(profile, n, rev, deals, seed)
    game.begin(read_hands(req["hands"], n) if "hands" in req else game.seeded())
    return game


def answer(profile: str, game: Game | None, req: object) -> tuple[dict, Game | None]:
    if not isinstance(req, dict):
        raise Refused("bad_request", None, "a request is an object")
    cmd = req.get("cmd")
    if cmd == "hello":
        return {"ok": True, "protocol": 1, "name": f"quirks-{profile}", "version": "1",
                "variant": "cardverse-president", "spec_version": "1.1.0",
                "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True, "seed": True}}, game
    if cmd == "new_game":
        game = new_game(profile, req)
        return {"ok": True, "state": game.state()}, game
    if cmd not in ("legal", "act", "deal", "state"):
        raise Refused("unknown_cmd", None, f"unknown command {cmd!r}")
    if game is None:
        raise Refused("no_game", None, "no game yet")
    if cmd == "legal":
        return {"ok": True, "player": game.to_act, "actions": game.legal()}, game
    if cmd == "act":
        action = req.get("action")
        game.act(req.get("player"), action if isinstance(action, dict) else {})
    elif cmd == "deal":
        if game.phase != "deal_over":
            raise Refused("bad_phase", "game.end", "no next deal now")
        game.begin(read_hands(req["hands"], game.n) if "hands" in req else game.seeded())
    return {"ok": True, "state": game.state()}, game


def main(profile: str) -> None:
    game: Game | None = None
    for line in sys.stdin:
        try:
            try:
                req = json.loads(line)
            except ValueError as exc:
                raise Refused("bad_json", None, str(exc)) from None
            if isinstance(req, dict) and req.get("cmd") == "quit":
                print(json.dumps({"ok": True}), flush=True)
                return
            reply, game = answer(profile, game, req)
        except Refused as exc:
            reply = {"ok": False, "error": {"code": exc.code, "rule": exc.rule, "message": str(exc)}}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in PROFILES:
        sys.exit(f"usage: quirks.py {{{','.join(PROFILES)}}}")
    main(sys.argv[1])
