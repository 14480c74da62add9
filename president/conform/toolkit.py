"""Toolkit errors: a bug of the toolkit inside one item costs that item, never the run.

An item is one scenario, one lock-step game, one fit candidate or one shrink. A bug there (an
exception that is neither the engine's fault nor a reason to stop the run) is caught where it
happens and recorded as a `ToolkitError`: what kind of item, which one, the error and its
traceback, and the item's request/reply trace so that it can be replayed. The run goes on, writes
every report it was asked for, counts them as `toolkit_errors` and exits 3 ("the toolkit failed,
not your engine").
"""
from __future__ import annotations

import traceback as tb
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Callable, Iterable

from ..protocol.client import RunStopped

#: Exceptions a guard never swallows: the run has to stop (hung engine, spent budget, Ctrl-C...).
PASS_THROUGH: tuple[type[BaseException], ...] = (RunStopped,)


@dataclass
class ToolkitError:
    """A toolkit bug inside one item: `kind` (scenario, game, fit, shrink, ...), `item` (its id),
    `error` (`TypeError: ...`), its `traceback`, and the item's `trace` ([request, reply] pairs)."""

    kind: str
    item: str
    error: str
    traceback: str
    trace: list = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "item": self.item, "error": self.error, "traceback": self.traceback,
                "trace": [[req, reply] for req, reply in _pairs(self.trace)]}

    def line(self) -> str:
        """One line for a text report: `scenario play.count-matches/x: TypeError: ...`."""
        return f"{self.kind} {self.item}: {self.error}"


def _pairs(trace: Iterable[Any]) -> list[tuple[Any, Any]]:
    out = []
    for step in trace:
        if isinstance(step, (list, tuple)) and len(step) == 2:
            out.append((step[0], step[1]))
        else:
            out.append((step, None))
    return out


class guard:
    """`with guard("scenario", sc.id, errors, trace=lambda: run.sent) as g: ...`: an exception in
    the block (not one of `PASS_THROUGH`, nor a BaseException such as Ctrl-C) is recorded in
    `errors` as a `ToolkitError` and swallowed; `g.error` is that record (None when the block ended well).
    `trace` is the item's trace, or a function giving it (called only when something failed)."""

    def __init__(self, kind: str, item: str, errors: list[ToolkitError] | None = None,
                 trace: list | Callable[[], list] | None = None,
                 passthrough: tuple[type[BaseException], ...] = PASS_THROUGH) -> None:
        self.kind, self.item = kind, item
        self.errors = errors if errors is not None else []
        self.trace = trace
        self.passthrough = passthrough
        self.error: ToolkitError | None = None

    def __enter__(self) -> "guard":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if exc is None or not isinstance(exc, Exception) or isinstance(exc, self.passthrough):
            return False
        try:
            trace = self.trace() if callable(self.trace) else list(self.trace or [])
        except Exception:  # noqa: BLE001 - the trace itself could not be read: the error is kept without it
            trace = []
        self.error = ToolkitError(self.kind, self.item, f"{type(exc).__name__}: {exc}",
                                  "".join(tb.format_exception(kind, exc, traceback)), list(trace))
        self.errors.append(self.error)
        return True
