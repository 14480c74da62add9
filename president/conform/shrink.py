"""Shrink a divergence to a minimal scenario and write it as Gherkin, ready for a bug report.

A candidate is the list of requests of one game: `new_game` with explicit hands, the acts (and
`deal`s) before the divergent request, and that request. Greedy passes drop what is not needed
while the engine still diverges on the same clause: `legal` queries and refused attempts, cards
nobody plays, whole seats (down to 3 players), plays with their cards. Each try replays the
candidate on a fresh reference and on the engine (a few requests, about a millisecond), and the
search stops at its time budget.
"""
from __future__ import annotations

import copy
import time
from typing import Any

from ..game.engine import Ruleset
from ..protocol.server import Session
from ..scenarios.gherkin import scenario_lines
from ..scenarios.model import Op, action_notation, canonical_state, card_key, sort_cards
from ..protocol.client import Client, ProtocolViolation
from .diagnose import Evidence, Finding, diverge

Requests = list[dict[str, Any]]


def _first_divergence(requests: Requests, engine: Client, rules: Ruleset) -> tuple[int, Finding, dict] | None:
    ref = Session(rules)
    try:
        replies = engine.pipeline(requests)
    except ProtocolViolation:
        return None
    before = None
    for i, (req, actual) in enumerate(zip(requests, replies)):
        game = ref.game
        refusal = None
        if req["cmd"] == "legal" and game is not None:
            def refusal(text: str, game=game) -> str:  # noqa: E306
                from ..game.cards import parse_cards
                from ..scenarios.model import notation_action
                a = notation_action(text)
                err = game.check(game.to_act, parse_cards(a.get("cards", [])), give=a["type"] == "give")
                return err.rule if err is not None else ""
        expected = ref.handle(req)
        if i == 0 and not expected.get("ok"):
            return None
        if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
            return None
        try:
            found = diverge(req, expected, actual, before, refusal)
        except ProtocolViolation:
            return None
        if found is not None:
            return i, found, expected
        if i < len(requests) - 1 and req["cmd"] == "act" and not expected["ok"]:
            return None  # only the divergent request may be refused
        if expected.get("ok") and "state" in expected:
            before = expected["state"]
    return None


def _still(requests: Requests, engine: Client, rules: Ruleset, clause: str) -> bool:
    found = _first_divergence(requests, engine, rules)
    return found is not None and found[0] == len(requests) - 1 and found[1].clause == clause


def _without_card(requests: Requests, card: str) -> Requests | None:
    out = copy.deepcopy(requests)
    hands = out[0]["hands"]
    for h in hands:
        if card in h:
            h.remove(card)
            if not h:
                return None
    return out


def _without_seat(requests: Requests, seat: int) -> Requests | None:
    n = len(requests[0]["hands"])
    if n <= 3:
        return None
    out = copy.deepcopy(requests)
    del out[0]["hands"][seat]
    out[0]["config"]["players"] = n - 1
    for r in out[1:]:
        if r["cmd"] == "deal":
            return None
        p = r.get("player")
        if p == seat:
            return None
        if isinstance(p, int) and p > seat:
            r["player"] = p - 1
    return out


def _without_run(requests: Requests, start: int, stop: int) -> Requests | None:
    """The game without requests[start:stop] (acts only) and the cards they played."""
    run = requests[start:stop]
    if any(r["cmd"] != "act" for r in run):
        return None
    out: Requests | None = requests[:start] + requests[stop:]
    for r in run:
        for c in (r["action"].get("cards") or []):
            out = _without_card(out, c) if out else None
    return out


def shrink(ev: Evidence, engine: Client, rules: Ruleset | None = None, budget_s: float = 8.0) -> Requests | None:
    """The smallest game (requests) found that still diverges on `ev.clause`, or None."""
    rules = rules or Ruleset.from_spec()
    reqs = [r for r in ev.requests]
    if not reqs or reqs[0].get("cmd") != "new_game" or "hands" not in reqs[0]:
        return None
    ref = Session(rules)
    kept = []
    for i, r in enumerate(copy.deepcopy(reqs)):  # only what changes the game, and the divergent request
        reply = ref.handle(r)
        if i == 0 or i == len(reqs) - 1 or (r["cmd"] in ("act", "deal") and reply.get("ok")):
            kept.append(r)
    reqs = kept
    if not _still(reqs, engine, rules, ev.clause):
        return None
    deadline = time.perf_counter() + budget_s
    key = card_key(rules.spec)
    changed = True
    while changed and time.perf_counter() < deadline:
        changed = False
        # whole seats
        for seat in range(len(reqs[0]["hands"]) - 1, -1, -1):
            trial = _without_seat(reqs, seat)
            if trial is not None and _still(trial, engine, rules, ev.clause):
                reqs, changed = trial, True
        # runs of plays (whole tricks), with their cards: halving window sizes, as in ddmin
        size = max(2, (len(reqs) - 2) // 2)
        while size >= 2 and time.perf_counter() < deadline:
            i = 1
            while i + size < len(reqs) and time.perf_counter() < deadline:
                trial = _without_run(reqs, i, i + size)
                if trial is not None and _still(trial, engine, rules, ev.clause):
                    reqs, changed = trial, True
                    continue
                i += max(1, size // 4)
            size //= 2
        # plays, with their cards
        i = 1
        while i < len(reqs) - 1 and time.perf_counter() < deadline:
            r = reqs[i]
            trial = None
            if r["cmd"] == "act" and (r.get("action") or {}).get("type") in ("play", "pass"):
                trial = reqs[:i] + reqs[i + 1:]
                for c in (r["action"].get("cards") or []):
                    trial = _without_card(trial, c) if trial else None
            if trial is not None and _still(trial, engine, rules, ev.clause):
                reqs, changed = trial, True
                continue
            i += 1
        # cards nobody plays
        used = {c for r in reqs[1:] for c in ((r.get("action") or {}).get("cards") or [])}
        for card in sorted({c for h in reqs[0]["hands"] for c in h} - used, key=key, reverse=True):
            if time.perf_counter() >= deadline:
                break
            trial = _without_card(reqs, card)
            if trial is not None and _still(trial, engine, rules, ev.clause):
                reqs, changed = trial, True
    if not any(r["cmd"] == "deal" for r in reqs):
        trial = copy.deepcopy(reqs)
        trial[0]["config"]["deals"] = 1
        if _still(trial, engine, rules, ev.clause):
            reqs = trial
    return reqs


def _act_op(req: dict[str, Any], tried: bool) -> Op:
    action = req["action"]
    kind = action["type"]
    prefix = "try-" if tried else ""
    if kind == "pass":
        return Op.of(prefix + "pass", seat=req["player"])
    return Op.of(prefix + kind, seat=req["player"], cards=list(sort_cards(action["cards"])))


def _state_ops(state: dict[str, Any], fields: list[str]) -> list[Op]:
    s = canonical_state(state)
    ops = []
    for f in fields:
        if f == "to_act":
            ops.append(Op.of("nobody-to-act") if s["to_act"] is None else Op.of("to-act", seat=s["to_act"]))
        elif f == "trick":
            t = s["trick"]
            ops.append(Op.of("trick-empty") if t is None else Op.of("trick", cards=t["cards"], seat=t["by"]))
        elif f == "passed":
            ops.append(Op.of("passed", seats=s["passed"]) if s["passed"] else Op.of("nobody-passed"))
        elif f == "finished":
            ops.append(Op.of("finished", seats=s["finished"]) if s["finished"] else Op.of("nobody-finished"))
        elif f == "scores":
            ops.append(Op.of("scores", scores=s["scores"]))
        elif f == "order":
            ops.append(Op.of("order-" + s["order"]))
        elif f == "phase":
            ops.append(Op.of("phase-" + s["phase"].replace("_", "-")))
        elif f == "hands":
            ops += [Op.of("hand", seat=i, cards=h) if h else Op.of("hand-empty", seat=i) for i, h in enumerate(s["hands"])]
    return ops


def scenario_ops(requests: Requests, rules: Ruleset, fields: list[str]) -> list[Op]:
    """The game as scenario steps, the last request checked against the reference's answer."""
    ref = Session(rules)
    first = requests[0]
    cfg = first["config"]
    ops = [Op.of("table", players=cfg["players"], revolution=cfg.get("revolution", True))]
    if cfg.get("deals", 1) > 1:
        ops.append(Op.of("deals", deals=cfg["deals"]))
    ops += [Op.of("holds", seat=i, cards=list(sort_cards(h))) for i, h in enumerate(first["hands"])]
    ops.append(Op.of("start"))
    before = ref.handle(first)
    last = len(requests) - 1
    for i, req in enumerate(requests[1:], start=1):
        reply = ref.handle(req)
        if req["cmd"] == "act":
            ops.append(_act_op(req, not reply["ok"]))
            if not reply["ok"]:
                ops.append(Op.of("refused", rule=reply["error"]["rule"]))
        elif req["cmd"] == "deal":
            ops.append(Op.of("deal", hands=[list(sort_cards(h)) for h in req["hands"]]))
        elif req["cmd"] == "legal" and i == last:
            ops.append(Op.of("legal", actions=sorted(action_notation(a) for a in reply["actions"])))
        if i == last and reply.get("ok") and "state" in reply:
            ops += _state_ops(reply["state"], fields)
        if reply.get("ok") and "state" in reply:
            before = reply
    if last == 0:
        ops += _state_ops(before["state"], fields)
    return ops


def differing_fields(requests: Requests, engine: Client, rules: Ruleset) -> list[str]:
    """The rule fields of STATE where the engine's answer to the last request differs."""
    from .diagnose import RULE_FIELDS, rule_view

    ref = Session(rules)
    expected = [ref.handle(r) for r in requests][-1]
    actual = engine.pipeline(requests)[-1]
    if not (expected.get("ok") and isinstance(actual, dict) and actual.get("ok") and "state" in actual):
        return ["to_act", "trick"] if expected.get("ok") and "state" in expected else []
    e, a = rule_view(expected["state"]), rule_view(actual["state"])
    return [f for f in RULE_FIELDS if f in e and e.get(f) != a.get(f) and f not in ("phase", "deal")]


def gherkin(requests: Requests, engine: Client, rules: Ruleset, title: str) -> str:
    """A Gherkin scenario (English steps) of the shrunk game: the reference's answer is expected."""
    ops = scenario_ops(requests, rules, differing_fields(requests, engine, rules))
    return "\n".join([f"  Scenario: {title}"] + scenario_lines(tuple(ops), "    ")) + "\n"
