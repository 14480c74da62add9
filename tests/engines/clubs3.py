#!/usr/bin/env python3
"""clubs3.py: a President engine written from the published rule sheets (it imports nothing
from `president` and shares no code with president/game/), serving engine protocol v1 on
stdin/stdout (replies only). `python tests/engines/clubs3.py`

What it plays: CardVerse 1.1.0, except who leads the first deal. Here the player holding the
3 of clubs leads the first deal (seat 0 if nobody holds it, as with partial hands), and that
player chooses the first play freely: the 3 of clubs need not be in it. This is a look-alike of
the spec's house rule first_lead = holder:3C, which also requires that card in the first play
(clause option.first-lead.holder) and refuses hands in which nobody holds it; this engine does
neither. It declares no first_lead option. Later deals are led by the previous last place, as
in 1.1.0. Everything else is 1.1.0.

Representation: a card is a (rank, suit) tuple of indexes; a hand is a list of tuples kept
sorted; the table is a plain dict.
"""
from __future__ import annotations

import itertools
import json
import sys

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2")
SUITS = ("C", "D", "H", "S")
OPTIONS = ("revolution", "deals", "equality", "sequences", "jokers", "first_lead", "leader_may_pass", "scoring")
DEFAULTS = {"equality": (False, "option.equality.on"), "sequences": (False, "option.sequences.on"),
            "jokers": (0, "option.jokers.two"), "first_lead": ("seat0", "option.first-lead.holder"),
            "leader_may_pass": (False, "option.leader-may-pass.on"), "scoring": ("places", "option.scoring.none")}
THREE_OF_CLUBS = (0, 0)


class No(Exception):
    """A refused request: the table is left as it was."""

    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code, self.rule, self.message = code, rule, message


def parse(text) -> tuple[int, int]:
    if text in ("X1", "X2"):
        raise No("bad_card", "setup.no-jokers-sequences", "there are no jokers")
    if not isinstance(text, str) or len(text) < 2 or text[:-1] not in RANKS or text[-1] not in SUITS:
        raise No("bad_card", None, f"not a card: {text!r}")
    return RANKS.index(text[:-1]), SUITS.index(text[-1])


def show(cards) -> list[str]:
    return [RANKS[r] + SUITS[s] for r, s in sorted(cards)]


def parse_list(value) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise No("bad_field", None, "cards must be a list")
    return [parse(c) for c in value]


def parse_hands(value, n: int) -> list[list[tuple[int, int]]]:
    if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
        raise No("bad_field", None, "hands must be a list of lists of cards")
    if len(value) != n:
        raise No("bad_hands", "setup.partial-hands", f"{n} hands expected")
    if any(c in ("X1", "X2") for h in value for c in h):
        raise No("bad_hands", "setup.no-jokers-sequences", "there are no jokers")
    hands = [sorted(parse_list(h)) for h in value]
    if any(not h for h in hands):
        raise No("bad_hands", "setup.partial-hands", "every hand needs a card")
    every = [c for h in hands for c in h]
    if len(every) != len(set(every)):
        raise No("bad_hands", "setup.partial-hands", "a card is dealt twice")
    return hands


def read_config(cfg) -> dict:
    if not isinstance(cfg, dict):
        raise No("bad_field", None, "config must be an object")
    for key in cfg:
        if key != "players" and key not in OPTIONS:
            raise No("unknown_option", None, f"unknown option {key!r}")
    n = cfg.get("players")
    if type(n) is not int or not 3 <= n <= 6:
        raise No("bad_config", "setup.players", "3 to 6 players")
    deals = cfg.get("deals", 1)
    if type(deals) is not int or deals < 1:
        raise No("bad_config", "game.end", "deals must be a whole number >= 1")
    revolution = cfg.get("revolution", True)
    if type(revolution) is not bool:
        raise No("bad_config", "revolution.option-off", "revolution is true or false")
    for key, (value, rule) in DEFAULTS.items():
        if key in cfg and (cfg[key] != value or type(cfg[key]) is not type(value)):
            raise No("bad_config", rule, f"{key}={cfg[key]!r} is not played by this engine")
    return {"n": n, "deals": deals, "revolution": revolution}


def new_table(cfg: dict) -> dict:
    return {"n": cfg["n"], "deals": cfg["deals"], "revolution": cfg["revolution"], "deal": 0,
            "scores": [0] * cfg["n"], "ranking": None}


def begin_deal(t: dict, hands: list[list[tuple[int, int]]]) -> None:
    t.update(deal=t["deal"] + 1, hands=hands, flipped=False, trick=None, passed=set(), out=[], owed=[])
    ranking = t["ranking"]
    if ranking is None:
        holder = next((s for s, h in enumerate(hands) if THREE_OF_CLUBS in h), 0)
        t.update(phase="play", turn=holder)
        return
    n = t["n"]
    pairs = [(ranking[-1], ranking[0], 2, "exchange.scum")]
    if n >= 4:
        pairs.append((ranking[-2], ranking[1], 1, "exchange.vice"))
    for low, high, k, rule in pairs:
        best = sorted(t["hands"][low])[-k:]
        hand_over(t, low, high, best)
        t["owed"].append((high, low, k, rule))
    t.update(phase="exchange", turn=t["owed"][0][0])


def hand_over(t: dict, giver: int, taker: int, cards) -> None:
    t["hands"][giver] = [c for c in t["hands"][giver] if c not in cards]
    t["hands"][taker] = sorted(t["hands"][taker] + list(cards))


def beats(t: dict, cards, top) -> bool:
    if len(cards) != len(top):
        return False
    mine, theirs = cards[0][0], top[0][0]
    return mine < theirs if t["flipped"] else mine > theirs


def legal(t: dict) -> list[dict]:
    if t["phase"] == "exchange":
        giver, _, k, _ = t["owed"][0]
        return [{"type": "give", "cards": show(c)} for c in itertools.combinations(t["hands"][giver], k)]
    if t["phase"] != "play":
        return []
    acts = [{"type": "pass"}] if t["trick"] else []
    hand = t["hands"][t["turn"]]
    for _, group in itertools.groupby(hand, key=lambda c: c[0]):
        group = list(group)
        for k in range(1, len(group) + 1):
            for combo in itertools.combinations(group, k):
                if t["trick"] is None or beats(t, combo, t["trick"][0]):
                    acts.append({"type": "play", "cards": show(combo)})
    return acts


def act(t: dict, seat, action) -> None:
    if t["phase"] in ("deal_over", "game_over"):
        raise No("bad_phase", "game.end" if t["phase"] == "game_over" else "deal.end", "the deal is over")
    if type(seat) is not int:
        raise No("bad_field", None, "player must be a seat number")
    if not 0 <= seat < t["n"]:
        raise No("bad_seat", "turn.order", f"no seat {seat}")
    if not isinstance(action, dict) or action.get("type") not in ("play", "pass", "give"):
        raise No("bad_field", None, "action type must be play, pass or give")
    kind = action["type"]
    cards = [] if kind == "pass" else parse_list(action.get("cards"))
    hand = t["hands"][seat]
    if t["phase"] == "exchange":
        giver, taker, k, rule = t["owed"][0]
        if kind != "give":
            raise No("bad_phase", "exchange.order", "the exchange comes first")
        if seat != giver:
            raise No("not_your_turn", "exchange.order", f"seat {giver} gives back now")
        if len(set(cards)) != len(cards) or not set(cards) <= set(hand):
            raise No("not_in_hand", "play.own-cards", "you do not hold these cards")
        if len(cards) != k:
            raise No("wrong_count", rule, f"give back {k} card(s)")
        hand_over(t, seat, taker, cards)
        t["owed"].pop(0)
        if t["owed"]:
            t["turn"] = t["owed"][0][0]
        else:
            t.update(phase="play", turn=t["ranking"][-1])
        return
    if kind == "give":
        raise No("bad_phase", "exchange.order", "no exchange now")
    if seat != t["turn"]:
        if not hand:
            raise No("not_your_turn", "flow.out", "you are out of this deal")
        if seat in t["passed"]:
            raise No("not_your_turn", "pass.final", "you passed in this trick")
        raise No("not_your_turn", "turn.order", f"seat {t['turn']} is to act")
    if kind == "pass":
        if t["trick"] is None:
            raise No("must_play", "lead.must-play", "the leader must play")
        t["passed"].add(seat)
        after(t, seat)
        return
    if len(set(cards)) != len(cards) or not set(cards) <= set(hand):
        raise No("not_in_hand", "play.own-cards", "you do not hold these cards")
    if not 1 <= len(cards) <= 4:
        raise No("wrong_count", "flow.lead", "play 1 to 4 cards")
    if len({r for r, _ in cards}) > 1:
        raise No("mixed_ranks", "play.same-rank", "the cards must have one rank")
    if t["trick"] is not None:
        top = t["trick"][0]
        if len(cards) != len(top):
            raise No("wrong_count", "play.count-matches", f"play {len(top)} card(s)")
        if not beats(t, cards, top):
            raise No("not_higher", "play.strictly-higher", "not higher in the current order")
    t["hands"][seat] = [c for c in hand if c not in cards]
    t["trick"] = (sorted(cards), seat)
    if t["revolution"] and len(cards) == 4:
        t["flipped"] = not t["flipped"]
    if not t["hands"][seat]:
        t["out"].append(seat)
        still = [s for s in range(t["n"]) if t["hands"][s]]
        if len(still) == 1:
            finish(t, still[0])
            return
    after(t, seat)


def after(t: dict, seat: int) -> None:
    n, by = t["n"], t["trick"][1] if t["trick"] else None
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s != by and t["hands"][s] and s not in t["passed"]:
            t["turn"] = s
            return
    t["trick"], t["passed"] = None, set()
    s = by
    while not t["hands"][s]:
        s = (s + 1) % n
    t["turn"] = s


def finish(t: dict, last: int) -> None:
    t["out"].append(last)
    n = t["n"]
    for place, s in enumerate(t["out"]):
        t["scores"][s] += n - place
    t.update(ranking=list(t["out"]), turn=None, trick=None, passed=set(), flipped=False,
             phase="game_over" if t["deal"] >= t["deals"] else "deal_over")


def view(t: dict) -> dict:
    return {"phase": t["phase"], "deal": t["deal"], "to_act": t["turn"],
            "order": "reversed" if t["flipped"] else "normal",
            "trick": None if t["trick"] is None else {"cards": show(t["trick"][0]), "by": t["trick"][1]},
            "passed": sorted(t["passed"]), "hands": [show(h) for h in t["hands"]],
            "finished": list(t["out"]), "scores": list(t["scores"])}


HELLO = {"ok": True, "protocol": 1, "name": "clubs3-py", "version": "1.0", "variant": "cardverse-president",
         "spec_version": "1.1.0", "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True}}


def handle(req, table: dict | None) -> tuple[dict, dict | None]:
    cmd = req.get("cmd")
    if cmd == "hello":
        return HELLO, table
    if cmd == "quit":
        return {"ok": True}, table
    if cmd == "new_game":
        cfg = read_config(req.get("config", {}))
        if "hands" not in req:
            raise No("missing_field", "setup.dealing", "this engine has no shuffle: give the hands")
        hands = parse_hands(req["hands"], cfg["n"])
        fresh = new_table(cfg)
        begin_deal(fresh, hands)
        return {"ok": True, "state": view(fresh)}, fresh
    if cmd not in ("deal", "legal", "act", "state"):
        raise No("unknown_cmd", None, f"unknown command {cmd!r}")
    if table is None:
        raise No("no_game", None, "send new_game first")
    if cmd == "state":
        return {"ok": True, "state": view(table)}, table
    if cmd == "legal":
        return {"ok": True, "player": table["turn"], "actions": legal(table)}, table
    if cmd == "deal":
        if table["phase"] != "deal_over":
            raise No("bad_phase", "game.end" if table["phase"] == "game_over" else "deal.end", "no next deal now")
        if "hands" not in req:
            raise No("missing_field", "setup.dealing", "this engine has no shuffle: give the hands")
        begin_deal(table, parse_hands(req["hands"], table["n"]))
        return {"ok": True, "state": view(table)}, table
    if "player" not in req or "action" not in req:
        raise No("missing_field", None, "act needs player and action")
    act(table, req["player"], req["action"])
    return {"ok": True, "state": view(table)}, table


def main() -> None:
    table = None
    for line in sys.stdin:
        if not line.strip():
            continue
        quit_now = False
        try:
            try:
                req = json.loads(line)
            except (ValueError, RecursionError):
                raise No("bad_json", None, "the line is not JSON") from None
            if not isinstance(req, dict):
                raise No("bad_request", None, "a request is a JSON object")
            # work on a copy so that a refusal half-way leaves the table as it was
            work = None if table is None else json.loads(json.dumps(snapshot(table)))
            reply, new = handle(req, restore(work) if work is not None else None)
            table = new
            quit_now = req.get("cmd") == "quit"
        except No as no:
            reply = {"ok": False, "error": {"code": no.code, "rule": no.rule, "message": no.message}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if quit_now:
            return


def snapshot(t: dict) -> dict:
    out = dict(t)
    out["passed"] = sorted(t["passed"])
    return out


def restore(t: dict) -> dict:
    """Back from the JSON copy: cards are tuples again, passes a set."""
    t["passed"] = set(t["passed"])
    t["hands"] = [[tuple(c) for c in h] for h in t["hands"]]
    if t["trick"] is not None:
        t["trick"] = ([tuple(c) for c in t["trick"][0]], t["trick"][1])
    t["owed"] = [tuple(o) for o in t["owed"]]
    return t


if __name__ == "__main__":
    main()
