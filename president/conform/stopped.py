"""A run that had to stop still has a verdict: what stopped it (`Stop`), and how each report shows it.

A run stops when the engine is hung, keeps crashing or breaking the protocol, fails its hello, or
the run's budget is spent (`protocol.client.RunStopped`, `runner.HandshakeError`). That is an
engine error, kept apart from a failure (as toml-test and Bowtie do): every report the run was
asked for is still written, with what was learnt before the stop (the scenarios run, the lock-step
games played, the deviations found in them), and the stop itself as the outcome: its `kind`
(`protocol.client.STOP_KINDS`), its message, the phase and the item it stopped in, the request it
stopped at and, for a protocol fault, the stray stdout lines (bounded, inert). JSON: the `stopped`
object (null when the run went to its end); text: a `STOPPED` line on the first screen; JUnit: a
`run/stopped` test case with an `<error>` (never a `<failure>`); HTML: a line above the sheet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from ..textsafe import cut, engine_text, inert

#: The phases a run goes through, in order: where a stop can happen.
PHASES = ("handshake", "scenarios", "lock-step", "diagnosis")
#: How long the diagnosis of what was learnt may take once the run has stopped (no engine request):
#: the fit over the traces kept, without shrinking (a spent budget gets this much more, no more).
DIAGNOSIS_AFTER_STOP = 10.0
#: The longest stop message a report keeps (the client's messages are a few hundred characters).
MESSAGE_CHARS = 1000
#: What each kind of stop is, in words (the text and HTML reports, JUnit's error type).
KIND_WORDS = {"hang": "the engine is hung", "crash": "the engine keeps crashing",
              "protocol": "the engine keeps breaking the protocol", "budget": "the time budget is spent",
              "handshake": "the engine's hello failed", "start": "the engine cannot be started",
              "worker": "a worker stopped", "stopped": "the run stopped"}


@dataclass
class Stop:
    """Why and where a run stopped. `request` is `{"number": N, "cmd": ...}` (the N-th request the
    engine client sent, restarts included), `lines` the stray stdout lines `{"request", "cmd", "line"}`."""

    kind: str
    message: str
    phase: str
    item: str | None = None
    request: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, exc: BaseException, phase: str, item: str | None = None, kind: str | None = None,
           request: dict[str, Any] | None = None) -> "Stop":
        """The stop an exception (`RunStopped`, `HandshakeError`) tells of, in `phase` and `item`."""
        lines = [{"request": line.get("request"), "cmd": line.get("cmd"), "line": engine_text(line.get("line", ""), 200)}
                 for line in list(getattr(exc, "lines", None) or [])[:10] if isinstance(line, dict)]
        return cls(kind or str(getattr(exc, "kind", "stopped")), inert(cut(str(exc), MESSAGE_CHARS)), phase, item,
                   getattr(exc, "request", None) or request, lines)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Stop":
        """A saved report's `stopped` object back (`saved.Report`), its texts inert."""
        request = data.get("request")
        def text(value: Any, limit: int) -> str:
            return inert(cut(str(value), limit), strict=True)

        return cls(text(data.get("kind", "stopped"), 40), inert(cut(str(data.get("message", "")), MESSAGE_CHARS)),
                   text(data.get("phase", ""), 40), None if data.get("item") is None else text(data["item"], 300),
                   request if isinstance(request, dict) else None,
                   [line for line in data.get("lines") or [] if isinstance(line, dict)])

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "phase": self.phase, "item": self.item,
                "request": self.request, "lines": self.lines}

    def where(self) -> str:
        """`in the lock-step games, game 3, at request 1,234 (act)`."""
        out = f"in the {self.phase}" + ("" if self.phase == "handshake" else " phase")
        if self.item:
            out += f", {self.item}"
        req = self.request
        if isinstance(req, dict) and isinstance(req.get("number"), int):
            out += f", at request {req['number']:,}" + (f" ({inert(str(req['cmd']), True)})" if req.get("cmd") else "")
        return out

    def one_line(self) -> str:
        """The message on one line: its first line, and its last (a crashed engine's last stderr line)."""
        lines = [line.strip() for line in self.message.splitlines() if line.strip()] or [""]
        return lines[0] + (f" {lines[-1]}" if len(lines) > 1 else "")

    def headline(self) -> str:
        """One line: `STOPPED (hang) in the lock-step phase, game 3, at request 1,234 (act)`."""
        return f"STOPPED ({self.kind}: {KIND_WORDS.get(self.kind, self.kind)}) {self.where()}"

    def stray_lines(self) -> list[str]:
        """The stray stdout lines, one text line each: `request 12 (act): debug: ...`."""
        out = []
        for line in self.lines:
            at = f"request {line.get('request')}" + (f" ({inert(str(line['cmd']), True)})" if line.get("cmd") else "")
            out.append(f"{at}: {engine_text(line.get('line', ''), 200)}")
        return out

    def text_lines(self) -> list[str]:
        """What the text report's first screen says of the stop."""
        out = [self.headline(), f"  {self.message.splitlines()[0] if self.message else ''}"]
        out += [f"  {line}" for line in self.message.splitlines()[1:6]]
        if self.lines:
            out.append("  stray stdout lines (a reply line answers one request; logs belong on stderr):")
            out += [f"    {line}" for line in self.stray_lines()]
        out.append("  the verdicts below are those reached before the stop")
        return out


def junit_case(suite: ET.Element, stop: Stop) -> None:
    """The stop as a JUnit test case in error (an engine error, not a failure); the suite's counts follow."""
    case = ET.SubElement(suite, "testcase", classname="run", name="run/stopped", time="0")
    ET.SubElement(case, "error", type=f"stopped-{stop.kind}", message=f"{stop.headline()}: {stop.message}").text = (
        "\n".join([stop.message, *stop.stray_lines()]))
    suite.set("tests", str(int(suite.get("tests", "0")) + 1))
    suite.set("errors", str(int(suite.get("errors", "0")) + 1))


def html_rows(stop: Stop) -> list[str]:
    """The stop as the annotated sheet shows it, above the sheet (escaped)."""
    import html

    rows = [f'<p class="error" dir="ltr" id="stopped"><span class="mark">stopped</span> '
            f"<b>{html.escape(stop.headline())}</b>: {html.escape(stop.message)}</p>"]
    if stop.lines:
        rows.append('<ul dir="ltr">' + "".join(f"<li><code>{html.escape(line)}</code></li>"
                                                for line in stop.stray_lines()) + "</ul>")
    return rows
