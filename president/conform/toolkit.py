"""Internal errors: a bug of the toolkit costs one item (a scenario, a lock-step game, a fit
candidate, a shrink), never the run.

`guard(kind, item, trace, errors)` wraps the work on one item: an exception raised there (other
than the run's own stop: `RunStopped`, the `--budget` or a hung engine) is recorded as a
`ToolkitError` (the item, what failed, the traceback and the item's request/reply trace, so it can
be replayed) in `errors`, and the run goes on with the next item. Exit code 3 of `president
conform` means that list is not empty: the toolkit failed, not the engine.

`Deadline` is the run's `--budget` as the replay loop, the fit and the shrinker see it: `check()`
raises `RunStopped` once it is spent, so a run stops within a reference step of it.
"""
from __future__ import annotations

import time
import traceback as tb
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..protocol.client import RunStopped

#: How many request/reply pairs of an item's trace a record keeps (the last ones).
TRACE_KEPT = 400


@dataclass
class ToolkitError:
    """One item the toolkit failed on: `kind` (scenario, game, fit, shrink), `item` (its id),
    `error` (exception type and message), `traceback` (text), `trace` ((request, reply) pairs)."""

    kind: str
    item: str
    error: str
    traceback: str
    trace: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "item": self.item, "error": self.error, "traceback": self.traceback,
                "trace": [{"request": req, "reply": reply} for req, reply in self.trace]}

    @classmethod
    def of(cls, kind: str, item: str, exc: BaseException, trace: Any = ()) -> "ToolkitError":
        steps = list(getattr(trace, "steps", trace) or ())[-TRACE_KEPT:]
        text = "".join(tb.format_exception(type(exc), exc, exc.__traceback__))
        return cls(kind, str(item), f"{type(exc).__name__}: {exc}", text, steps)


class Guarded:
    """What `guard` yields: `failed` is the record once the block raised (None while it did not)."""

    failed: ToolkitError | None = None


@contextmanager
def guard(kind: str, item: Any, trace: Any = (), errors: list[ToolkitError] | None = None) -> Iterator[Guarded]:
    """Run one item's work; a toolkit bug there is recorded (in `errors`) and swallowed, so the run
    goes on. The run's own stop (`RunStopped`) and interrupts pass through."""
    box = Guarded()
    try:
        yield box
    except RunStopped:
        raise
    except Exception as exc:  # noqa: BLE001 - the point: one item's bug, recorded with its traceback
        box.failed = ToolkitError.of(kind, item, exc, trace)
        if errors is not None:
            errors.append(box.failed)


class Deadline:
    """The run's time budget (monotonic clock), checked between reference steps."""

    def __init__(self, at: float | None = None):
        self.at = at

    @classmethod
    def after(cls, seconds: float | None) -> "Deadline":
        return cls(time.monotonic() + seconds if seconds else None)

    @classmethod
    def of(cls, client: Any) -> "Deadline":
        """The deadline the engine client enforces (`--budget`), or none."""
        return cls(getattr(client, "deadline", None))

    def left(self) -> float:
        return float("inf") if self.at is None else self.at - time.monotonic()

    def check(self) -> None:
        if self.at is not None and time.monotonic() >= self.at:
            raise RunStopped("the run used its whole --budget; stopped in the diagnosis "
                             "(raise --budget, or lower --games)")


NO_DEADLINE = Deadline()
