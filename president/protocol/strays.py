"""The lines an engine writes that answer no request (a log line, a second reply), as a client keeps them.

`StrayLines` is the part of `client.SubprocessClient` that names the request a reply is due to
(`request_at`), keeps the first `STRAY_KEPT` stray lines, cut and inert (`stray_lines`, for the
report of a run they stopped), counts them (`stray_count`) and, before a divergence is judged,
waits a moment for one coming late (`settle`: a second reply read as a later request's must never
become a deviation). `settled` and `strays` ask any client (one without them: none seen).
"""
from __future__ import annotations

import select
import time
from typing import Any, Sequence

from ..textsafe import engine_text

#: How long `settle` waits for a late line (a second reply) before a divergence is judged, and how
#: much of that waiting one client may spend in all (an engine that diverges often is not slowed more).
SETTLE_SECONDS, SETTLE_TOTAL = 0.2, 10.0
#: How many stray stdout lines a client keeps (`stray_lines`), each cut to `STRAY_CHARS`.
STRAY_KEPT, STRAY_CHARS = 10, 200


class StrayLines:
    """Stray-line bookkeeping of a subprocess client (see the module's docstring)."""

    proc: Any
    timeout: float
    requests: int
    stray_lines: list[dict[str, Any]]
    _batch: Sequence[dict[str, Any]]
    _due: int
    _unasked: int
    _settled: float

    def _drain(self, out_fd: int) -> None:  # the client's: a line waiting there is a fault
        raise NotImplementedError

    def request_at(self, reqs: Sequence[dict[str, Any]] | None = None, index: int | None = None) -> dict[str, Any] | None:
        """`{"number": N, "cmd": ...}`: the request `reqs[index]` (by default the one a reply is due
        to now) as the N-th this client sent, restarts included; None when there is none."""
        reqs = self._batch if reqs is None else reqs
        index = self._due if index is None else index
        if not 0 <= index < len(reqs):
            return None
        return {"number": self.requests + index + 1, "cmd": engine_text(reqs[index].get("cmd"), 40)}

    def _stray(self, line: bytes) -> None:
        """Keep a stray stdout line (the first STRAY_KEPT, each cut and inert) with the request then due."""
        if len(self.stray_lines) < STRAY_KEPT:
            at = self.request_at() or {"number": self.requests, "cmd": None}
            text = engine_text(bytes(line[:4 * STRAY_CHARS]).decode("utf-8", "replace"), STRAY_CHARS)
            self.stray_lines.append({"request": at["number"], "cmd": at["cmd"], "line": text})

    @property
    def stray_count(self) -> int:
        """Lines that answered no request in the whole run: a judgement made since may rest on a shifted reply."""
        return self._unasked

    def settle(self) -> None:
        """Wait a little (`SETTLE_SECONDS`) for output nobody asked for: a second reply coming late may
        have been taken for the reply to a later request. Called before a divergence is judged; such a
        line is a `ProtocolFault` (the engine stopped), never a deviation."""
        proc = self.proc
        if proc is None or proc.stdout is None or self._settled >= SETTLE_TOTAL:
            return
        t0 = time.monotonic()
        try:
            select.select([proc.stdout.fileno()], [], [], min(SETTLE_SECONDS, self.timeout))
            self._drain(proc.stdout.fileno())
        finally:
            self._settled += time.monotonic() - t0


def settled(client: Any) -> int:
    """`client.settle()` where the client has it (a late second reply becomes a `ProtocolFault`
    now); then how many lines that answered no request the client has seen in the whole run."""
    settle = getattr(client, "settle", None)
    if settle is not None:
        settle()
    return strays(client)


def strays(client: Any) -> int:
    """How many lines that answered no request (a second reply, a log line) `client` has seen."""
    return int(getattr(client, "stray_count", 0))
