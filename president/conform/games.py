"""One lock-step game, played in segments: planned on the reference, pipelined, compared, adopted.

The reference plans a random stretch of the game from its current position (`plan_segment`);
the requests go to the engine in one pipeline and each reply is compared (`check_reply`). At the
first divergence of a segment the reference adopts the engine's own state after that request
(`game_from_state`: play, exchange, deal over) and compares the rest of the pipeline from there,
adopting again at each divergence; the next segment is planned from the engine's position (after
a divergence segments are short, and double while the engine agrees). A game ends at game_over,
or stops with the reason recorded (a protocol error, a position the reference cannot take up).
Seeded deals go alone: compared by their observables (`deals`), the reference adopts the hands.
"""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..game.engine import Phase, Ruleset
from ..game.position import PositionError, game_from_state
from ..protocol.client import Client, ProtocolViolation
from ..protocol.server import Session
from ..scenarios.model import action_notation, canonical_state, card_key, check_state_shape, notation_action
from ..spec import Spec, default_spec
from .deals import declares_spec_shuffle, is_seeded
from .diagnose import (Evidence, Finding, SchemaSampler, check_seeded, diverge, note_kind, representation_notes,
                       rule_view)
from .records import Divergence, GameRecord
from .trace import Trace
from ..errors import PresidentError

#: Protocol option names of the house rules (docs/protocol.md): the spec's options but revolution and deals.
HOUSE_OPTIONS = tuple(o.name for o in default_spec().options if o.name not in ("revolution", "deals"))

MAX_ADOPT = 400  # adoptions of the engine's state in one game; then the game stops (reported)
MAX_REQUESTS = 40_000  # requests in one game, likewise
SEEDED_SHARE = 0.3  # share of games dealt from a seed, for an engine that declares `seed`
FIRST_SEGMENT_AFTER = 4  # acts in the first segment after a divergence (doubling while the engine agrees)


class GameStopped(PresidentError):
    """The game cannot go on (the reason is recorded with it)."""


class Resync(PresidentError):
    """The reference cannot take up the engine's exchange position: resynchronise after the exchange."""


@dataclass
class Table:
    """What every game of a run shares: the spec, the engine's options, the variant in force."""

    spec: Spec
    rules: Ruleset
    options: dict[str, Any]
    declared: set[str]
    variant: dict[str, Any] = field(default_factory=dict)  # options the reference plays besides the config
    schemas: SchemaSampler = field(default_factory=SchemaSampler)

    def __post_init__(self) -> None:
        self.ref_options = {o.name for o in self.spec.options}
        self.seeded = bool(self.options.get("seed"))
        self.spec_shuffle = declares_spec_shuffle(self.options)
        card_key(self.spec)


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
    for name in HOUSE_OPTIONS:  # a declared house rule is played (the reference plays it once it knows it)
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



def plan_segment(spec: Spec, ref: Session, rng: random.Random, max_acts: int | None, seeded: bool,
                 spec_shuffle: bool, choose_first: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None
                 ) -> tuple[list[tuple[dict[str, Any], dict[str, Any] | None]], Session]:
    """A random stretch of the game from the reference's position (a copy is played): (request,
    reply) pairs and the reference at its end. It stops at game_over, after `max_acts` acts, after
    an act the reference refuses (the engine's choice: it goes its own way), or before a seeded
    deal the engine makes alone (the last pair is then that `deal`, with the reply None)."""
    s = Session(ref.rules)
    s.game = ref.game.copy()  # type: ignore[union-attr]
    out: list[tuple[dict[str, Any], dict[str, Any] | None]] = []

    def send(req: dict[str, Any]) -> dict[str, Any]:
        reply = s.handle(req)
        out.append((req, reply))
        return reply

    state = s.game.to_wire()
    acts = 0
    while state["phase"] != "game_over":
        if state["phase"] == "deal_over":
            if seeded and (not spec_shuffle or s.game.rng is None):
                out.append(({"cmd": "deal"}, None))
                break
            req = {"cmd": "deal"} if seeded else {"cmd": "deal", "hands": random_hands(rng, spec, len(state["hands"]))}
            state = send(req)["state"]
            continue
        if max_acts is not None and acts >= max_acts:
            break
        legal = send({"cmd": "legal"})
        actions = legal["actions"]
        if rng.random() < 0.08:
            bad = _illegal_attempt(rng, state, {action_notation(a) for a in actions})
            if bad is not None:
                send(bad)
        choice = choose_first(actions) if choose_first is not None and acts == 0 else rng.choice(actions)
        reply = send({"cmd": "act", "player": legal["player"], "action": choice})
        acts += 1
        if not reply["ok"]:
            break
        state = reply["state"]
    return out, s


def plan_game(spec: Spec, ref: Session, rng: random.Random, config: dict[str, Any] | None = None,
              max_steps: int = 2000) -> list[tuple[dict, dict]]:
    """A whole random game on the reference from `new_game` (explicit hands): (request, reply) pairs."""
    config = config or game_config(rng, spec, {})
    new = {"cmd": "new_game", "config": config, "hands": _hands_for(rng, spec, config)}
    out = [(new, ref.handle(new))]
    pairs, _ = plan_segment(spec, ref, rng, max_steps, False, False)
    return out + [(r, p) for r, p in pairs if p is not None]


def _hands_for(rng: random.Random, spec: Spec, config: dict[str, Any]) -> list[list[str]]:
    hands = random_hands(rng, spec, config["players"])
    held = str(config.get("first_lead", "")).partition("holder:")[2]
    if held and not any(held in h for h in hands):  # option.first-lead.holder: someone holds it
        hands[rng.randrange(len(hands))].append(held)
    return hands


def check_reply(schemas: SchemaSampler, notes: dict[str, list], req: dict[str, Any], expected: dict[str, Any],
                actual: Any, before: dict[str, Any] | None, refusal: Any) -> Finding | None:
    """The rule divergence of one reply (a protocol finding for a malformed one), or None; the
    representation differences the rules leave open are counted in `notes`."""
    cmd = req["cmd"]
    if actual == expected:
        return None
    problem = protocol_problem(schemas, cmd, actual)
    if problem is not None:
        return problem
    try:
        finding = diverge(req, expected, actual, before, refusal)
    except ProtocolViolation as exc:
        return Finding("protocol", str(exc), kind="protocol")
    if finding is None and expected["ok"] and "state" in expected and expected["state"] != actual["state"]:
        count_notes(notes, expected["state"], actual["state"])
    return finding


def protocol_problem(schemas: SchemaSampler, cmd: str, actual: Any) -> Finding | None:
    problems = schemas(cmd, actual)  # the first reply of each shape (~15 ms a reply)
    if problems:
        return Finding("protocol", f"malformed reply to {cmd}: {'; '.join(problems[:2])}", kind="protocol")
    if not isinstance(actual, dict) or not isinstance(actual.get("ok"), bool):
        return Finding("protocol", f"reply to {cmd} lacks a boolean ok: {actual!r}"[:200], kind="protocol")
    if actual["ok"] and "state" in actual:
        try:
            check_state_shape(actual["state"])
        except ProtocolViolation as exc:
            return Finding("protocol", str(exc), kind="protocol")
    return None


def count_notes(notes: dict[str, list], expected: dict[str, Any], actual: dict[str, Any]) -> None:
    for note in representation_notes(expected, actual):
        seen = notes.setdefault(note_kind(note), [0, note])
        seen[0] += 1


def refusal_rule(game: Any) -> Callable[[str], str]:
    """Why the reference refuses an action (its own check at this position)."""
    def why(text: str) -> str:
        if game is None:
            return "turn.order"
        from ..game.cards import parse_cards

        action = notation_action(text)
        err = game.check(game.to_act, parse_cards(action.get("cards", [])), give=action["type"] == "give")
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


def _key(state: dict[str, Any] | None) -> str:
    return json.dumps(rule_view(state), sort_keys=True) if state else ""


class Game:
    """One lock-step game against the engine; `play()` returns its record."""

    def __init__(self, table: Table, client: Client, number: int, seed: int):
        self.table, self.client, self.rules = table, client, table.rules
        self.rng = random.Random(seed)
        self.rec = GameRecord(number, seed, _trace(number))
        self.ref: Session = Session(self.rules)  # the reference, in step with the engine
        self.before: dict[str, Any] | None = None  # the reference's STATE before the next request
        self.engine_state: dict[str, Any] | None = None  # the engine's last STATE
        self.history: list[dict[str, Any]] = []  # the game's requests, replayable from new_game (explicit hands)
        self.explainable = True  # every divergence so far explained: the history replays on the reference
        self.secret = False  # a seeded later deal was played: its cards before the exchange are the engine's
        self.explained: dict[str, Any] = {}  # house rules explained in this game (option -> value)
        self.last_ranking: list[int] = []
        self.adoptions = 0
        self.segment: int | None = None  # acts per segment (None: to the end of the game)
        self.engine_legal: tuple[Any, list[Any]] | None = None  # (position, the engine's legal actions there)
        self.refused: dict[str, set[str]] = {}  # position -> actions the engine refused there
        self.dealt = 0  # cards in the hands at the start (a first lead is still due while they all are)
        self.config: dict[str, Any] = {}

    # --- the game -----------------------------------------------------------------------
    def play(self) -> GameRecord:
        t0 = time.perf_counter()
        t = self.table
        self.config = game_config(self.rng, t.spec, t.options)
        self.seeded = t.seeded and self.rng.random() < SEEDED_SHARE
        try:
            first = self._start()
            while self.ref.game is not None and self.ref.game.phase != Phase.GAME_OVER:
                if self.rec.requests > MAX_REQUESTS:
                    raise GameStopped(f"stopped after {MAX_REQUESTS} requests")
                pairs, end = plan_segment(t.spec, self.ref, self.rng, self.segment, self.seeded, t.spec_shuffle,
                                          self._choose if self.adoptions else None)
                deal = pairs.pop() if pairs and pairs[-1][1] is None else None
                pairs = first + pairs
                first = []
                if not pairs and deal is None:
                    raise GameStopped("no request left to play")
                clean = not pairs or self._segment(pairs, end)
                if deal is not None and clean:
                    self._seeded(deal[0])
                if clean and self.segment is not None:
                    self.segment = None if self.segment >= 256 else self.segment * 2
        except GameStopped as stop:
            self.rec.unfinished = str(stop)
        self.rec.seconds = time.perf_counter() - t0
        return self.rec

    def _ref_request(self, req: dict[str, Any]) -> dict[str, Any]:
        """The request as the reference plays it: under the variant in force and the explained house rules."""
        if req.get("cmd") != "new_game" or not (self.table.variant or self.explained):
            return req
        return {**req, "config": {**req["config"], **self.table.variant, **self.explained}}

    def _start(self) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
        """Start the game: the pairs that open the first segment (none for a seeded deal sent alone)."""
        if self.seeded:
            req = {"cmd": "new_game", "config": self.config, "seed": self.rng.randrange(1 << 31)}
            if not self.table.spec_shuffle:
                self._seeded(req)
                return []
        else:
            hands = _hands_for(self.rng, self.table.spec, self.config)
            req = {"cmd": "new_game", "config": self.config, "hands": hands}
        expected = self.ref.handle(self._ref_request(req))
        if not expected["ok"]:
            self._segment([(req, expected)], self.ref)
            raise GameStopped(f"the reference refuses this table: {expected['error'].get('message')}")
        self.dealt = sum(len(h) for h in expected["state"]["hands"])
        return [(req, expected)]

    def _segment(self, pairs: list[tuple[dict[str, Any], Any]], end: Session) -> bool:
        """Pipeline the planned pairs, compare every reply; True when the engine agreed throughout."""
        start = Session(self.rules)
        start.game = self.ref.game.copy() if self.ref.game is not None else None
        reqs = [r for r, _ in pairs]
        replies = self._pipeline(reqs)
        mirror: Session | None = None  # the reference after adopting the engine's state
        for i, ((req, planned), actual) in enumerate(zip(pairs, replies)):
            index = len(self.rec.trace.steps)
            self.rec.trace.add(req, actual)
            if mirror is not None and is_seeded(req) and (mirror.game is None or mirror.game.rng is None):
                try:
                    mirror = self._compare_seeded(index, req, actual, mirror)  # the reference cannot deal it
                except Resync as why:
                    mirror = self._skip_rest(pairs[i + 1:], replies[i + 1:], str(why))
                    break
                continue
            self.history.append(req)
            if mirror is None:
                expected = planned
                refusal: Any = None
                if req["cmd"] == "legal":
                    refusal = lambda text, i=i: refusal_rule(self._replayed(start, reqs[:i]))(text)  # noqa: E731
            else:
                refusal = refusal_rule(mirror.game) if req["cmd"] == "legal" else None
                snapshot = mirror.game.copy() if mirror.game is not None else None
                expected = mirror.handle(self._ref_request(req))
            finding = check_reply(self.table.schemas, self.rec.notes, req, expected, actual, self.before, refusal)
            if finding is None:
                self._agreed(req, expected, actual)
                continue
            if mirror is not None:
                mirror.game = snapshot
            self._diverged(index, req, expected, actual, finding)
            try:
                mirror = self._adopt(req, actual)
            except Resync as why:
                mirror = self._skip_rest(pairs[i + 1:], replies[i + 1:], str(why))
                break
        self.ref = end if mirror is None else mirror
        return mirror is None

    def _skip_rest(self, pairs: list[tuple[dict[str, Any], Any]], replies: list[Any], why: str) -> Session:
        """The rest of a segment, not compared (the reference could not follow), then a resynchronisation."""
        for (req, _), actual in zip(pairs, replies):
            self.rec.trace.add(req, actual)
            self.history.append(req)
        self.explainable = False
        return self._resync(why)

    def _pipeline(self, reqs: list[dict[str, Any]]) -> list[Any]:
        try:
            replies = self.client.pipeline(reqs)
        except ProtocolViolation as exc:
            at = min(getattr(exc, "index", 0), len(reqs) - 1)
            for req in reqs[:at + 1]:
                self.rec.trace.add(req, None)
            self.rec.divergences.append(Divergence(
                self.rec.number, self.rec.seed, len(self.rec.trace.steps) - 1, reqs[at],
                f"{type(exc).__name__}: {exc}", kind="error", clause="protocol", deal=self._deal()))
            if hasattr(self.client, "restart"):  # a dead, silent or out-of-step engine starts afresh
                self.client.restart()
            raise GameStopped(f"the engine failed: {type(exc).__name__}") from None
        self.rec.requests += len(reqs)
        return replies

    def _replayed(self, start: Session, reqs: list[dict[str, Any]]) -> Any:
        s = Session(self.rules)
        s.game = start.game.copy() if start.game is not None else None
        for r in reqs:
            s.handle(self._ref_request(r))
        return s.game

    def _deal(self) -> int:
        return int((self.before or {}).get("deal") or 1)

    def _agreed(self, req: dict[str, Any], expected: dict[str, Any], actual: dict[str, Any]) -> None:
        if not expected["ok"]:
            return
        if req["cmd"] == "legal":
            self.engine_legal = (self.before, actual.get("actions") or [])  # its position is keyed when needed
            return
        if "state" in expected:
            if req["cmd"] == "act":
                self.rec.steps += 1
            self.before = expected["state"]
            self.engine_state = actual["state"]
            if expected["state"]["phase"] in ("deal_over", "game_over"):
                self.last_ranking = list(expected["state"]["finished"])

    def _diverged(self, index: int, req: dict[str, Any], expected: dict[str, Any], actual: Any,
                  finding: Finding) -> None:
        """Record a divergence (the variant that explains it is fitted over all traces afterwards)."""
        div = Divergence(self.rec.number, self.rec.seed, index, req, finding.message,
                         kind="error" if finding.kind == "protocol" else "fail", clause=finding.clause,
                         engine_error=finding.engine_error, deal=self._deal())
        self.rec.divergences.append(div)
        if finding.kind == "protocol" or not isinstance(actual, dict):
            if hasattr(self.client, "restart") and not isinstance(actual, dict):
                self.client.restart()
            raise GameStopped(f"a protocol error: {finding.message}"[:200])
        if req["cmd"] == "act" and expected["ok"] and not actual["ok"]:
            self.refused.setdefault(_key(self.before), set()).add(action_notation(req["action"]))
        if req["cmd"] == "legal" and actual["ok"]:
            self.engine_legal = (self.before, actual.get("actions") or [])
        div.evidence = Evidence(list(self.history), expected, actual, rule_view(self.before) if self.before else None,
                                finding.clause, {**self.table.variant, **self.explained} or None)
        div.replayable = not self.secret  # the shrinker replays it, adopting the engine's state where fields differ
        # which variant explains it is fitted afterwards, over every trace (`fit`): the reference now
        # goes on from the engine's state, not its own
        self.explainable = False
        self.segment = FIRST_SEGMENT_AFTER

    def _adopt(self, req: dict[str, Any], actual: dict[str, Any]) -> Session:
        """The reference at the engine's state after `req` (unchanged by a refusal or a query)."""
        self.adoptions += 1
        if self.adoptions > MAX_ADOPT:
            raise GameStopped(f"stopped after {MAX_ADOPT} divergences")
        state = actual.get("state") if actual.get("ok") and isinstance(actual.get("state"), dict) else self.engine_state
        if state is None:
            raise GameStopped("the engine refused the new game")
        try:
            state = canonical_state(state)
            config = self.rules.config(**{**self.config, **self.table.variant, **self.explained})
            if state["phase"] in ("deal_over", "game_over"):
                self.last_ranking = list(state["finished"])
            game = game_from_state(self.rules, config, state, self.last_ranking)
        except PositionError as exc:
            if state.get("phase") == "exchange":
                raise Resync(str(exc)) from None
            raise GameStopped(f"the reference cannot take up the engine's position ({state.get('phase')}): {exc}"
                              [:200]) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise GameStopped(f"the reference cannot take up the engine's position ({state.get('phase')}): {exc}"
                              [:200]) from None
        holder = config.holder
        if holder is not None and game.deal == 1 and sum(len(h) for h in state["hands"]) == self.dealt:
            game.must = 1 << holder  # option.first-lead.holder: the first play is still due
        mirror = Session(self.rules)
        mirror.game = game
        self.before = game.to_wire()
        self.engine_state = state
        return mirror

    def _resync(self, why: str) -> Session:
        """An exchange position the reference cannot take up: the engine gives by its own legal
        lists (not compared, recorded with the reason) until play starts; the reference adopts that."""
        reply = self._pipeline([{"cmd": "state"}])[0]
        self.rec.trace.add({"cmd": "state"}, reply)
        if not (isinstance(reply, dict) and reply.get("ok") and isinstance(reply.get("state"), dict)):
            raise GameStopped(f"the engine gave no STATE to resynchronise after: {why}"[:200])
        state = reply["state"]
        if state.get("phase") == "exchange":
            state = self._through_exchange(state, why)
        return self._adopt({"cmd": "state"}, {"ok": True, "state": state})

    def _through_exchange(self, state: dict[str, Any], why: str) -> dict[str, Any]:
        self.rec.resynced.append(f"deal {state.get('deal')}: exchange not compared ({why})"[:200])
        for _ in range(4 * len(state.get("hands") or ()) + 4):
            if state.get("phase") != "exchange":
                return canonical_state(state)
            legal = self._pipeline([{"cmd": "legal"}])[0]
            self.rec.trace.add({"cmd": "legal"}, legal)
            actions = legal.get("actions") if isinstance(legal, dict) else None
            if not actions:
                break
            act = {"cmd": "act", "player": legal.get("player"), "action": actions[0]}
            reply = self._pipeline([act])[0]
            self.rec.trace.add(act, reply)
            self.history.append(act)
            if not (isinstance(reply, dict) and reply.get("ok") and isinstance(reply.get("state"), dict)):
                break
            state = reply["state"]
        raise GameStopped(f"the engine did not leave the exchange of deal {state.get('deal')} by its own legal actions")

    def _choose(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The first act after a divergence: from the engine's own legal list where known (half the
        time an action only the engine allows), never one the engine refused here."""
        here = _key(self.before)
        avoid = self.refused.get(here, set())
        mine = {action_notation(a) for a in actions}
        if self.engine_legal is not None and _key(self.engine_legal[0]) == here:
            theirs = [a for a in self.engine_legal[1] if _notation(a) not in avoid]
            extra = [a for a in theirs if _notation(a) not in mine]
            common = [a for a in theirs if _notation(a) in mine]
            if extra and (not common or self.rng.random() < 0.5):
                return self.rng.choice(extra)
            if common:
                return self.rng.choice(common)
        return self.rng.choice([a for a in actions if action_notation(a) not in avoid] or actions)

    def _seeded(self, req: dict[str, Any]) -> None:
        """A deal the engine makes from its seed, sent alone."""
        actual = self._pipeline([req])[0]
        index = len(self.rec.trace.steps)
        self.rec.trace.add(req, actual)
        try:
            self.ref = self._compare_seeded(index, req, actual, self.ref)
        except Resync as why:
            self.ref = self._resync(str(why))

    def _compare_seeded(self, index: int, req: dict[str, Any], actual: Any, ref: Session) -> Session:
        """A seeded deal compared by its observables; the reference then adopts the engine's deal."""
        problem = protocol_problem(self.table.schemas, req["cmd"], actual)
        if problem is not None:
            self._diverged(index, req, {"ok": True}, actual, problem)
        finding, expected, adopted = check_seeded(self._ref_request(req), ref, actual, self.before, self.rules,
                                                  self.last_ranking)
        if req["cmd"] == "new_game" and actual.get("ok"):
            self.history.append({k: v for k, v in req.items() if k != "seed"} | {"hands": actual["state"]["hands"]})
            self.dealt = sum(len(h) for h in actual["state"]["hands"])
        else:
            self.history.append(req)
            self.secret = True  # a later seeded deal: the cards before the exchange are the engine's secret
        if finding is not None:
            self._diverged(index, req, expected, actual, finding)
            return self._adopt(req, actual)
        if adopted is None:
            if not actual.get("ok"):
                return ref  # both refuse it: nothing changed
            adopted = self._adopt(req, actual)
            self.adoptions -= 1  # a seeded deal adopted is no divergence
        elif expected.get("ok"):
            count_notes(self.rec.notes, expected["state"], actual["state"])
        self.before = expected["state"] if expected.get("ok") else self.before
        self.engine_state = actual.get("state") or self.engine_state
        return adopted


def _notation(action: Any) -> str:
    try:
        return action_notation(action)
    except ProtocolViolation:
        return repr(action)


def _trace(number: int) -> Trace:
    return Trace(f"game {number}")
