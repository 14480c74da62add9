"""Lock-step records: divergences, one game's record, where each difference showed, the run's
result, and the `Mechanism` of a divergent step (what differs: the grouping key of deviations)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnose import Evidence
from .toolkit import ToolkitError
from .trace import Trace, TraceSpool, notations


@dataclass(frozen=True, order=True)
class Mechanism:
    """What differs at a divergent step: the kind of request, its action type, and how the replies
    differ: `accepted` or `refused` where the reference does the opposite, or the STATE rule field
    that decides the clause (the first that differs, as `diagnose.state_clause` reads it). A `legal`
    list that differs counts as the act it lists or leaves out (`legal` listing a pass the reference
    refuses is the mechanism of accepting that pass); another seat in `legal` is `to_act`; a
    `new_game` and a later `deal` are one kind of request, a deal (the first deal is dealt like the others).
    Divergences under one clause with different mechanisms are different deviations."""

    request: str
    action: str = ""
    differs: str = ""

    def text(self) -> str:
        what = f"{self.request} {self.action}".strip()
        how = {"accepted": "accepted where the reference refuses",
               "refused": "refused where the reference accepts"}.get(self.differs)
        return f"{what}: {how or (self.differs + ' differs' if self.differs else 'differs')}"

    def as_dict(self) -> dict[str, str]:
        return {"request": self.request, "action": self.action, "differs": self.differs}


def _action_type(notation: str) -> str:
    return "pass" if notation == "pass" else "give" if notation.startswith("give") else "play"


def mechanism(request: dict[str, Any], expected: Any, actual: Any,
              before: dict[str, Any] | None = None) -> Mechanism:
    """The mechanism of one divergent step: `expected` the reference's reply, `actual` the engine's,
    `before` the reference's STATE before the request (None when unknown)."""
    from .diagnose import state_clause
    from ..scenarios.model import action_notation

    cmd = str(request.get("cmd") or "")
    action = request.get("action") if cmd == "act" else None
    kind_of = "deal" if cmd == "new_game" else cmd
    kind = str(action.get("type") or "") if isinstance(action, dict) else ""
    exp = expected if isinstance(expected, dict) else {}
    act = actual if isinstance(actual, dict) else {}
    if bool(exp.get("ok")) != bool(act.get("ok")):
        return Mechanism(kind_of, kind, "accepted" if act.get("ok") else "refused")
    try:
        if cmd == "legal":
            if exp.get("player") != act.get("player"):
                return Mechanism("act", "", "to_act")
            want = {action_notation(a) for a in exp.get("actions") or []}
            got = set(notations(act.get("actions") or []))
            extra, missing = sorted(got - want), sorted(want - got)
            if extra:
                return Mechanism("act", _action_type(extra[0]), "accepted")
            return Mechanism("act", _action_type(missing[0]) if missing else "", "refused")
        if isinstance(exp.get("state"), dict) and isinstance(act.get("state"), dict):
            return Mechanism(kind_of, kind, state_clause(before, request, exp["state"], act["state"])[1])
    except Exception:  # noqa: BLE001 - a malformed reply: the protocol's business, one mechanism
        return Mechanism(kind_of, kind, "malformed")
    return Mechanism(kind_of, kind)


@dataclass
class Divergence:
    game: int
    seed: int
    index: int  # request number within the game (its trace)
    request: dict[str, Any]
    message: str
    details: str = ""
    kind: str = "fail"  # fail | error
    clause: str = ""
    engine_error: str = ""
    followed: bool = False  # explained by a house rule: the reference plays on under it
    evidence: Evidence | None = None  # the game's requests from new_game, replayable on the reference
    rule: str | None = None  # the label of the house rule that explains it
    deal: int = 0  # the deal it showed in
    replayable: bool = False  # `evidence` replays from new_game on the reference (no seeded later deal in it)

    @property
    def mechanism(self) -> Mechanism:
        """What differs here (the grouping key of deviations under one clause)."""
        ev = self.evidence
        if ev is None:
            return mechanism(self.request, None, None)
        return mechanism(ev.requests[-1] if ev.requests else self.request, ev.expected, ev.actual, ev.before)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "index": self.index, "request": self.request,
                "clause": self.clause, "message": self.message, "engine_error": self.engine_error,
                "details": self.details, "kind": self.kind, "followed": self.followed, "deal": self.deal,
                "house_rule": self.rule}


@dataclass
class GameRecord:
    """What one game gave: merged in game order, whichever process played it."""

    number: int
    seed: int
    trace: Trace
    steps: int = 0
    requests: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    notes: dict[str, list] = field(default_factory=dict)  # note kind → [times seen, first example]
    unfinished: str = ""  # why the game stopped before game_over ("" when it was played out)
    resynced: list[str] = field(default_factory=list)  # stretches not compared, and why
    seconds: float = 0.0
    toolkit_error: ToolkitError | None = None  # the toolkit failed in this game (it stopped there)
    #: the fit's baseline of this game (`baseline.Divergent`s, its divergences as they were compared);
    #: None where it was not kept (another process played it: the fit replays its trace)
    fit_steps: "list[Any] | None" = None
    compared_to: int | None = None  # the step where comparing stopped (a protocol error), None: to the end


@dataclass
class Showing:
    """Where one difference showed in lock-step (one clause, one mechanism): its first divergence,
    the divergent steps and games, and the evidence replayable from new_game. The run's deviations
    (`verdict.Deviation`) are built from every trace; these give the shrinker its lock-step samples."""

    clause: str
    first: Divergence
    steps: int = 1  # divergent requests
    games: set[int] = field(default_factory=set)
    samples: list[Divergence] = field(default_factory=list)  # evidence replayable from new_game
    mech: Mechanism | None = None  # the first's, read once (later divergences keep no evidence)

    @property
    def mechanism(self) -> Mechanism:
        if self.mech is None:
            self.mech = self.first.mechanism
        return self.mech


@dataclass
class LockstepResult:
    games: int = 0
    steps: int = 0  # actions compared (accepted acts)
    requests: int = 0
    seconds: float = 0.0
    #: the first divergences (`KEEP_DIVERGENCES`) and the first of every clause after them, in game
    #: order; the counts below are over all of them
    divergences: list[Divergence] = field(default_factory=list)
    divergent_games: set[int] = field(default_factory=set)
    diverged_games: set[int] = field(default_factory=set)  # games with any divergence, engine errors included
    error_count: int = 0  # divergences that are engine errors or malformed replies
    notes: dict[str, list] = field(default_factory=dict)  # note kind → [times seen, first example]
    deviations: dict[tuple[str, Mechanism], Showing] = field(default_factory=dict)  # (clause, mechanism) → where it showed
    #: every game as the engine played it, in game order (spooled out of memory: `trace.TraceSpool`)
    traces: "TraceSpool | list[Trace]" = field(default_factory=TraceSpool)
    unfinished: list[tuple[int, str]] = field(default_factory=list)  # games not played to game_over, and why
    resynced: list[tuple[int, str]] = field(default_factory=list)  # stretches not compared (game, why)
    jobs: int = 1
    toolkit_errors: list[ToolkitError] = field(default_factory=list)  # the toolkit's own bugs, one per game at most
    #: the fit's baseline of the games that kept theirs (`GameRecord.fit_steps`), numbered by game
    baseline: Any = None

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> int:
        return len(self.divergent_games)

    @property
    def errors(self) -> int:
        return self.error_count

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "steps": self.steps, "divergent": self.failed, "errors": self.errors,
                "steps_per_s": round(self.steps_per_s, 1), "requests": self.requests,
                "seconds": round(self.seconds, 3), "jobs": self.jobs,
                "unfinished": [{"game": g, "why": why} for g, why in self.unfinished],
                "resynced": [{"game": g, "why": why} for g, why in self.resynced],
                "toolkit_errors": len(self.toolkit_errors),
                "deviations": [{"clause": d.clause, "mechanism": d.mechanism.as_dict(), "games": len(d.games),
                                "steps": d.steps, "first_game": d.first.game} for d in self.deviations.values()]}
