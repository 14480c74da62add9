"""Lock-step records: divergences, one game's record, deviations and the run's result."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnose import Evidence
from .trace import Trace


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
    toolkit_error: Any = None  # toolkit.ToolkitError: the toolkit failed in this game (it stopped there)


@dataclass
class Deviation:
    """One distinct rule difference: its clause, what explains or describes it, where it showed."""

    clause: str
    house_rule: Any  # None: the variant is fitted over all traces afterwards (`fit`)
    description: str
    first: Divergence
    steps: int = 1  # divergent requests
    games: set[int] = field(default_factory=set)
    samples: list[Divergence] = field(default_factory=list)  # evidence replayable from new_game

    @property
    def count(self) -> int:
        return self.steps

    @property
    def key(self) -> str:
        return self.house_rule.label if self.house_rule else self.description


@dataclass
class LockstepResult:
    games: int = 0
    steps: int = 0  # actions compared (accepted acts)
    requests: int = 0
    seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)
    divergent_games: set[int] = field(default_factory=set)
    notes: dict[str, list] = field(default_factory=dict)  # note kind → [times seen, first example]
    deviations: dict[tuple[str, str], Deviation] = field(default_factory=dict)  # (clause, rule) → where it showed
    traces: list[Trace] = field(default_factory=list)  # every game as the engine played it, in game order
    unfinished: list[tuple[int, str]] = field(default_factory=list)  # games not played to game_over, and why
    resynced: list[tuple[int, str]] = field(default_factory=list)  # stretches not compared (game, why)
    jobs: int = 1
    toolkit_errors: list[Any] = field(default_factory=list)  # toolkit.ToolkitError of games lost to a toolkit bug

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> int:
        return len(self.divergent_games)

    @property
    def errors(self) -> int:
        return sum(d.kind == "error" for d in self.divergences)

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "steps": self.steps, "divergent": self.failed, "errors": self.errors,
                "steps_per_s": round(self.steps_per_s, 1), "requests": self.requests,
                "seconds": round(self.seconds, 3), "jobs": self.jobs,
                "unfinished": [{"game": g, "why": why} for g, why in self.unfinished],
                "resynced": [{"game": g, "why": why} for g, why in self.resynced],
                "toolkit_errors": [e.to_json() for e in self.toolkit_errors],
                "deviations": [{"clause": d.clause, "house_rule": d.house_rule.label if d.house_rule else None,
                                "description": d.description, "games": len(d.games), "steps": d.steps,
                                "first_game": d.first.game} for d in self.deviations.values()]}
