"""Toolkit errors: a bug of the toolkit inside one item costs that item, never the run.

An item is one scenario, one lock-step game, one fit candidate or one shrink. A bug there (an
exception that is neither the engine's fault nor a reason to stop the run) is caught where it
happens and recorded as a `ToolkitError`: what kind of item, which one, the error and its
traceback, and the item's request/reply trace so that it can be replayed. The run goes on, writes
every report it was asked for, counts them as `toolkit_errors` and exits 3 ("the toolkit failed,
not your engine").

`Deadline` is the run's time budget as the replay loop, the fit and the shrinker see it: `check()`
raises `RunStopped` once it is spent, so a run stops within a reference step of it.
"""
from __future__ import annotations

import time
import traceback as tb
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ..protocol.client import RunStopped
from .trace import plain  # a long legal list kept compactly, read back as a list (JSON-ready)

#: Exceptions a guard never swallows: the run has to stop (hung engine, spent budget, Ctrl-C...).
PASS_THROUGH: tuple[type[BaseException], ...] = (RunStopped,)
#: How many request/reply pairs of an item's trace a record keeps (the last ones).
TRACE_KEPT = 400


@dataclass
class ToolkitError:
    """A toolkit bug inside one item: `kind` (scenario, game, fit, shrink, ...), `item` (its id),
    `error` (`TypeError: ...`), its `traceback`, and the item's `trace` ((request, reply) pairs)."""

    kind: str
    item: str
    error: str
    traceback: str
    trace: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, kind: str, item: Any, exc: BaseException, trace: Any = ()) -> "ToolkitError":
        text = "".join(tb.format_exception(type(exc), exc, exc.__traceback__))
        return cls(kind, str(item), f"{type(exc).__name__}: {exc}", text, _pairs(trace))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "item": self.item, "error": self.error, "traceback": self.traceback,
                "trace": [[req, reply] for req, reply in self.trace]}

    def line(self) -> str:
        """One line for a text report: `scenario play.count-matches/x: TypeError: ...`."""
        return f"{self.kind} {self.item}: {self.error}"


def _pairs(trace: Any) -> list[tuple[Any, Any]]:
    """An item's trace as (request, reply) pairs, the last TRACE_KEPT: a list of pairs, a
    `Trace` (its `steps`), or a function giving either (called only once something failed)."""
    if callable(trace):
        trace = trace()
    steps = list(getattr(trace, "steps", trace) or ())[-TRACE_KEPT:]
    return [(s[0], plain(s[1])) if isinstance(s, (list, tuple)) and len(s) == 2 else (s, None) for s in steps]


class guard:
    """`with guard("scenario", sc.id, errors, trace=lambda: run.sent) as g: ...`: an exception in
    the block (not one of `PASS_THROUGH`, nor a BaseException such as Ctrl-C) is recorded in
    `errors` as a `ToolkitError` and swallowed; `g.error` (also `g.failed`) is that record, None
    when the block ended well. `trace` is the item's trace, a `Trace`, or a function giving it."""

    def __init__(self, kind: str, item: Any, errors: list[ToolkitError] | None = None,
                 trace: Any = None, passthrough: tuple[type[BaseException], ...] = PASS_THROUGH) -> None:
        self.kind, self.item = kind, str(item)
        self.errors = errors if errors is not None else []
        self.trace = trace
        self.passthrough = passthrough
        self.error: ToolkitError | None = None

    @property
    def failed(self) -> ToolkitError | None:
        return self.error

    def __enter__(self) -> "guard":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if exc is None or not isinstance(exc, Exception) or isinstance(exc, self.passthrough):
            return False
        try:
            trace = _pairs(self.trace)
        except Exception:  # noqa: BLE001 - the trace itself could not be read: the error is kept without it
            trace = []
        self.error = ToolkitError(self.kind, self.item, f"{type(exc).__name__}: {exc}",
                                  "".join(tb.format_exception(kind, exc, traceback)), trace)
        self.errors.append(self.error)
        return True


class Deadline:
    """The run's time budget (monotonic clock), checked between reference steps."""

    def __init__(self, at: float | None = None):
        self.at = at

    @classmethod
    def after(cls, seconds: float | None) -> "Deadline":
        return cls(time.monotonic() + seconds if seconds else None)

    @classmethod
    def of(cls, client: Any) -> "Deadline":
        """The deadline the engine client enforces (the run's budget), or none (also without a client)."""
        return cls(None if client is None else client.deadline)

    def left(self) -> float:
        return float("inf") if self.at is None else self.at - time.monotonic()

    def check(self) -> None:
        if self.at is not None and time.monotonic() >= self.at:
            raise RunStopped("the run used its whole time budget; stopped in the diagnosis "
                             "(give it more time, or play fewer games)", "budget")


NO_DEADLINE = Deadline()
