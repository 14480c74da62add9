"""Run the spec's scenarios against an engine: handshake, selection, outcomes.

Outcomes (`Outcome`): `pass`; `fail` (a wrong answer: `Mismatch`, on the scenario's own clause);
`blocked` (a wrong answer whose root cause is another clause: replayed on the reference, the
engine's first divergence breaks that clause, reported as `blocked by <clause>`); `error`
(crash, timeout, not JSON); `protocol` (a reply breaking the shipped schemas); `skip` (the
engine's `hello` options exclude the scenario); `toolkit` (a bug of the toolkit inside this
scenario: no verdict, the error is kept as a `toolkit.ToolkitError` and the run goes on). A dead or
timed-out engine is restarted and the run goes on with the next scenario. Representation
differences the rules leave open are notes.
"""
from __future__ import annotations

import fnmatch
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Iterable

from ..scenarios.model import MalformedReply, Mismatch, Scenario, ScenarioRun, build_scenarios, missing_requirement
from ..spec import Spec
from ..protocol.client import Client, InProcessClient, ProtocolViolation, RunStopped, settled, strays
from ..scenarios.sizes import is_refused_start, movable_reason, native_players, sized
from .diagnose import Evidence, Finding, SchemaSampler
from .replay import root_cause
from .deals import declares_spec_shuffle
from .toolkit import ToolkitError, guard
from .trace import Trace
from ..errors import PresidentError

PROTOCOL_VERSION = 1


class Outcome(StrEnum):
    """A scenario's outcome; its value is the string the reports write."""

    PASS = "pass"
    FAIL = "fail"
    BLOCKED = "blocked"
    ERROR = "error"
    PROTOCOL = "protocol"
    SKIP = "skip"
    TOOLKIT = "toolkit"


OUTCOMES = tuple(Outcome)


@dataclass
class ScenarioResult:
    id: str
    clause: str
    section: str
    name: str
    outcome: Outcome
    message: str = ""
    root: Finding | None = None  # the first rule divergence, replayed on the reference
    evidence: Evidence | None = None
    blocked_by: str = ""
    notes: list[str] = field(default_factory=list)  # representation differences (not failures)
    sent: list[tuple[dict[str, Any], Any]] = field(default_factory=list)
    details: str = ""
    step: str = ""  # the step phrase where it stopped
    reasons: list[str] = field(default_factory=list)  # engine refusal codes/rules seen
    seconds: float = 0.0
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (keyword kind, text, status)
    trace: Trace | None = None  # what the engine was sent and answered (None when skipped)
    toolkit_error: ToolkitError | None = None  # the toolkit's own bug in this scenario (outcome `toolkit`)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "clause": self.clause, "outcome": str(self.outcome), "message": self.message,
                "details": self.details, "step": self.step, "reasons": self.reasons,
                "root_clause": self.root.clause if self.root else None, "blocked_by": self.blocked_by or None,
                "notes": self.notes, "seconds": round(self.seconds, 6)}


class HandshakeError(PresidentError):
    """The engine's hello is missing, malformed or speaks another protocol version."""


def handshake(client: Client) -> dict[str, Any]:
    """Send hello; check the protocol version; return the hello reply."""
    try:
        hello = client.hello()
    except ProtocolViolation as exc:
        raise HandshakeError(f"no valid reply to hello: {exc}") from None
    if not isinstance(hello, dict) or hello.get("ok") is not True:
        raise HandshakeError(f"hello was refused or malformed: {hello!r}")
    if hello.get("protocol") != PROTOCOL_VERSION:
        raise HandshakeError(f"engine speaks protocol {hello.get('protocol')!r}, this runner speaks {PROTOCOL_VERSION}")
    options = hello.get("options", {})
    if not isinstance(options, dict):
        raise HandshakeError(f"hello.options must be an object, got {_short(options)}")
    from ..protocol.wire import reply_problems

    for problem in reply_problems("hello", {**hello, "options": options}):
        if problem.startswith("options/"):  # what the engine says it plays decides what is run: exact
            field, _, why = problem.partition(": ")
            raise HandshakeError(f"hello.{field.replace('/', '.')} is malformed: {why[:200]}")
    if "players" in options and not options["players"]:
        raise HandshakeError("hello.options.players is empty: the engine plays no table size, nothing could be run")
    return hello


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def select(scenarios: Iterable[Scenario], patterns: Iterable[str] = ()) -> list[Scenario]:
    """Scenarios whose id (clause-id/slug) contains or glob-matches any of `patterns` (all if none)."""
    pats = [p for p in patterns if p]
    if not pats:
        return list(scenarios)
    return [s for s in scenarios
            if any(p in s.id or fnmatch.fnmatchcase(s.id, p) or fnmatch.fnmatchcase(s.clause, p) for p in pats)]


def at_declared_size(sc: Scenario, options: dict[str, Any], spec: Spec | None = None) -> tuple[Scenario, str]:
    """The scenario at a table size the engine declares: its own when declared, else the smallest
    declared size it moves to (president.scenarios.sizes); with why not, when it cannot be moved."""
    declared = options.get("players")
    if not isinstance(declared, list) or not declared:
        return sc, ""
    n0 = native_players(sc)
    if n0 in declared:
        return sc, ""
    if not is_refused_start(sc) and missing_requirement(options, tuple(r for r in sc.requires if r[0] != "players")):
        return sc, ""  # another option is missing: that is the skip's reason
    if spec is None:
        from ..spec import default_spec
        spec = default_spec()
    if is_refused_start(sc) and not spec.players.min <= n0 <= spec.players.max:
        return sc, ""  # a table size out of range: its refusal is what it tests
    reasons = []
    for n in sorted(x for x in declared if isinstance(x, int) and not isinstance(x, bool) and x > n0):
        found = sized(spec, sc, n)
        if found.scenario is not None:
            return found.scenario, ""
        reasons.append(found.short if movable_reason(sc) else f"not at {n}: {found.short}")
    if not reasons:
        reasons.append(movable_reason(sc) or f"an example for {n0} players is not moved to a smaller table")
    return sc, reasons[0]


def run_scenario(client: Client, sc: Scenario, options: dict[str, Any] | None = None,
                 validate: Any = None, spec: Spec | None = None) -> ScenarioResult:
    """Run one scenario; when the engine does not declare its table size, at one it declares.

    A bug of the toolkit on the way costs this scenario alone: its outcome is `toolkit`, with the
    error, its traceback and what the engine was sent and answered (`toolkit_error`)."""
    runs: list[ScenarioRun] = []
    with guard("scenario", sc.id, trace=lambda: list(runs[-1].sent) if runs else []) as caught:
        return _run_scenario(client, sc, options, validate, spec, runs)
    assert caught.error is not None
    res = ScenarioResult(sc.id, sc.clause, sc.section, sc.name, Outcome.TOOLKIT,
                         f"toolkit error (not the engine's fault): {caught.error.error}", toolkit_error=caught.error)
    res.steps = [(op.kind, op.text, "skipped") for op in sc.ops]
    res.trace = Trace(sc.id, steps=[tuple(step) for step in caught.error.trace])
    try:  # the engine may be in the middle of the scenario: the next one starts afresh
        client.restart()
        handshake(client)
    except (ProtocolViolation, HandshakeError) as again:
        raise RunStopped(f"the engine could not be restarted after a toolkit error: {again}", "crash") from None
    return res


def _run_scenario(client: Client, sc: Scenario, options: dict[str, Any] | None, validate: Any,
                  spec: Spec | None, runs: list[ScenarioRun]) -> ScenarioResult:
    not_moved = ""
    if options is not None:
        sc, not_moved = at_declared_size(sc, options, spec)
    res = ScenarioResult(sc.id, sc.clause, sc.section, sc.name, Outcome.PASS)
    why = missing_requirement(options or {}, sc.requires) if options is not None else None
    if why and not_moved:
        why = f"{why} ({not_moved})"
    if why:
        res.outcome, res.message = Outcome.SKIP, why
        res.steps = [(op.kind, op.text, "skipped") for op in sc.ops]
        return res
    t0 = time.perf_counter()
    stray = strays(client)
    # a scenario tests its own clause: where the engine can start from a position, it starts from
    # the spec's opening one (who leads first is tested by the setup scenarios alone)
    run = ScenarioRun(client, validate=validate,
                      position=bool((options or {}).get("position")) and sc.section != "setup",
                      engine_options=options)
    runs.append(run)
    done = 0
    try:
        for op in sc.ops:
            res.step = op.text
            run.execute(op)
            done += 1
    except Mismatch as exc:
        res.outcome, res.message, res.details = Outcome.FAIL, exc.message, exc.details
        found = root_cause(run.sent, spec_shuffle=declares_spec_shuffle(options))
        if found is not None:
            res.root, res.evidence = found
        if res.root is not None and res.root.clause not in (sc.clause, "protocol"):
            res.outcome, res.blocked_by = Outcome.BLOCKED, res.root.clause
    except MalformedReply as exc:
        res.outcome, res.message = Outcome.PROTOCOL, str(exc)
    except ProtocolViolation as exc:
        res.outcome, res.message = Outcome.ERROR, f"{type(exc).__name__}: {exc}"
        try:  # a dead, silent or out-of-step engine starts afresh
            client.restart()
            handshake(client)
        except (ProtocolViolation, HandshakeError) as again:  # it will not come back: stop the run
            raise RunStopped(f"the engine could not be restarted after {type(exc).__name__}: {again}",
                             "crash") from None
    except RunStopped:  # hung engine, spent budget: the whole run stops
        raise
    except Exception as exc:
        if not isinstance(client, InProcessClient):
            raise  # not the engine (its faults are ProtocolViolations): the toolkit's own bug
        res.outcome, res.message = Outcome.ERROR, f"engine crashed: {type(exc).__name__}: {exc}"
        client.restart()  # an engine called in this process raised: that is its crash
    if res.outcome == Outcome.PASS:  # its checks passed: did the engine still diverge on the way?
        found = root_cause(run.sent, spec_shuffle=declares_spec_shuffle(options))
        if found is not None:
            res.root, res.evidence = found
            res.message = f"its checks pass, but the engine diverged on the way: {res.root.text()}"
            own = res.root.clause in (sc.clause, "protocol")
            res.outcome = Outcome.FAIL if own else Outcome.BLOCKED
            res.blocked_by = "" if own else res.root.clause
            res.step = "(between the checked steps)"
    res.seconds = time.perf_counter() - t0
    res.reasons, res.notes = run.reasons, run.notes
    res.trace = Trace(sc.id, steps=list(run.sent))
    if _shifted(client, res, stray):
        res.trace = Trace(sc.id)  # no verdict rests on its replies, nor any deviation the fit would find
    res.sent = res.trace.steps  # the replies as the trace keeps them (a long legal list compactly)
    if res.outcome == Outcome.PASS:
        res.step = ""
    status = "passed" if res.outcome == Outcome.PASS else "failed"
    res.steps = [(op.kind, op.text, "passed" if i < done else (status if i == done else "skipped"))
                 for i, op in enumerate(sc.ops)]
    return res


def _shifted(client: Client, res: ScenarioResult, stray: int) -> bool:
    """Whether a line that answered no request (a second reply) came during the scenario, so that a
    reply it judged may be another request's: then it is an error (a protocol fault), never a fail.
    A divergence waits for such a line a moment first (`settle`)."""
    fault = ""
    try:
        if res.outcome in (Outcome.FAIL, Outcome.BLOCKED):
            settled(client)
    except ProtocolViolation as exc:  # the late line came: the engine is stopped, and started afresh
        fault = f": {type(exc).__name__}: {exc}"
        try:
            client.restart()
            handshake(client)
        except (ProtocolViolation, HandshakeError) as again:
            raise RunStopped(f"the engine could not be restarted after {type(exc).__name__}: {again}",
                             "crash") from None
    if strays(client) <= stray:
        return False
    if res.outcome != Outcome.ERROR:
        res.outcome, res.details = Outcome.ERROR, res.message
        res.message = ("a line on stdout answered no request during this scenario (a second reply?): its "
                       f"replies may be another request's, so it has no verdict{fault}")
    res.root = res.evidence = None
    res.blocked_by = ""
    return True


def is_ai(sc: Scenario) -> bool:
    return sc.section == "ai"


def is_ai_result(r: ScenarioResult) -> bool:
    return r.section == "ai"


def run_scenarios(client: Client, spec: Spec, patterns: Iterable[str] = (),
                  options: dict[str, Any] | None = None, ai: bool | None = None) -> list[ScenarioResult]:
    """The rule scenarios, and the AI suite (`ai=True`, by default when the engine declares
    AI levels in `hello.options.ai`); replies are checked against the shipped schemas."""
    if ai is None:
        ai = options is None or bool((options or {}).get("ai"))
    validate = SchemaSampler()
    return [run_scenario(client, sc, options, validate, spec) for sc in select(build_scenarios(spec), patterns)
            if ai or not is_ai(sc)]


_RANK = {Outcome.TOOLKIT: 6, Outcome.ERROR: 5, Outcome.PROTOCOL: 5, Outcome.FAIL: 4, Outcome.BLOCKED: 2,
         Outcome.PASS: 1, Outcome.SKIP: 0}


def clause_outcomes(spec: Spec, results: list[ScenarioResult]) -> dict[str, str]:
    """One outcome per clause: toolkit > error > fail > blocked > pass > skip; `none` when it has no scenario run."""
    out: dict[str, str] = {}
    for clause in spec.clauses:
        mine = [r.outcome for r in results if r.clause == clause.id]
        out[clause.id] = max(mine, key=lambda o: _RANK[o]) if mine else "none"
    return out


def totals(results: list[ScenarioResult]) -> dict[str, int]:
    return {"passed": sum(r.outcome == Outcome.PASS for r in results),
            "failed": sum(r.outcome == Outcome.FAIL for r in results),
            "errors": sum(r.outcome in (Outcome.ERROR, Outcome.PROTOCOL) for r in results),
            "skipped": sum(r.outcome == Outcome.SKIP for r in results),
            "blocked": sum(r.outcome == Outcome.BLOCKED for r in results),
            "toolkit_errors": sum(r.outcome == Outcome.TOOLKIT for r in results)}
