"""Lock-step validation: random games played on the reference engine and the engine under test.

For each game the reference (in-process) plays a random trajectory first; the requests are then
pipelined to the engine under test in one go (legal + act per step, the occasional illegal
attempt, `deal` between deals), and every reply is compared on the rule observables
(`diagnose`): the legal set, the refusal or acceptance, and the rule view of STATE. Fields the
rules leave to the engine become protocol notes. Games respect the engine's `hello.options`
(table sizes, revolution values, series of deals) and every game is played.

At a divergence the clause is named and the engine's own error kept, and the reference follows the
engine: the game is set up again on the engine, the reference goes on from the engine's position
(`game.position`) and the rest of the game is played request by request (at most MAX_FOLLOW times
a game). Which variant explains the divergences is decided afterwards, over all traces (`fit`).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..game.cards import parse_cards
from ..game.engine import Config, Ruleset
from ..protocol.server import Session
from ..scenarios.model import action_notation, canonical_state, card_key, check_state_shape, notation_action
from ..game.position import PositionError, game_from_state
from ..spec import Spec
from ..protocol.client import Client, EngineDied, EngineTimeout, ProtocolViolation
from .diagnose import Evidence, Finding, SchemaSampler, diverge, note_kind, representation_notes, rule_view
from .trace import Trace

#: Options every game's config sets itself (the table), not a variant the engine declares.
TABLE_OPTIONS = ("revolution", "deals")

MAX_FOLLOW = 40  # resynchronisations per game


@dataclass
class Divergence:
    game: int
    seed: int
    index: int  # request number within the game
    request: dict[str, Any]
    message: str
    details: str = ""
    kind: str = "fail"  # fail | error
    clause: str = ""
    engine_error: str = ""
    followed: bool = False  # the reference followed the engine from its position
    evidence: Evidence | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "index": self.index, "request": self.request,
                "clause": self.clause, "message": self.message, "engine_error": self.engine_error,
                "details": self.details, "kind": self.kind, "followed": self.followed}


@dataclass
class LockstepResult:
    games: int = 0
    steps: int = 0  # actions compared (accepted acts)
    requests: int = 0
    seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)
    divergent_games: set[int] = field(default_factory=set)
    notes: dict[str, list] = field(default_factory=dict)  # note kind → [times seen, first example]
    deviations: dict[tuple[str, str], "Deviation"] = field(default_factory=dict)  # (clause, rule) → first seen
    traces: list[Trace] = field(default_factory=list)  # every game as the engine played it, in game order

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> int:
        return len(self.divergent_games)

    @property
    def errors(self) -> int:
        return sum(d.kind == "error" for d in self.divergences)



@dataclass
class Deviation:
    """One distinct rule difference: its clause and its first evidence (the variant is fitted later)."""

    clause: str
    house_rule: Any
    description: str
    first: Divergence
    count: int = 1
    samples: list[Divergence] = field(default_factory=list)  # evidence replayable from new_game

    @property
    def key(self) -> str:
        return self.house_rule.label if self.house_rule else self.description


def deck(spec: Spec) -> list[str]:
    return [r + s for r in spec.deck.ranks for s in spec.deck.suits]


def random_hands(rng: random.Random, spec: Spec, players: int) -> list[list[str]]:
    """Hands for one deal: a plain shuffle, a deal rich in quads, or a short partial deal."""
    cards = deck(spec)
    style = rng.random()
    hands: list[list[str]] = [[] for _ in range(players)]
    if style < 0.45:  # quads: whole ranks go to one player, a few broken up
        ranks = [cards[i:i + len(spec.deck.suits)] for i in range(0, len(cards), len(spec.deck.suits))]
        rng.shuffle(ranks)
        for i, group in enumerate(ranks):
            if rng.random() < 0.75:
                hands[i % players].extend(group)
            else:
                for c in group:
                    hands[rng.randrange(players)].append(c)
    else:
        rng.shuffle(cards)
        if style > 0.85:  # a short deal from part of the deck
            cards = cards[:rng.randint(players * 3, len(cards) // 2)]
        for i, c in enumerate(cards):
            hands[i % players].append(c)
    for seat, hand in enumerate(hands):  # every seat needs at least 3 cards (2 may be given away)
        while len(hand) < 3:
            donor = max(hands, key=len)
            if len(donor) <= 3:
                break
            hand.append(donor.pop())
    key = card_key(spec)
    return [sorted(h, key=key) for h in hands]


def game_config(rng: random.Random, spec: Spec, options: dict[str, Any]) -> dict[str, Any]:
    """A table the engine declared it can play (`hello.options`), else the spec's whole range."""
    sizes = [p for p in range(spec.players.min, spec.players.max + 1)
             if not isinstance(options.get("players"), list) or p in options["players"]]
    revs = [v for v in (True, False) if not isinstance(options.get("revolution"), list) or v in options["revolution"]]
    if not isinstance(options.get("revolution"), list) and "revolution" not in options:
        revs = [True, False]
    players = rng.choice(sizes or [spec.players.min])
    revolution = rng.random() < 0.75 if len(revs) == 2 else (revs or [True])[0]
    deals = rng.choice((1, 1, 2, 3)) if options.get("deals", True) else 1
    config: dict[str, Any] = {"players": players, "revolution": revolution, "deals": deals}
    for name in (o.name for o in spec.options if o.name not in TABLE_OPTIONS):  # a declared house rule is played
        values = options.get(name)
        if isinstance(values, list) and values:
            config[name] = rng.choice(values)
    return config


def _illegal_attempt(rng: random.Random, state: dict[str, Any], legal: set[str]) -> dict[str, Any] | None:
    seat = state["to_act"]
    if seat is None:
        return None
    hand = state["hands"][seat]
    if state["phase"] == "exchange":
        cards = rng.sample(hand, min(len(hand), rng.choice((1, 3))))
        action = {"type": "give", "cards": cards}
    elif rng.random() < 0.2:
        return {"cmd": "act", "player": (seat + 1) % len(state["hands"]), "action": {"type": "pass"}}
    else:
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
        action = {"type": "play", "cards": cards}
        if not state["trick"] and rng.random() < 0.3:
            action = {"type": "pass"}
    if action_notation(action) in legal:
        return None
    return {"cmd": "act", "player": seat, "action": action}


def plan_game(spec: Spec, ref: Session, rng: random.Random, config: dict[str, Any] | None = None,
              max_steps: int = 2000, state: dict[str, Any] | None = None) -> list[tuple[dict, dict]]:
    """Play a random game on the reference (from `state` if given); (request, reply) pairs."""
    out: list[tuple[dict, dict]] = []

    def send(req: dict[str, Any]) -> dict[str, Any]:
        reply = ref.handle(req)
        out.append((req, reply))
        return reply

    if state is None:
        config = config or game_config(rng, spec, {})
        hands = random_hands(rng, spec, config["players"])
        held = str(config.get("first_lead", "")).partition("holder:")[2]
        if held and not any(held in h for h in hands):  # option.first-lead.holder: someone holds it
            hands[rng.randrange(len(hands))].append(held)
        state = send({"cmd": "new_game", "config": config, "hands": hands})["state"]
    players = len(state["hands"])
    for _ in range(max_steps):
        if state["phase"] == "game_over":
            break
        if state["phase"] == "deal_over":
            state = send({"cmd": "deal", "hands": random_hands(rng, spec, players)})["state"]
            continue
        legal = send({"cmd": "legal"})
        actions = legal["actions"]
        if rng.random() < 0.08:
            bad = _illegal_attempt(rng, state, {action_notation(a) for a in actions})
            if bad is not None:
                send(bad)
        choice = rng.choice(actions)
        state = send({"cmd": "act", "player": legal["player"], "action": choice})["state"]
    return out


class Checker:
    """Compares one game's replies; keeps the reference STATE before each request."""

    def __init__(self, result: LockstepResult):
        self.result = result
        self.schemas = SchemaSampler()

    def check(self, req: dict[str, Any], expected: dict[str, Any], actual: Any,
              before: dict[str, Any] | None, refusal: Any) -> Finding | None:
        cmd = req["cmd"]
        if actual == expected:
            return None
        problems = self.schemas(cmd, actual)  # the first reply of each shape (~15 ms a reply)
        if problems:
            return Finding("protocol", f"malformed reply to {cmd}: {'; '.join(problems[:2])}", kind="protocol")
        if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
            return Finding("protocol", f"reply to {cmd} lacks a boolean ok: {actual!r}"[:200], kind="protocol")
        if actual["ok"] and "state" in actual:
            try:
                check_state_shape(actual["state"])
            except ProtocolViolation as exc:
                return Finding("protocol", str(exc), kind="protocol")
        try:
            finding = diverge(req, expected, actual, before, refusal)
        except ProtocolViolation as exc:
            return Finding("protocol", str(exc), kind="protocol")
        if finding is None and expected["ok"] and "state" in expected and expected["state"] != actual["state"]:
            for note in representation_notes(expected["state"], actual["state"]):
                seen = self.result.notes.setdefault(note_kind(note), [0, note])
                seen[0] += 1
        return finding


def _reference_at(requests: list[dict[str, Any]], rules: Ruleset) -> Session:
    s = Session(rules)
    for r in requests:
        s.handle(r)
    return s


def _refusal_rule(session: Session):
    def why(text: str) -> str:
        g = session.game
        if g is None:
            return "turn.order"
        action = notation_action(text)
        mask = parse_cards(action.get("cards", []))
        err = g.check(g.to_act, mask, give=action["type"] == "give")
        return err.rule if err is not None else ""
    return why


def replay_on_reference(rules: Ruleset):
    def run(requests: list[dict[str, Any]]) -> dict[str, Any] | None:
        s = Session(rules)
        first = s.handle(requests[0])
        if not first.get("ok"):
            return None
        reply = first
        for r in requests[1:]:
            reply = s.handle(r)
        return reply
    return run


def run_lockstep(spec: Spec, client: Client, games: int = 200, seed: int = 0,
                 options: dict[str, Any] | None = None, reference: Any = None,
                 declared: set[str] | None = None, progress: Callable[[int], None] | None = None) -> LockstepResult:
    """Play `games` random games on the reference and the engine; compare every reply."""
    rules = Ruleset.from_spec(spec)
    options = options or {}
    result = LockstepResult()
    card_key(spec)
    ref_options = {o.name for o in spec.options}
    checker = Checker(result)
    t0 = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        rng = random.Random(game_seed)
        session = Session(rules)
        config = game_config(rng, spec, options)
        plan = plan_game(spec, session, rng, config)
        requests = [req for req, _ in plan]
        result.games += 1
        trace = Trace(f"game {g}")
        result.traces.append(trace)
        try:
            replies = client.pipeline(requests)
        except ProtocolViolation as exc:
            at = min(exc.index, len(requests) - 1)
            trace.steps.extend((req, None) for req in requests[:at + 1])
            result.divergences.append(Divergence(g, game_seed, at, requests[at], f"{type(exc).__name__}: {exc}",
                                                 kind="error", clause="protocol"))
            if hasattr(client, "restart"):  # a dead, silent or out-of-step engine starts afresh
                client.restart()
            continue
        result.requests += len(requests)
        game = _Game(result, client, rules, spec, g, game_seed, rng, ref_options, declared or set(), checker, trace)
        game.compare_plan(plan, replies)
        if progress:
            progress(g + 1)
    result.seconds = time.perf_counter() - t0
    return result


class _Game:
    """One lock-step game: the pipelined plan, then (after an explained divergence) step by step."""

    def __init__(self, result: LockstepResult, client: Client, rules: Ruleset, spec: Spec, number: int,
                 seed: int, rng: random.Random, ref_options: set[str], declared: set[str], checker: Checker,
                 trace: Trace):
        self.result, self.client, self.rules, self.spec = result, client, rules, spec
        self.trace = trace  # the game as the engine played it (a re-sent setup is not repeated)
        self.number, self.seed, self.rng = number, seed, rng
        self.ref_options, self.declared = ref_options, declared
        self.checker = checker
        self.history: list[dict[str, Any]] = []  # requests the engine saw in this game, in order
        self.follows = 0
        self.explained: dict[str, Any] = {}  # house rules explained so far in this game (option -> value)

    def compare_plan(self, plan: list[tuple[dict, dict]], replies: list[Any]) -> None:
        before: dict[str, Any] | None = None
        for i, ((req, expected), actual) in enumerate(zip(plan, replies)):
            self.history.append(req)
            self.trace.add(req, actual)
            refusal = None
            if req["cmd"] == "legal":
                refusal = lambda text, i=i: _refusal_rule(_reference_at(self.history[:-1], self.rules))(text)  # noqa: E731
            finding = self.checker.check(req, expected, actual, before, refusal)
            if finding is not None:
                if not self._diverged(i, req, expected, actual, before, finding):
                    # the engine's replies to the rest of the plan are kept: the variant is fitted
                    # on them, the reference taking up the engine's position (`fit.replay`)
                    self.trace.steps.extend(zip((r for r, _ in plan[i + 1:]), replies[i + 1:]))
                    return
                if req["cmd"] != "legal" or self.rng.random() < 0.2:
                    self._follow(i, req, actual)
                    return
                continue  # the same position: the reference's own choice goes on
            if req["cmd"] == "act" and expected["ok"]:
                self.result.steps += 1
            if expected.get("ok") and "state" in expected:
                before = expected["state"]

    def _diverged(self, index: int, req: dict[str, Any], expected: dict[str, Any], actual: Any,
                  before: dict[str, Any] | None, finding: Finding) -> bool:
        """Record a divergence; True when the reference may follow the engine from its position."""
        res = self.result
        res.divergent_games.add(self.number)
        div = Divergence(self.number, self.seed, index, req, finding.message, kind="error" if finding.kind == "protocol"
                         else "fail", clause=finding.clause, engine_error=finding.engine_error)
        res.divergences.append(div)
        if finding.kind == "protocol" or not isinstance(actual, dict):
            return False
        ev = Evidence(list(self.history), expected, actual, rule_view(before) if before else None, finding.clause)
        div.evidence = ev
        rule = None
        key = (finding.clause, "")
        if key in res.deviations:
            dev = res.deviations[key]
            dev.count += 1
            if len(dev.samples) < 8 and not any(d.game == self.number for d in dev.samples) and self.follows == 0:
                dev.samples.append(div)
        else:
            res.deviations[key] = Deviation(finding.clause, rule, "" if rule else key[1], div,
                                            samples=[div] if self.follows == 0 else [])
        div.followed = False  # lock-step without masking follows the engine (issue 19, item 4)
        return div.followed

    def _follow(self, index: int, req: dict[str, Any], actual: dict[str, Any]) -> None:
        """Set the engine's game up again to this point and go on from its position, step by step."""
        self.follows += 1
        try:
            ref = _reference_at(self.history[:-1], self.rules)
            # the reference goes on as the variant: the table's config plus the house rules explained so far
            config = dict(self.history[0]["config"], **self.explained)
            game_config = self.rules.config(**config)
            replies = self.client.pipeline(self.history)
            state = replies[-1].get("state") if replies[-1].get("ok") else None
            if req["cmd"] == "legal":
                state = self._take_extra(ref, actual)
            if state is None:
                state = self.client.request({"cmd": "state"}).get("state")
            self._continue(state, game_config, ref.game.last_ranking if ref.game else [])
        except PositionError:
            return  # a position the reference cannot take up (the exchange): the next game starts
        except (ProtocolViolation, KeyError, TypeError, ValueError, AttributeError) as exc:
            self.result.divergences.append(Divergence(self.number, self.seed, len(self.history), {},
                                                      f"could not follow the engine: {exc}", kind="error",
                                                      clause="protocol"))
            if isinstance(exc, (EngineDied, EngineTimeout)) and hasattr(self.client, "restart"):
                self.client.restart()

    def _take_extra(self, ref: Session, actual: dict[str, Any]) -> dict[str, Any] | None:
        """After a legal set the reference does not share: the engine plays an action only it lists."""
        ref_legal = {action_notation(a) for a in ref.handle({"cmd": "legal"}).get("actions", [])}
        extra = [a for a in actual.get("actions", []) if action_notation(a) not in ref_legal]
        choice = extra[0] if extra else self.rng.choice(actual["actions"])
        act = {"cmd": "act", "player": actual.get("player"), "action": choice}
        reply = self.client.request(act)
        self.history.append(act)
        self.trace.add(act, reply)
        return reply.get("state") if reply.get("ok") else None

    def _continue(self, state: dict[str, Any], config: Config, last_ranking: list[int]) -> None:
        """From the engine's position: the reference plays on, each request compared at once."""
        while True:
            ref = Session(self.rules)
            config = self.rules.config(**dict(self.history[0]["config"], **self.explained))
            ref.game = game_from_state(self.rules, config, canonical_state(state), last_ranking)
            before: dict[str, Any] = ref.game.to_wire()
            players = len(before["hands"])
            for _ in range(2000):
                if before["phase"] == "game_over":
                    return
                if before["phase"] == "deal_over":
                    req = {"cmd": "deal", "hands": random_hands(self.rng, self.spec, players)}
                else:
                    req = {"cmd": "legal"}
                found = self._step(ref, req, before)
                if found is not None and not (found[0] and req["cmd"] == "legal" and self.rng.random() >= 0.2):
                    break
                if req["cmd"] == "legal":
                    legal = ref.handle(req)
                    act = {"cmd": "act", "player": legal["player"], "action": self.rng.choice(legal["actions"])}
                    found = self._step(ref, act, before)
                    if found is not None:
                        break
                before = ref.game.to_wire()
            else:
                return
            if not found[0] or self.follows >= MAX_FOLLOW:
                return
            self.follows += 1
            last_ranking = ref.game.last_ranking
            state = found[1]
            if state is None:
                state = self._take_extra(ref, found[2]) if found[2].get("actions") else None
            if state is None:
                state = self.client.request({"cmd": "state"})["state"]

    def _step(self, ref: Session, req: dict[str, Any], before: dict[str, Any]
              ) -> tuple[bool, dict[str, Any] | None, dict[str, Any]] | None:
        """Send one request to both; None if they agree, else (followable, engine state, engine reply)."""
        refusal = _refusal_rule(ref) if req["cmd"] == "legal" else None
        snapshot = ref.game.copy() if ref.game is not None else None
        expected = ref.handle(req)
        actual = self.client.request(req)
        self.history.append(req)
        self.trace.add(req, actual)
        self.result.requests += 1
        finding = self.checker.check(req, expected, actual, before, refusal)
        if finding is None:
            if req["cmd"] == "act" and expected["ok"]:
                self.result.steps += 1
            return None
        if snapshot is not None:
            ref.game = snapshot
        follow = self._diverged(len(self.history) - 1, req, expected, actual, before, finding)
        return follow, (actual.get("state") if actual.get("ok") else None), actual
