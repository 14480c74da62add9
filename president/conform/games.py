"""One lock-step game, played in segments: planned on the reference, pipelined, compared, adopted.

The reference plans a random stretch of the game from its current position (`plan_segment`);
the requests go to the engine in one pipeline and each reply is compared (`check_reply`). At the
first divergence of a segment the reference adopts the engine's own state after that request
(`game_from_state`: play, exchange, deal over) and compares the rest of the pipeline from there,
adopting again at each divergence; the next segment is planned from the engine's position (after
a divergence segments are short, and double while the engine agrees). A STATE the reference
cannot hold (`replay`: a finished seat to act...) is waited out: the engine plays by its own legal
lists, not compared, until it shows one the reference can hold (`_find_way`, recorded in
`resynced`). A game ends at game_over, or stops with the reason recorded (a protocol error, a new
game refused, no STATE the reference can hold within `WANDER_ACTS` actions: *not followable*, with
the invariant it breaks). Seeded deals go alone: compared by their observables (`deals`), the
reference adopts the hands. Replaying, comparing and adopting are `replay.Replayer`'s.
"""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..game.engine import Phase, Ruleset
from ..protocol.client import Client, ProtocolViolation
from ..protocol.server import Session
from ..scenarios.model import action_notation, card_key, check_state_shape
from ..spec import Spec
from .deals import declares_spec_shuffle, is_seeded
from .diagnose import Evidence, Finding, SchemaSampler, diverge, note_kind, representation_notes, rule_view
from .baseline import Divergent
from .views import seen_key
from .records import Divergence, GameRecord
from .replay import Replayer, Step, override
from .toolkit import NO_DEADLINE, Deadline
from .trace import Trace, compact
from ..errors import PresidentError

#: Options every new_game sets in its config, never a house rule an engine declares to play.
TABLE_OPTIONS = ("revolution", "deals")


def house_options(spec: Spec) -> tuple[str, ...]:
    """Protocol option names of the house rules (docs/protocol.md): the spec's options but
    revolution and deals."""
    return tuple(o.name for o in spec.options if o.name not in TABLE_OPTIONS)


MAX_ADOPT = 400  # adoptions of the engine's state in one game; then the game stops (reported)
MAX_REQUESTS = 40_000  # requests in one game, likewise
WANDER_ACTS = 64  # engine actions (not compared) to reach a STATE the reference can hold again
SEEDED_SHARE = 0.3  # share of games dealt from a seed, for an engine that declares `seed`
FIRST_SEGMENT_AFTER = 4  # acts in the first segment after a divergence (doubling while the engine agrees)
#: Requests written to the engine at once: their replies are held until compared, and one `legal`
#: reply may list 10,000 actions (several MB as dicts), so a segment is sent in slices of this many.
PIPELINE_SLICE = 8


class GameStopped(PresidentError):
    """The game cannot go on (the reason is recorded with it)."""


@dataclass
class Table:
    """What every game of a run shares: the spec, the engine's options, the variant in force."""

    spec: Spec
    rules: Ruleset
    options: dict[str, Any]
    declared: set[str]
    variant: dict[str, Any] = field(default_factory=dict)  # options the reference plays besides the config
    schemas: SchemaSampler = field(default_factory=SchemaSampler)
    deadline: Deadline = NO_DEADLINE
    #: each game keeps the fit's baseline of its divergences (`GameRecord.fit_steps`): the games are
    #: played in this process and the reference plays each game's own config
    baseline: bool = False

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
    for name in house_options(spec):  # a declared house rule is played (the reference plays it once it knows it)
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
        actions = legal.get("actions")
        if not actions:
            raise GameStopped(f"the reference has no legal action at {s.game!r}"[:200])
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


def _key(state: dict[str, Any] | None) -> str:
    return json.dumps(rule_view(state), sort_keys=True) if state else ""


class Game:
    """One lock-step game against the engine; `play()` returns its record."""

    def __init__(self, table: Table, client: Client, number: int, seed: int):
        self.table, self.client, self.rules = table, client, table.rules
        self.rng = random.Random(seed)
        self.rec = GameRecord(number, seed, _trace(number), fit_steps=[] if table.baseline else None)
        # the reference, in step with the engine (one replay loop: `replay.Replayer`)
        self.rep = Replayer(self.rules, override(table.variant) if table.variant else None, self._compare,
                            table.spec_shuffle, table.deadline)
        self.engine_state: dict[str, Any] | None = None  # the engine's last STATE
        self.history: list[dict[str, Any]] = []  # the game's requests, replayable from new_game (explicit hands)
        self.secret = False  # a seeded later deal was played: its cards before the exchange are the engine's
        self.adoptions = 0
        self.segment: int | None = None  # acts per segment (None: to the end of the game)
        self.engine_legal: tuple[Any, list[Any]] | None = None  # (position, the engine's legal actions there)
        self.refused: dict[str, set[str]] = {}  # position -> actions the engine refused there
        self.config: dict[str, Any] = {}
        self.unheld = 0  # replies not compared since the reference lost the engine's STATE
        self.lost_why = ""
        self.shown: set[tuple[str, Any]] = set()  # (clause, mechanism) of the divergences with their requests

    @property
    def ref(self) -> Session:
        return self.rep.ref

    @property
    def before(self) -> dict[str, Any] | None:
        return self.rep.before

    # --- the game -----------------------------------------------------------------------
    def play(self) -> GameRecord:
        t0 = time.perf_counter()
        t = self.table
        self.config = game_config(self.rng, t.spec, t.options)
        self.seeded = t.seeded and self.rng.random() < SEEDED_SHARE
        try:
            first = self._start()
            while first or (self.ref.game is not None and self.ref.game.phase != Phase.GAME_OVER):
                if self.rec.requests > MAX_REQUESTS:
                    raise GameStopped(f"stopped after {MAX_REQUESTS} requests")
                start = self.ref
                if first:  # the first segment is planned from the new game, and pipelined with it
                    start = Session(self.rules)
                    start.handle(self.rep.request(first[0]))
                pairs = plan_segment(t.spec, start, self.rng, self.segment, self.seeded, t.spec_shuffle,
                                     self._choose if self.adoptions else None)[0] if start.game is not None else []
                deal = pairs.pop() if pairs and pairs[-1][1] is None else None
                reqs, first = first + [r for r, _ in pairs], []
                if not reqs and deal is None:
                    raise GameStopped("no request left to play")
                clean = not reqs or self._segment(reqs)
                if self.ref.game is None:
                    raise GameStopped(f"the reference refuses this table: {self.rep.request(reqs[0])['config']}"
                                      [:200])
                if deal is not None and clean:
                    clean = self._segment([deal[0]])  # a deal the engine makes from its seed goes alone
                if clean and self.segment is not None:
                    self.segment = None if self.segment >= 256 else self.segment * 2
        except GameStopped as stop:
            self.rec.unfinished = str(stop)
        self.rec.seconds = time.perf_counter() - t0
        return self.rec

    def _start(self) -> list[dict[str, Any]]:
        """The game's new_game, to pipeline with the first segment; a deal the engine makes from its
        own seed goes alone (the reference plans from the engine's hands), and [] is returned."""
        if self.seeded:
            req = {"cmd": "new_game", "config": self.config, "seed": self.rng.randrange(1 << 31)}
            if not self.table.spec_shuffle:
                self._segment([req])
                if self.ref.game is None:
                    raise GameStopped(f"the reference refuses this table: {self.rep.request(req)['config']}"[:200])
                return []
        else:
            req = {"cmd": "new_game", "config": self.config, "hands": _hands_for(self.rng, self.table.spec, self.config)}
        return [req]

    def _segment(self, reqs: list[dict[str, Any]]) -> bool:
        """Pipeline the planned requests, replay every reply on the reference (`Replayer.step`); True
        when the engine agreed throughout."""
        replies = self._pipeline(reqs)
        clean = True
        for i, (req, actual) in enumerate(zip(reqs, replies)):
            index = len(self.rec.trace.steps)
            self.rec.trace.add(req, actual)
            self._remember(req, actual)
            if is_seeded(req):  # compared by its observables: its shape is checked here
                problem = protocol_problem(self.table.schemas, req["cmd"], actual)
                if problem is not None:
                    self._diverged(index, Step(req, {"ok": True}, actual, problem, self.ref.game, self.before))
            step = self.rep.step(req, actual)
            if step.skipped:  # the reference is lost: not compared, until it can hold the engine's STATE
                self.unheld += 1
                clean = False
                if step.adopted:
                    self._found_again(actual["state"])
                continue
            if step.finding is None:
                self._agreed(step)
                continue
            clean = False
            self._diverged(index, step)
            if step.held is not None:
                self._held(step)
            stopped = self.rep.stopped
            if stopped is not None:  # a new game refused, a table the reference cannot play
                raise GameStopped(f"{stopped.message}: {stopped.clause}"[:300])
            if step.adopted:
                self.engine_state = actual["state"]
                self.adoptions += 1
                if self.adoptions > MAX_ADOPT:
                    raise GameStopped(f"stopped after {MAX_ADOPT} divergences")
        if self.rep.lost is not None:
            self._find_way()
        return clean

    def _compare(self, req: dict[str, Any], expected: dict[str, Any], actual: Any, before: dict[str, Any] | None,
                 refusal: Any) -> Finding | None:
        return check_reply(self.table.schemas, self.rec.notes, req, expected, actual, before, refusal)

    def _remember(self, req: dict[str, Any], actual: Any) -> None:
        """The game's requests, replayable from new_game: a seeded new_game with the hands it dealt."""
        if req.get("cmd") == "new_game" and "seed" in req and "hands" not in req:
            if isinstance(actual, dict) and actual.get("ok") and isinstance(actual.get("state"), dict):
                req = {k: v for k, v in req.items() if k != "seed"} | {"hands": actual["state"].get("hands")}
        elif req.get("cmd") == "deal" and "hands" not in req:
            self.secret = True  # a later seeded deal: the cards before the exchange are the engine's secret
        self.history.append(req)

    def _held(self, step: Step) -> None:
        """The engine's STATE breaks an invariant (`step.held`): its divergence carries the STATE; the
        reference holds it as the spec can (`counted_passes`), or is lost until it can hold one."""
        held = step.held
        assert held is not None
        state = step.actual.get("state") if isinstance(step.actual, dict) else None
        how = "not followable" if step.stop is not None else "followed as the spec can hold it"
        self.rec.divergences[-1].details = f"{how}: {held.message}: {held.clause}; the engine's STATE: " \
                                           f"{json.dumps(state, sort_keys=True)[:600]}"
        if step.stop is not None:
            self.unheld, self.lost_why = 0, f"{held.message}: {held.clause}"

    def _found_again(self, state: dict[str, Any]) -> None:
        """The reference holds the engine's STATE again after `unheld` replies not compared."""
        self.rec.resynced.append(f"deal {state.get('deal')}: {self.unheld} request(s) not compared after a STATE "
                                 f"the reference cannot hold ({self.lost_why})"[:200])
        self.engine_state = state
        self.adoptions += 1
        if self.adoptions > MAX_ADOPT:
            raise GameStopped(f"stopped after {MAX_ADOPT} divergences")

    def _find_way(self) -> None:
        """The reference is lost (a STATE it cannot hold): the engine plays by its own legal lists, not
        compared, until it shows a STATE the reference can hold (adopted), else the game stops."""
        for _ in range(WANDER_ACTS):
            legal = self._pipeline([{"cmd": "legal"}])[0]
            self.rec.trace.add({"cmd": "legal"}, legal)
            self.history.append({"cmd": "legal"})
            self.rep.step({"cmd": "legal"}, legal)
            self.unheld += 1
            actions = legal.get("actions") if isinstance(legal, dict) and legal.get("ok") else None
            if not actions:
                break
            act = {"cmd": "act", "player": legal.get("player"), "action": self.rng.choice(actions)}
            reply = self._pipeline([act])[0]
            self.rec.trace.add(act, reply)
            self.history.append(act)
            self.unheld += 1
            step = self.rep.step(act, reply)
            if step.adopted:
                self._found_again(reply["state"])
                return
            if not (isinstance(reply, dict) and reply.get("ok")):
                break
        raise GameStopped(f"not followable: {self.lost_why}"[:300])

    def _pipeline(self, reqs: list[dict[str, Any]]) -> list[Any]:
        """The engine's replies to `reqs`, sent `PIPELINE_SLICE` at a time, a long legal list kept
        compactly as soon as it is read (`trace.compact`)."""
        replies: list[Any] = []
        try:
            for start in range(0, len(reqs), PIPELINE_SLICE):
                replies += map(compact, self.client.pipeline(reqs[start:start + PIPELINE_SLICE]))
        except ProtocolViolation as exc:
            at = min(len(replies) + getattr(exc, "index", 0), len(reqs) - 1)
            self.rec.compared_to = len(self.rec.trace.steps)  # no reply from here
            for req in reqs[:at + 1]:
                self.rec.trace.add(req, None)
            self.rec.divergences.append(Divergence(
                self.rec.number, self.rec.seed, len(self.rec.trace.steps) - 1, reqs[at],
                f"{type(exc).__name__}: {exc}", kind="error", clause="protocol", deal=self._deal()))
            self.client.restart()  # a dead, silent or out-of-step engine starts afresh
            raise GameStopped(f"the engine failed: {type(exc).__name__}") from None
        self.rec.requests += len(reqs)
        return replies

    def _deal(self) -> int:
        return int((self.before or {}).get("deal") or 1)

    def _agreed(self, step: Step) -> None:
        req, expected, actual = step.request, step.expected, step.actual
        if not expected.get("ok") or not isinstance(actual, dict):
            return
        if req["cmd"] == "legal":
            self.engine_legal = (step.before, actual.get("actions") or [])  # its position is keyed when needed
            return
        if "state" in expected:
            if req["cmd"] == "act":
                self.rec.steps += 1
            self.engine_state = actual.get("state")

    def _diverged(self, index: int, step: Step) -> None:
        """Record a divergence (the variant that explains it is fitted over all traces afterwards)."""
        req, expected, actual, finding = step.request, step.expected, step.actual, step.finding
        assert finding is not None
        before = step.before
        deal = int((before or {}).get("deal") or 1)
        div = Divergence(self.rec.number, self.rec.seed, index, req, finding.message,
                         kind="error" if finding.kind == "protocol" else "fail", clause=finding.clause,
                         engine_error=finding.engine_error, deal=deal)
        self.rec.divergences.append(div)
        if finding.kind == "protocol" or not isinstance(actual, dict):
            self.rec.compared_to = index
            if not isinstance(actual, dict):
                self.client.restart()
            raise GameStopped(f"a protocol error: {finding.message}"[:200])
        if req["cmd"] == "act" and expected.get("ok") and not actual.get("ok"):
            self.refused.setdefault(_key(before), set()).add(action_notation(req["action"]))
        if req["cmd"] == "legal" and actual.get("ok"):
            self.engine_legal = (before, actual.get("actions") or [])
        div.evidence = Evidence([req], expected, actual, rule_view(before) if before else None,
                                finding.clause, dict(self.table.variant) or None)
        if (finding.clause, div.mechanism) not in self.shown:  # the game's requests: for its first of each
            self.shown.add((finding.clause, div.mechanism))    # kind only (the only one a sample can be)
            div.evidence.requests = list(self.history)
        div.replayable = not self.secret  # the shrinker replays it, adopting the engine's state where fields differ
        if self.rec.fit_steps is not None:  # the fit's baseline, while the position is at hand
            position = step.position.copy() if step.position is not None and req["cmd"] == "legal" else step.position
            self.rec.fit_steps.append(Divergent((self.rec.number, index, finding.clause), finding, req, position,
                                                dict(self.rep.config), expected, actual, seen=seen_key(expected)))
        # which variant explains it is fitted afterwards, over every trace (`fit`): the reference now
        # goes on from the engine's state, not its own
        self.segment = FIRST_SEGMENT_AFTER

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


def _notation(action: Any) -> str:
    try:
        return action_notation(action)
    except ProtocolViolation:
        return repr(action)


def _trace(number: int) -> Trace:
    return Trace(f"game {number}")
