"""Run the spec's scenarios against an engine: handshake, selection, outcomes.

Outcomes: `pass`; `fail` (a wrong answer: `Mismatch`); `error` (crash, timeout, malformed
reply, protocol violation); `skip` (the engine's `hello` options exclude the scenario).
A dead or timed-out engine is restarted and the run goes on with the next scenario.
"""
from __future__ import annotations

import fnmatch
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..spec import Spec
from .client import Client, ProtocolViolation, RunStopped
from ..scenarios.model import Mismatch, Scenario, ScenarioRun, build_scenarios, missing_requirement

PROTOCOL_VERSION = 1
OUTCOMES = ("pass", "fail", "error", "skip")


@dataclass
class ScenarioResult:
    id: str
    clause: str
    section: str
    name: str
    outcome: str  # pass | fail | error | skip
    message: str = ""
    details: str = ""
    step: str = ""  # the step phrase where it stopped
    reasons: list[str] = field(default_factory=list)  # engine refusal codes/rules seen
    seconds: float = 0.0
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (keyword kind, text, status)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "clause": self.clause, "outcome": self.outcome, "message": self.message,
                "details": self.details, "step": self.step, "reasons": self.reasons,
                "seconds": round(self.seconds, 6)}


class HandshakeError(Exception):
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
    if not isinstance(hello.get("options", {}), dict):
        raise HandshakeError("hello.options must be an object")
    return hello


def select(scenarios: Iterable[Scenario], patterns: Iterable[str] = ()) -> list[Scenario]:
    """Scenarios whose id (clause-id/slug) contains or glob-matches any of `patterns` (all if none)."""
    pats = [p for p in patterns if p]
    if not pats:
        return list(scenarios)
    return [s for s in scenarios
            if any(p in s.id or fnmatch.fnmatchcase(s.id, p) or fnmatch.fnmatchcase(s.clause, p) for p in pats)]


def run_scenario(client: Client, sc: Scenario, options: dict[str, Any] | None = None) -> ScenarioResult:
    res = ScenarioResult(sc.id, sc.clause, sc.section, sc.name, "pass")
    why = missing_requirement(options or {}, sc.requires) if options is not None else None
    if why:
        res.outcome, res.message = "skip", why
        res.steps = [(op.kind, op.text, "skipped") for op in sc.ops]
        return res
    t0 = time.perf_counter()
    run = ScenarioRun(client)
    done = 0
    try:
        for op in sc.ops:
            res.step = op.text
            run.execute(op)
            done += 1
    except Mismatch as exc:
        res.outcome, res.message, res.details = "fail", exc.message, exc.details
    except ProtocolViolation as exc:
        res.outcome, res.message = "error", f"{type(exc).__name__}: {exc}"
        if hasattr(client, "restart"):  # a dead, silent or out-of-step engine starts afresh
            try:
                client.restart()
                handshake(client)
            except (ProtocolViolation, HandshakeError) as again:  # it will not come back: stop the run
                raise RunStopped(f"the engine could not be restarted after {type(exc).__name__}: {again}") from None
    except RunStopped:  # hung engine, spent budget: the whole run stops
        raise
    except Exception as exc:  # noqa: BLE001 - an in-process engine crashing is an error outcome
        res.outcome, res.message = "error", f"engine crashed: {type(exc).__name__}: {exc}"
        if hasattr(client, "restart"):
            client.restart()
    res.seconds = time.perf_counter() - t0
    res.reasons = run.reasons
    if res.outcome == "pass":
        res.step = ""
    status = {"pass": "passed", "fail": "failed", "error": "failed"}[res.outcome]
    res.steps = [(op.kind, op.text, "passed" if i < done else (status if i == done else "skipped"))
                 for i, op in enumerate(sc.ops)]
    return res


def run_scenarios(client: Client, spec: Spec, patterns: Iterable[str] = (),
                  options: dict[str, Any] | None = None) -> list[ScenarioResult]:
    return [run_scenario(client, sc, options) for sc in select(build_scenarios(spec), patterns)]


_RANK = {"fail": 3, "error": 4, "pass": 1, "skip": 0}


def clause_outcomes(spec: Spec, results: list[ScenarioResult]) -> dict[str, str]:
    """One outcome per clause: error > fail > pass > skip; `none` when it has no scenario run."""
    out: dict[str, str] = {}
    for clause in spec.clauses:
        mine = [r.outcome for r in results if r.clause == clause.id]
        out[clause.id] = max(mine, key=lambda o: _RANK[o]) if mine else "none"
    return out


def totals(results: list[ScenarioResult]) -> dict[str, int]:
    return {"passed": sum(r.outcome == "pass" for r in results),
            "failed": sum(r.outcome == "fail" for r in results),
            "errors": sum(r.outcome == "error" for r in results),
            "skipped": sum(r.outcome == "skip" for r in results)}
