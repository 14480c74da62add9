"""Spec examples → executable scenarios.

A scenario is a list of `Op`s, each one step phrase of `president.steps.STEP_TEMPLATES`
(template key + arguments). The feature generator renders the ops, pytest-bdd parses the
phrases back into the same ops, and `ScenarioRun.execute` runs an op against any client
speaking protocol v1. A scenario reaches its situation through `new_game` with explicit
hands (or a seed), `deal` and `act` only.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator

from ..game.cards import RANK_SYMBOLS, SUIT_SYMBOLS
from ..spec import Example, Expect, Spec, Step
from .steps import TEMPLATES, normalize_args, render
from ..protocol.client import Client, ProtocolViolation
from ..errors import PresidentError


@dataclass(frozen=True)
class Op:
    key: str  # a key of STEP_TEMPLATES
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **args: Any) -> "Op":
        return cls(key, tuple(sorted(normalize_args(key, args).items())))

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.args)

    @property
    def kind(self) -> str:
        return TEMPLATES[self.key].kind

    @property
    def text(self) -> str:
        return render(self.key, self.kwargs)


@dataclass(frozen=True)
class Scenario:
    id: str  # clause-id/slug, stable
    clause: str
    section: str
    name: str
    ops: tuple[Op, ...]
    requires: tuple[tuple[str, Any], ...] = ()  # (option, value) the engine must declare in hello
    line: int | None = None


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --- spec example → ops -----------------------------------------------------------------
@lru_cache(maxsize=8)
def _card_order(ranks: tuple[str, ...], suits: tuple[str, ...]) -> dict[str, int]:
    """Card text -> position in (rank, suit) order, jokers last: one table per deck, built once."""
    order = {rank + suit: r * 8 + s for r, rank in enumerate(ranks) for s, suit in enumerate(suits)}
    order.update({"X1": 998, "X2": 999})
    return order


#: the protocol's own card order (docs/protocol.md: rank in normal order, then suit, jokers last)
_PROTOCOL_ORDER = _card_order(RANK_SYMBOLS, SUIT_SYMBOLS)


def card_key(spec: Spec) -> Any:
    """Sort key of card texts in the order of `spec`'s deck (jokers last, unknown texts after)."""
    order = _card_order(tuple(spec.deck.ranks), tuple(spec.deck.suits))
    return lambda c: order.get(c, 1000)


def sort_cards(cards: Any) -> tuple[str, ...]:
    """Card texts in the protocol's order, the same before and after any spec was read."""
    return tuple(sorted(cards, key=lambda c: _PROTOCOL_ORDER.get(c, 1000)))


def _expect_ops(expect: Expect | None) -> Iterator[Op]:
    if expect is None:
        return
    e = expect.as_dict()
    if "phase" in e:
        yield Op.of("phase-" + e["phase"].replace("_", "-"))
    if "deal" in e:
        yield Op.of("deal-number", deal=e["deal"])
    if "to_act" in e:
        yield Op.of("nobody-to-act") if e["to_act"] is None else Op.of("to-act", seat=e["to_act"])
    if "order" in e:
        yield Op.of("order-" + e["order"])
    if "trick" in e:
        t = e["trick"]
        yield Op.of("trick-empty") if t is None else Op.of("trick", cards=t["cards"], seat=t["by"])
    if "passed" in e:
        yield Op.of("passed", seats=e["passed"]) if e["passed"] else Op.of("nobody-passed")
    if "finished" in e:
        yield Op.of("finished", seats=e["finished"]) if e["finished"] else Op.of("nobody-finished")
    if "scores" in e:
        yield Op.of("scores", scores=e["scores"])
    for seat, hand in enumerate(e.get("hands", ())):
        yield Op.of("hand", seat=seat, cards=hand) if hand else Op.of("hand-empty", seat=seat)
    if "hand_sizes" in e:
        yield Op.of("hand-sizes", sizes=e["hand_sizes"])
    if "legal" in e:
        yield Op.of("legal", actions=e["legal"])
    if "ai_action" in e:
        yield Op.of("ai-action", action=e["ai_action"])


def _step_ops(step: Step) -> Iterator[Op]:
    tried = "try-" if step.refused else ""
    if step.kind == "play":
        yield Op.of(tried + "play", seat=step.seat, cards=step.cards)
    elif step.kind == "pass":
        yield Op.of(tried + "pass", seat=step.seat)
    elif step.kind == "give":
        yield Op.of(tried + "give", seat=step.seat, cards=step.cards)
    elif step.kind == "deal":
        yield Op.of("deal", hands=step.hands)
    elif step.kind == "ai":
        yield Op.of("ai", seat=step.seat, level=step.ai)
    if step.refused:
        yield Op.of("refused", rule=step.refused)
    yield from _expect_ops(step.expect)


#: option name -> the step that sets it (the option's protocol name is the step's one field)
OPTION_STEPS: dict[str, str] = {
    "revolution": "opt-revolution", "equality": "opt-equality", "sequences": "opt-sequences", "jokers": "opt-jokers",
    "first_lead": "opt-first-lead", "leader_may_pass": "opt-leader-may-pass", "scoring": "opt-scoring"}
STEP_OPTIONS: dict[str, str] = {v: k for k, v in OPTION_STEPS.items()}


def example_ops(spec: Spec, ex: Example) -> tuple[Op, ...]:
    """The example as ops: the table, then only the options the example sets (a scenario that does
    not depend on an option neither sets nor requires it), the hands, the steps."""
    ops = [Op.of("table", players=ex.players)]
    for name, value in ex.options:
        ops.append(Op.of(OPTION_STEPS[name], **{name: value}))
    if ex.deals is not None:
        ops.append(Op.of("deals", deals=ex.deals))
    if ex.seed is not None:
        ops.append(Op.of("seed", seed=ex.seed))
    for seat, hand in enumerate(ex.hands):
        ops.append(Op.of("holds", seat=seat, cards=hand))
    if ex.refused:
        ops += [Op.of("try-start"), Op.of("refused", rule=ex.refused)]
    else:
        ops.append(Op.of("start"))
    for step in ex.steps:
        ops.extend(_step_ops(step))
    ops.extend(_expect_ops(ex.expect))
    return tuple(ops)


def requirements(ops: tuple[Op, ...] | list[Op], spec: Spec) -> tuple[tuple[str, Any], ...]:
    """Options an engine must declare in `hello` to run these ops under `spec`: only those the
    scenario sets, and the defaults (`spec`'s) of those it depends on without setting them.
    A refused start requires no option value: the refusal is what it tests."""
    req: dict[tuple[str, Any], None] = {}
    refused_start = any(op.key == "try-start" for op in ops)
    for op in ops:
        a = op.kwargs
        if op.key == "table":
            if not refused_start:  # a table size outside the range is tested by its refusal
                req[("players", a["players"])] = None
        elif op.key in STEP_OPTIONS:
            name = STEP_OPTIONS[op.key]
            if not refused_start or _defined(spec, name, a[name]):
                req[(name, a[name])] = None
            else:  # a value the spec does not define is refused: asked of engines that know the option
                req[(name, None)] = None
        elif op.key == "deals" and a["deals"] > 1:
            req[("deals", True)] = None
        elif op.key == "seed":
            req[("seed", True)] = None
        elif op.key == "ai":
            req[("ai", a["level"])] = None
    if not refused_start:
        set_ = {STEP_OPTIONS[op.key] for op in ops if op.key in STEP_OPTIONS}
        for name in _implied(ops):
            if name not in set_:
                req[(name, option_defaults(spec)[name])] = None
    return tuple(req)


def _defined(spec: Spec, name: str, value: Any) -> bool:
    return spec.option(name).value_clause(value) is not None


def _implied(ops: tuple[Op, ...] | list[Op]) -> list[str]:
    """Options a scenario depends on without setting them: it then needs their default value.
    Who leads depends on first_lead, dealt hand sizes on jokers, points on scoring, a quad on
    revolution. Other dependencies (a legal list that a run or a leader's pass would change...) are
    tagged on the examples themselves: tests/scenarios/test_scenario_options.py finds any tag missing."""
    keys = {op.key for op in ops}
    out = ["first_lead"]  # every scenario that starts a game knows who leads
    if "seed" in keys:
        out.append("jokers")
    if "scores" in keys:
        out.append("scoring")
    if any(op.key in ("play", "try-play") and len(op.kwargs["cards"]) == 4
           and len({c[:-1] for c in op.kwargs["cards"]}) == 1 for op in ops):
        out.append("revolution")
    return list(dict.fromkeys(out))


def missing_requirement(options: dict[str, Any], requires: tuple[tuple[str, Any], ...],
                        spec: Spec | None = None) -> str | None:
    """Why an engine with these hello `options` cannot run a scenario (of `spec`), or None."""
    defaults = option_defaults(spec)
    for name, value in requires:
        declared = options.get(name)
        if value is None and name in STEP_OPTIONS.values():
            if declared is None:
                return f"engine does not declare options.{name}"
        elif name == "players" or name in STEP_OPTIONS.values():
            if isinstance(declared, list) and value not in declared:
                return f"engine options.{name} = {declared!r} lacks {value!r}"
            if declared is None and name != "players" and value != defaults.get(name):
                return f"engine does not declare options.{name} ({value!r} needed)"
        elif name == "ai":
            if not isinstance(declared, list) or value not in declared:
                return f"engine does not declare AI level {value!r} in options.ai"
        elif not declared:
            return f"engine does not declare options.{name}"
    return None


def option_defaults(spec: Spec | None = None) -> dict[str, Any]:
    """The spec's option defaults: what an engine plays when the config does not name the option."""
    from ..spec import default_spec

    return {o.name: o.default for o in (spec or default_spec()).options}


#: id(spec) -> (spec, its scenarios): a Spec is immutable, so its scenarios are built once
_BUILT: dict[int, tuple[Spec, tuple[Scenario, ...]]] = {}


def build_scenarios(spec: Spec) -> list[Scenario]:
    """Every example of every clause as a scenario, in spec order; ids are clause/slug(name)."""
    hit = _BUILT.get(id(spec))
    if hit is None or hit[0] is not spec:
        if len(_BUILT) > 8:
            _BUILT.clear()
        hit = _BUILT[id(spec)] = (spec, tuple(_build_scenarios(spec)))
    return list(hit[1])


def _build_scenarios(spec: Spec) -> list[Scenario]:
    card_key(spec)
    out = []
    for clause in spec.clauses:
        for ex in clause.examples:
            ops = example_ops(spec, ex)
            out.append(Scenario(f"{clause.id}/{slug(ex.name)}", clause.id, clause.section, ex.name, ops,
                                requirements(ops, spec), ex.line))
    return out


# --- execution --------------------------------------------------------------------------
class Mismatch(PresidentError, AssertionError):
    """The engine gave a wrong answer (a `fail`)."""

    def __init__(self, message: str, details: str = ""):
        self.message = message
        self.details = details
        super().__init__(message + ("\n" + details if details else ""))


def action_notation(action: Any) -> str:
    """A protocol ACTION as spec notation: 'pass', '3C 3D', 'give 3C'. Cards in deck order."""
    if not isinstance(action, dict) or action.get("type") not in ("play", "pass", "give"):
        raise ProtocolViolation(f"malformed action {action!r}")
    if action["type"] == "pass":
        return "pass"
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise ProtocolViolation(f"malformed action cards {action!r}")
    text = " ".join(sort_cards(cards))
    return f"give {text}" if action["type"] == "give" else text


def notation_action(text: str) -> dict[str, Any]:
    if text == "pass":
        return {"type": "pass"}
    if text.startswith("give "):
        return {"type": "give", "cards": text[5:].split()}
    return {"type": "play", "cards": text.split()}


STATE_FIELDS = ("phase", "deal", "to_act", "order", "trick", "passed", "hands", "finished", "scores")
#: STATE fields the rules are silent on, per phase (docs/protocol.md, "STATE field by field"):
#: an engine shows them as it likes; a difference there is a protocol note, never a failure.
LATITUDE: dict[str, frozenset[str]] = {
    "play": frozenset(),
    "exchange": frozenset({"trick", "passed", "finished"}),
    "deal_over": frozenset({"trick", "passed", "order"}),
    "game_over": frozenset({"trick", "passed", "order"}),
}


class MalformedReply(ProtocolViolation):
    """A reply that breaks the shipped JSON Schemas (a `protocol` outcome)."""


def check_state_shape(state: Any) -> dict[str, Any]:
    if not isinstance(state, dict):
        raise ProtocolViolation(f"STATE is not an object: {state!r}")
    missing = [f for f in STATE_FIELDS if f not in state]
    if missing:
        raise ProtocolViolation(f"STATE lacks {', '.join(missing)}")
    if not isinstance(state["hands"], list) or not all(isinstance(h, list) for h in state["hands"]):
        raise ProtocolViolation("STATE.hands is not a list of card lists")
    t = state["trick"]
    if t is not None and (not isinstance(t, dict) or "cards" not in t or "by" not in t):
        raise ProtocolViolation(f"STATE.trick malformed: {t!r}")
    return state


def canonical_state(state: dict[str, Any]) -> dict[str, Any]:
    """STATE with card lists and passed seats in a canonical order, for comparison."""
    out = {k: state.get(k) for k in STATE_FIELDS}
    out["hands"] = [list(sort_cards(h)) for h in state["hands"]]
    if state["trick"] is not None:
        out["trick"] = {"cards": list(sort_cards(state["trick"]["cards"])), "by": state["trick"]["by"]}
    out["passed"] = sorted(state["passed"]) if isinstance(state["passed"], list) else state["passed"]
    return out


def state_diff(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    lines = []
    for k in STATE_FIELDS:
        if expected.get(k) != actual.get(k):
            lines.append(f"  {k}:\n    - expected {expected.get(k)!r}\n    + actual   {actual.get(k)!r}")
    return "\n".join(lines)


def state_text(state: dict[str, Any] | None) -> str:
    if not state:
        return "  (no state)"
    return "\n".join(f"  {k}: {state.get(k)!r}" for k in STATE_FIELDS)


@dataclass
class ScenarioRun:
    """Executes ops against a client; holds what the scenario has set up and seen so far."""

    client: Client
    config: dict[str, Any] = field(default_factory=dict)
    hands: list[tuple[str, ...]] = field(default_factory=list)
    seed: int | None = None
    state: dict[str, Any] | None = None
    before: dict[str, Any] | None = None  # state before the last tried request
    reply: dict[str, Any] | None = None  # reply to the last tried request
    ai_action: str | None = None
    reasons: list[str] = field(default_factory=list)  # engine refusal codes seen (reported, not required)
    sent: list[tuple[dict[str, Any], Any]] = field(default_factory=list)  # (request, reply) in order
    notes: list[str] = field(default_factory=list)  # representation differences (not failures)
    validate: Any = None  # (cmd, reply) -> schema problems, or None
    #: the engine's hello.options: an option the scenario leaves unsaid is sent with the engine's
    #: value when the engine does not play the spec default (its own variant, e.g. revolution: [false])
    engine_options: dict[str, Any] | None = None
    position: bool = False  # start from the spec's opening position (`new_game.position`), not by the first lead
    spec: Spec | None = None  # whose option defaults go unsaid (None: the packaged spec)

    def _request(self, req: dict[str, Any]) -> dict[str, Any]:
        reply = self.client.request(req)
        self.sent.append((req, reply))
        problems = self.validate(req["cmd"], reply) if self.validate is not None else []
        if problems:
            raise MalformedReply(f"reply to {req['cmd']} breaks the protocol schema: {'; '.join(problems[:2])}")
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise ProtocolViolation(f"reply to {req.get('cmd')} lacks a boolean \"ok\": {reply!r}")
        if not reply["ok"] and not isinstance(reply.get("error"), dict):
            raise ProtocolViolation(f"refusal without an error object: {reply!r}")
        return reply

    def _must(self, req: dict[str, Any], what: str) -> dict[str, Any]:
        reply = self._request(req)
        if not reply["ok"]:
            err = reply["error"]
            raise Mismatch(f"{what} was refused ({err.get('code')}, rule {err.get('rule')}: {err.get('message')})",
                           "state before:\n" + state_text(self.state))
        self.state = canonical_state(check_state_shape(reply.get("state")))
        return reply

    def _new_game_request(self) -> dict[str, Any]:
        req: dict[str, Any] = {"cmd": "new_game", "config": dict(self.config)}
        if self.seed is not None:
            req["seed"] = self.seed
        else:
            req["hands"] = [list(h) for h in self.hands]
            start = opening_position(req) if self.position else None
            if start is not None:
                req["position"] = start
        return req

    def _try(self, req: dict[str, Any]) -> None:
        self.before = self.state
        self.reply = self._request(req)
        if self.reply["ok"]:
            self.state = canonical_state(check_state_shape(self.reply.get("state")))

    def _current(self) -> dict[str, Any]:
        if self.state is None:
            raise Mismatch("no game state to check: the game was not started")
        return self.state

    def _expect(self, what: str, expected: Any, actual: Any, name: str = "") -> None:
        if expected != actual and name and self.state and name in LATITUDE.get(self.state.get("phase", ""), ()):
            self.notes.append(f"{self.state['phase']}: {name} shown as {actual!r} where the spec's example "
                              f"expects {expected!r}")
            return
        if expected != actual:
            raise Mismatch(f"{what}: expected {expected!r}, got {actual!r}", "state:\n" + state_text(self.state))

    def execute(self, op: Op) -> None:
        a = op.kwargs
        k = op.key
        if k == "table":
            self.config["players"] = a["players"]
            defaults = option_defaults(self.spec)
            for name, declared in (self.engine_options or {}).items():
                if name in defaults and isinstance(declared, list) and declared and not any(
                        type(v) is type(defaults[name]) and v == defaults[name] for v in declared):
                    self.config[name] = declared[0]
        elif k in STEP_OPTIONS:
            name = STEP_OPTIONS[k]
            if a[name] != option_defaults(self.spec).get(name) or name == "revolution":
                # a default value goes unsaid: an engine that does not know the option plays it
                self.config[name] = a[name]
        elif k == "deals":
            self.config["deals"] = a["deals"]
        elif k == "seed":
            self.seed = a["seed"]
        elif k == "holds":
            while len(self.hands) <= a["seat"]:
                self.hands.append(())
            self.hands[a["seat"]] = a["cards"]
        elif k == "start":
            self._must(self._new_game_request(), "the new game")
        elif k == "try-start":
            self.state = None
            self._try(self._new_game_request())
        elif k in ("play", "pass", "give"):
            self._must(self._act_request(k, a), f"seat {a['seat']}'s {k}")
        elif k in ("try-play", "try-pass", "try-give"):
            self._try(self._act_request(k[4:], a))
        elif k == "deal":
            self._must({"cmd": "deal", "hands": [list(h) for h in a["hands"]]}, "the next deal")
        elif k == "ai":
            reply = self._request({"cmd": "ai", "player": a["seat"], "level": a["level"]})
            if not reply["ok"]:
                raise Mismatch(f"the AI request was refused: {reply['error']}")
            self.ai_action = action_notation(reply.get("action"))
        elif k == "refused":
            self._check_refused(a["rule"])
        else:
            self._check(k, a)

    def _act_request(self, kind: str, a: dict[str, Any]) -> dict[str, Any]:
        action: dict[str, Any] = {"type": kind}
        if kind != "pass":
            action["cards"] = list(a["cards"])
        return {"cmd": "act", "player": a["seat"], "action": action}

    def _check_refused(self, rule: str) -> None:
        if self.reply is None:
            raise Mismatch("nothing was tried before checking a refusal")
        reply, self.reply = self.reply, None
        if reply["ok"]:
            raise Mismatch(f"accepted, but rule {rule} refuses it",
                           "state before:\n" + state_text(self.before) + "\nstate after:\n" + state_text(self.state))
        err = reply["error"]
        self.reasons.append(f"{err.get('code')}/{err.get('rule')}" + ("" if err.get("rule") == rule
                                                                       else f" (spec: {rule})"))
        if self.before is not None:  # a refusal leaves the state unchanged
            after = canonical_state(check_state_shape(self._must({"cmd": "state"}, "state")["state"]))
            if after != self.before:
                raise Mismatch("a refused request changed the state", state_diff(self.before, after))

    def _check(self, k: str, a: dict[str, Any]) -> None:
        s = self._current()
        if k == "to-act":
            self._expect("seat to act", a["seat"], s["to_act"])
        elif k == "nobody-to-act":
            self._expect("seat to act", None, s["to_act"])
        elif k.startswith("phase-"):
            self._expect("phase", k[6:].replace("-", "_"), s["phase"])
        elif k == "deal-number":
            self._expect("deal", a["deal"], s["deal"])
        elif k.startswith("order-"):
            self._expect("order", k[6:], s["order"], "order")
        elif k == "trick-empty":
            self._expect("trick", None, s["trick"], "trick")
        elif k == "trick":
            self._expect("trick", {"cards": list(sort_cards(a["cards"])), "by": a["seat"]}, s["trick"], "trick")
        elif k == "nobody-passed":
            self._expect("passed", [], s["passed"], "passed")
        elif k == "passed":
            self._expect("passed", sorted(a["seats"]), s["passed"], "passed")
        elif k == "nobody-finished":
            self._expect("finished", [], s["finished"], "finished")
        elif k == "finished":
            self._expect("finished", list(a["seats"]), s["finished"], "finished")
        elif k == "scores":
            self._expect("scores", list(a["scores"]), s["scores"])
        elif k in ("hand", "hand-empty"):
            hands = s["hands"]
            actual = hands[a["seat"]] if a["seat"] < len(hands) else None
            self._expect(f"seat {a['seat']}'s hand", list(sort_cards(a.get("cards", ()))), actual)
        elif k == "hand-sizes":
            self._expect("hand sizes", list(a["sizes"]), [len(h) for h in s["hands"]])
        elif k == "legal":
            reply = self._request({"cmd": "legal"})
            if not reply["ok"] or not isinstance(reply.get("actions"), list):
                raise ProtocolViolation(f"bad reply to legal: {reply!r}")
            actual = [action_notation(x) for x in reply["actions"]]
            if len(set(actual)) != len(actual):
                raise Mismatch("legal actions listed twice: "
                               + ", ".join(sorted({x for x in actual if actual.count(x) > 1})))
            exp = {action_notation(notation_action(x)) for x in a["actions"]}
            if set(actual) != exp:
                raise Mismatch("legal actions differ",
                               f"  missing: {sorted(exp - set(actual))}\n  extra:   {sorted(set(actual) - exp)}\n"
                               "state:\n" + state_text(s))
        elif k == "ai-action":
            self._expect("AI action", a["action"], self.ai_action)
        else:  # pragma: no cover - guarded by the template table
            raise KeyError(k)


def opening_position(new_game: dict[str, Any]) -> dict[str, Any] | None:
    """The spec's opening position of a game (who leads, an empty trick), from the reference."""
    from ..protocol.server import Session
    from ..game.position import reference_rules

    reply = Session(reference_rules()).handle({k: v for k, v in new_game.items() if k != "position"})
    if not reply.get("ok"):
        return None
    s = reply["state"]
    return {k: s[k] for k in ("to_act", "trick", "passed", "finished", "order", "scores")}
