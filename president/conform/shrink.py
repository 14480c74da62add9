"""Shrink a divergence to a minimal scenario, confirm it on the engine, and write it as Gherkin.

A candidate is the list of requests of one game: `new_game` with explicit hands, the acts (and
`deal`s) before the divergent request, and that request. Delta debugging (`ddmin`) removes what
is not needed while the engine still diverges there on the same clause: steps (plays and passes,
with the cards they played), whole seats (down to the spec's minimum), cards nobody plays. Each
try pipelines the candidate to the engine and replays it on a fresh reference under the variant
in force (the options the engine declared plus the variant the fit explains); a difference in a
STATE field or a legal list before the last request is allowed (the reference then adopts the
engine's state, as in lock-step), a request accepted by one and refused by the other is not, so
every step of the scenario stays one the reference accepts. The search stops at its budget.

The minimal game is turned into scenario steps (the reference's answers to the last request are
expected) and run against the engine like any scenario: it is `confirmed` when it still fails
there. Deviations whose divergence came after another one are shrunk the same way.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..game.engine import Ruleset
from ..protocol.client import Client, ProtocolViolation
from ..protocol.server import Session
from ..scenarios.gherkin import scenario_lines
from ..scenarios.model import (OPTION_STEPS, Op, Scenario, action_notation, canonical_state, option_defaults,
                               sort_cards)
from .diagnose import Evidence, Finding, RULE_FIELDS, rule_view
from .records import Mechanism, mechanism
from .replay import Replayer, override
from .toolkit import NO_DEADLINE, Deadline

Requests = list[dict[str, Any]]


@dataclass
class Replay:
    """The reference's side of a candidate: where it diverges, and the reference's last answer."""

    index: int
    finding: Finding
    expected: dict[str, Any]
    actual: dict[str, Any]
    before: dict[str, Any] | None = None  # the reference's STATE before the last request
    request: dict[str, Any] | None = None  # the last request

    @property
    def mechanism(self) -> Mechanism:
        """What differs at the last request (`records.mechanism`)."""
        return mechanism({} if self.request is None else self.request, self.expected, self.actual, self.before)


def with_variant(req: dict[str, Any], variant: dict[str, Any] | None) -> dict[str, Any]:
    if not variant or req.get("cmd") != "new_game":
        return req
    return {**req, "config": {**(req.get("config") or {}), **variant}}


def replay(requests: Requests, replies: list[Any], rules: Ruleset, variant: dict[str, Any] | None = None,
           deadline: Deadline = NO_DEADLINE) -> Replay | None:
    """Compare the engine's replies with the reference under `variant` (`replay.Replayer`): the
    divergence at the last request, or None when there is none there, or an earlier request is
    accepted by one side only (a difference in a STATE field or a legal list before the last
    request is allowed: the reference takes up the engine's state)."""
    if variant and requests and not Session(rules).handle(with_variant(requests[0], variant)).get("ok"):
        return None  # the reference refuses this table under the variant
    rep = Replayer(rules, override(variant) if variant else None, deadline=deadline)
    last = len(requests) - 1
    for i, (req, actual) in enumerate(zip(requests, replies)):
        step = rep.step(req, actual)
        found = step.finding
        if i == 0 and not step.expected.get("ok"):
            return None
        if found is not None and found.kind == "protocol":
            return None
        if i == last:
            return Replay(i, found, step.expected, actual, step.before, req) if found is not None else None
        if step.expected.get("ok") != actual.get("ok") or (req.get("cmd") == "act" and not step.expected.get("ok")):
            return None  # every step before the last is one both accept
        if step.stop is not None:
            return None  # a STATE the reference cannot follow
    return None


def _changing(reqs: Requests, engine: Client, rules: Ruleset, variant: dict[str, Any] | None,
              s: "Shrinker") -> Requests:
    """The requests that change the game (the acts and deals both sides accept, the reference
    following the engine as in lock-step), the new_game and the divergent request: queries, and
    acts both refuse, go."""
    last = len(reqs) - 1
    reqs = [r for i, r in enumerate(reqs) if i in (0, last) or r.get("cmd") in ("act", "deal")]  # queries go
    try:
        replies = engine.pipeline(reqs)
    except ProtocolViolation:
        engine.restart()
        replies = None
    rep = Replayer(rules, override(variant) if variant else None, deadline=Deadline.of(engine))
    ref = Session(rules)
    kept = []
    for i, r in enumerate(copy.deepcopy(reqs)):
        if replies is not None:
            actual = replies[i]
            ok = rep.step(r, actual).expected.get("ok") and isinstance(actual, dict) and actual.get("ok")
        else:  # no reply to follow: the reference's own game
            ok = ref.handle(with_variant(r, variant)).get("ok")
        if i in (0, len(reqs) - 1) or ok:  # every other request left is an act or a deal
            kept.append(r)
    s.tries += 1
    return kept


class Shrinker:
    """One deviation's search: the engine, the rules and variant, the clause and mechanism (None: any),
    the deadline."""

    def __init__(self, engine: Client, rules: Ruleset, clause: str, variant: dict[str, Any] | None, deadline: float,
                 mech: Mechanism | None = None):
        self.engine, self.rules, self.clause, self.variant, self.deadline = engine, rules, clause, variant, deadline
        self.mech = mech
        self.tries = 0
        self.min_players = rules.spec.players.min

    def still(self, requests: Requests | None) -> bool:
        """Does the engine still diverge on the clause, by the same mechanism, at the last request?"""
        if requests is None:
            return False
        self.tries += 1
        try:
            replies = self.engine.pipeline(requests)
        except ProtocolViolation:
            self.engine.restart()
            return False
        found = replay(requests, replies, self.rules, self.variant, Deadline.of(self.engine))
        return found is not None and found.finding.clause == self.clause and (
            self.mech is None or found.mechanism == self.mech)

    def left(self) -> bool:
        return time.perf_counter() < self.deadline


def ddmin(items: list[Any], test: Callable[[list[Any]], bool], left: Callable[[], bool]) -> list[Any]:
    """Delta debugging (Zeller): a 1-minimal subset of `items` that still passes `test` (as far as
    the time `left` allows), trying to remove chunks of halving size."""
    n = 2
    while len(items) >= 1 and left():
        size = max(1, -(-len(items) // n))
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for chunk in chunks:
            if not left():
                return items
            rest = [x for x in items if x not in chunk]
            if test(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if size == 1:
                break
            n = min(len(items), n * 2)
    return items


def _without_cards(requests: Requests, cards: set[str]) -> Requests | None:
    out = copy.deepcopy(requests)
    for h in out[0]["hands"]:
        h[:] = [c for c in h if c not in cards]
        if not h:
            return None
    return out


def _keep_steps(requests: Requests, removable: list[int], kept: list[int]) -> Requests | None:
    """The game without the removable steps not in `kept`, and the cards those steps played."""
    gone = set(removable) - set(kept)
    cards = {c for i in gone for c in ((requests[i].get("action") or {}).get("cards") or [])}
    out = [r for i, r in enumerate(requests) if i not in gone]
    return _without_cards(out, cards) if cards else copy.deepcopy(out)


def _keep_seats(requests: Requests, kept: list[int]) -> Requests | None:
    seats = sorted(kept)
    n = len(requests[0]["hands"])
    if len(seats) == n:
        return copy.deepcopy(requests)
    new = {s: i for i, s in enumerate(seats)}
    out = copy.deepcopy(requests)
    out[0]["hands"] = [out[0]["hands"][s] for s in seats]
    out[0]["config"]["players"] = len(seats)
    kept_reqs = [out[0]]
    for i, r in enumerate(out[1:], start=1):
        if r["cmd"] == "deal":
            return None
        p = r.get("player")
        if isinstance(p, int):
            if p not in new:
                if i == len(out) - 1:
                    return None
                continue  # a removed seat's acts go with it (its cards went with its hand)
            r["player"] = new[p]
        kept_reqs.append(r)
    return kept_reqs


def shrink(ev: Evidence, engine: Client, rules: Ruleset | None = None, budget_s: float = 8.0,
           variant: dict[str, Any] | None = None, mech: Mechanism | None = None) -> Requests | None:
    """The smallest game (requests) found that still diverges on `ev.clause` (by the mechanism
    `mech`, when given: the same bug, not another one of the clause), or None."""
    rules = rules or Ruleset.from_spec()
    variant = {**(ev.variant or {}), **(variant or {})} or None  # the house rules it was found under, too
    reqs = list(ev.requests)
    if not reqs or reqs[0].get("cmd") != "new_game" or "hands" not in reqs[0]:
        return None
    if any(r.get("cmd") == "deal" and "hands" not in r for r in reqs):
        return None  # a seeded later deal: its cards before the exchange are the engine's
    s = Shrinker(engine, rules, ev.clause, variant, time.perf_counter() + budget_s, mech)
    kept = _changing(reqs, engine, rules, variant, s)
    reqs = kept if s.still(kept) else reqs
    if not s.still(reqs):
        return None
    reqs = _jump(reqs, s, variant) or reqs
    size = None
    while s.left() and size != _size(reqs):
        size = _size(reqs)
        steps = [i for i in range(1, len(reqs) - 1) if reqs[i]["cmd"] == "act"
                 and (reqs[i].get("action") or {}).get("type") in ("play", "pass")]
        small = ddmin(steps, lambda k: s.still(_keep_steps(reqs, steps, k)), s.left)
        reqs = _keep_steps(reqs, steps, small) or reqs
        n = len(reqs[0]["hands"])
        if n > s.min_players and not any(r["cmd"] == "deal" for r in reqs):
            seats = ddmin(list(range(n)), lambda k: len(k) >= s.min_players and s.still(_keep_seats(reqs, k)), s.left)
            reqs = _keep_seats(reqs, seats) or reqs
        used = {c for r in reqs[1:] for c in ((r.get("action") or {}).get("cards") or [])}
        spare = sorted({c for h in reqs[0]["hands"] for c in h} - used)
        keep = ddmin(spare, lambda k: s.still(_without_cards(reqs, set(spare) - set(k))), s.left)
        reqs = _without_cards(reqs, set(spare) - set(keep)) or reqs
    if not any(r["cmd"] == "deal" for r in reqs) and reqs[0]["config"].get("deals", 1) != 1:
        trial = copy.deepcopy(reqs)
        trial[0]["config"]["deals"] = 1
        if s.still(trial):
            reqs = trial
    return reqs


def _jump(reqs: Requests, s: Shrinker, variant: dict[str, Any] | None) -> Requests | None:
    """The game started afresh at a later trick: the hands held then (seats that went out left
    out), turned so that the trick's leader is seat 0, who leads a new game. Tried from the last
    trick before the divergence backwards; the first that still diverges is kept."""
    if (with_variant(reqs[0], variant)["config"].get("first_lead") or "seat0") != "seat0":
        return None
    ref = Session(s.rules)
    starts: list[tuple[int, dict[str, Any]]] = []
    for i, req in enumerate(reqs[:-1]):
        reply = ref.handle(with_variant(req, variant))
        if req["cmd"] == "deal" or not reply.get("ok") or "state" not in reply:
            starts = [] if req["cmd"] == "deal" else starts
            continue
        st = reply["state"]
        if i > 0 and st["phase"] == "play" and st["trick"] is None and st["order"] == "normal" and st["to_act"] is not None:
            starts.append((i, st))
    for i, st in reversed(starts):
        if not s.left():
            return None
        seats = [p for p in range(len(st["hands"])) if st["hands"][p]]
        if len(seats) < s.min_players or any(r.get("cmd") == "deal" for r in reqs[i + 1:]):
            continue
        lead = seats.index(st["to_act"])
        order = seats[lead:] + seats[:lead]
        new = {p: k for k, p in enumerate(order)}
        first = copy.deepcopy(reqs[0])
        first["hands"] = [list(st["hands"][p]) for p in order]
        first["config"]["players"], first["config"]["deals"] = len(order), 1
        rest = copy.deepcopy(reqs[i + 1:])
        if any(isinstance(r.get("player"), int) and r["player"] not in new for r in rest):
            continue
        for r in rest:
            if isinstance(r.get("player"), int):
                r["player"] = new[r["player"]]
        trial = [first] + rest
        if s.still(trial):
            return trial
    return None


def shrink_seeded(ev: Evidence, engine: Client, rules: Ruleset, variant: dict[str, Any] | None = None
                  ) -> tuple[Requests, list[Op]] | None:
    """A seeded deal that breaks the dealing rules: the smallest table (one deal) where the engine's
    own deal from that seed still shows it, with the hand sizes the reference deals as the check."""
    from .diagnose import check_seeded

    first = ev.requests[-1] if ev.requests else {}
    if first.get("cmd") != "new_game" or "seed" not in first:
        return None
    for players in range(rules.spec.players.min, rules.spec.players.max + 1):
        req = {"cmd": "new_game", "config": {**first["config"], "players": players, "deals": 1}, "seed": first["seed"]}
        try:
            reply = engine.pipeline([req])[0]
        except ProtocolViolation:
            return None
        if not (isinstance(reply, dict) and isinstance(reply.get("ok"), bool)):
            return None
        finding, expected, _ = check_seeded(with_variant(req, variant), Session(rules), reply, None, rules)
        if finding is not None and finding.clause == ev.clause and expected.get("ok"):
            ops = table_ops(with_variant(req, variant)["config"]) + [Op.of("seed", seed=req["seed"]), Op.of("start"),
                                                                     Op.of("hand-sizes", sizes=[
                                                                         len(h) for h in expected["state"]["hands"]])]
            return [req], ops
    return None


def _size(reqs: Requests) -> tuple[int, int, int]:
    return len(reqs), len(reqs[0]["hands"]), sum(len(h) for h in reqs[0]["hands"])


def size_of(reqs: Requests) -> dict[str, int]:
    """Seats, plays (accepted acts and deals before the last request) and cards of a game."""
    hands = reqs[0].get("hands")
    seats = len(hands) if hands is not None else int((reqs[0].get("config") or {}).get("players") or 0)
    return {"seats": seats, "plays": sum(r.get("cmd") in ("act", "deal") for r in reqs[1:-1]),
            "cards": sum(len(h) for h in hands) if hands is not None else 0}  # 0: dealt from a seed


# --- as scenario steps ------------------------------------------------------------------
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
            ops += [Op.of("hand", seat=i, cards=h) if h else Op.of("hand-empty", seat=i)
                    for i, h in enumerate(s["hands"])]
    return ops


def table_ops(config: dict[str, Any]) -> list[Op]:
    """The table of a game's config as Given steps: players, then the options it sets."""
    ops = [Op.of("table", players=config["players"])]
    defaults = option_defaults()
    for name, step in OPTION_STEPS.items():
        if name in config and (config[name] != defaults.get(name) or name == "revolution" and not config[name]):
            ops.append(Op.of(step, **{name: config[name]}))
    if config.get("deals", 1) > 1:
        ops.append(Op.of("deals", deals=config["deals"]))
    return ops


def scenario_ops(requests: Requests, rules: Ruleset, fields: list[str], variant: dict[str, Any] | None = None
                 ) -> list[Op]:
    """The game as scenario steps, the last request checked against the reference's answer."""
    first = with_variant(requests[0], variant)
    ops = table_ops(first["config"])
    ops += [Op.of("holds", seat=i, cards=list(sort_cards(h))) for i, h in enumerate(first["hands"])]
    ops.append(Op.of("start"))
    ref = Session(rules)
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


def differing_fields(requests: Requests, engine: Client, rules: Ruleset, variant: dict[str, Any] | None = None
                     ) -> list[str]:
    """The rule fields of STATE where the engine's answer to the last request differs."""
    ref = Session(rules)
    expected = [ref.handle(with_variant(r, variant)) for r in requests][-1]
    actual = engine.pipeline(requests)[-1]
    if not (expected.get("ok") and isinstance(actual, dict) and actual.get("ok") and "state" in actual):
        return ["to_act", "trick"] if expected.get("ok") and "state" in expected else []
    e, a = rule_view(expected["state"]), rule_view(actual["state"])
    return [f for f in RULE_FIELDS if f in e and e.get(f) != a.get(f) and f not in ("phase", "deal")]


def minimal_scenario(requests: Requests, engine: Client, rules: Ruleset, clause: str, title: str,
                     variant: dict[str, Any] | None = None, field: str = "") -> Scenario:
    """The minimal game as a scenario checking the fields where the engine differs, and always
    `field` (the deviation's mechanism: the property that differs) when it is a STATE field."""
    fields = differing_fields(requests, engine, rules, variant)
    if field in FIELD_CHECKS and field not in fields:
        fields.insert(0, field)
    ops = scenario_ops(requests, rules, fields, variant)
    return Scenario(f"{clause}/minimal", clause, clause.split(".")[0], title, tuple(ops))


#: The scenario steps that check each STATE field (a minimal scenario asserts the one that differs).
FIELD_CHECKS = {"to_act": ("to-act", "nobody-to-act"), "trick": ("trick", "trick-empty"),
                "passed": ("passed", "nobody-passed"), "finished": ("finished", "nobody-finished"),
                "scores": ("scores",), "order": ("order-normal", "order-reversed"), "hands": ("hand", "hand-empty"),
                "phase": tuple(f"phase-{p}" for p in ("play", "exchange", "deal-over", "game-over"))}


def asserts(scenario: Scenario, mech: Mechanism | None) -> bool:
    """Does the scenario check the property that differs by `mech` (a STATE field, a refusal, a
    legal list, an acceptance)?"""
    if mech is None:
        return True
    keys = {op.key for op in scenario.ops}
    if mech.differs in FIELD_CHECKS:
        return bool(keys & set(FIELD_CHECKS[mech.differs]))
    if mech.differs == "accepted":  # the engine accepts what the scenario expects refused
        return bool(keys & {"refused", "legal"})
    if mech.differs == "refused":  # the engine refuses an act the scenario makes (or leaves it out of legal)
        return "legal" in keys or any(k in ("play", "pass", "give", "deal") for k in keys)
    return True


def confirm(scenario: Scenario, engine: Client, options: dict[str, Any] | None = None,
            mech: Mechanism | None = None) -> bool:
    """Run the minimal scenario against the engine like any scenario: does it still fail there, on
    its clause and by the deviation's mechanism `mech` (when given), and does it assert that property?"""
    from .runner import run_scenario

    result = run_scenario(engine, scenario, options=None)
    if result.outcome not in ("fail", "blocked") or not asserts(scenario, mech):
        return False
    if result.root is None:
        return True
    if result.root.clause != scenario.clause:
        return False
    ev = result.evidence
    if mech is None or ev is None or not ev.requests:
        return True
    return mechanism(ev.requests[-1], ev.expected, ev.actual, ev.before) == mech


def gherkin_of(scenario: Scenario) -> str:
    return "\n".join([f"  Scenario: {scenario.name}"] + scenario_lines(scenario.ops, "    ")) + "\n"


def gherkin(requests: Requests, engine: Client, rules: Ruleset, title: str, variant: dict[str, Any] | None = None
            ) -> str:
    """A Gherkin scenario (English steps) of the shrunk game: the reference's answer is expected."""
    return gherkin_of(minimal_scenario(requests, engine, rules, "", title, variant))
