"""Clients speaking engine protocol v1: a subprocess over JSON lines, or in-process.

`SubprocessClient` writes requests and reads replies with a timeout per request, pipelines
batches (`pipeline`), and can be restarted after a crash. `InProcessClient` wraps
`president.protocol.server.Session` with the same interface.
"""
from __future__ import annotations

import atexit
import json
import math
import os
import select
import shlex
import signal
import subprocess
import sys
import time
import weakref
from typing import Any, Callable, Protocol, Sequence

from ..errors import PresidentError

DEFAULT_TIMEOUT = 5.0
#: Consecutive timeouts after which the engine is declared hung and the run stops.
DEFAULT_HUNG_AFTER = 3
#: hello may take this long at least: an engine needs time to start.
STARTUP_TIMEOUT = 10.0
#: How much of the engine's stderr is kept (its last bytes): enough for a crash's message and traceback.
STDERR_TAIL = 1 << 16
#: What each command's successful reply must hold (a cheap check that a reply fits its request).
_REPLY_KEYS = {"hello": "protocol", "legal": "actions", "new_game": "state", "deal": "state", "act": "state",
               "state": "state"}


class ProtocolViolation(PresidentError):
    """The engine broke the protocol (malformed reply, missing field...): an `error` outcome.

    `index` is the position, in the batch sent, of the request left without a valid reply.
    """

    index: int = 0


class EngineDied(ProtocolViolation):
    """The engine process exited or closed its output: it is stopped (its whole process group)."""


class EngineTimeout(ProtocolViolation):
    """No reply within the request timeout."""


class ProtocolFault(ProtocolViolation):
    """The engine wrote something other than one JSON reply per request on stdout (a log line,
    a second reply, a reply nobody asked for). The engine is stopped: its replies can no longer
    be matched to the requests, so it must be restarted before the next request."""


class RunStopped(PresidentError):
    """The run cannot go on: the engine cannot be started, is hung, or the time budget is spent."""


class EngineStartError(RunStopped):
    """The engine command cannot be run at all (not found, not executable, empty)."""


class Client(Protocol):
    def request(self, req: dict[str, Any]) -> dict[str, Any]: ...

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]: ...

    def hello(self) -> dict[str, Any]: ...

    def restart(self) -> None: ...

    def close(self) -> None: ...


class InProcessClient:
    """The reference engine (or any `Session`-like object with `handle`) called directly."""

    def __init__(self, factory: Callable[[], Any] | None = None):
        if factory is None:
            from .server import Session

            factory = Session
        self._factory = factory
        self.session = factory()
        self.label = "reference engine (in-process)"

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        return self.session.handle(req)

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        handle = self.session.handle
        return [handle(r) for r in reqs]

    def hello(self) -> dict[str, Any]:
        return self.request({"cmd": "hello"})

    def restart(self) -> None:
        self.session = self._factory()

    def close(self) -> None:
        pass


def reference_command() -> list[str]:
    """How to start the reference engine as a subprocess, from this very interpreter."""
    return [sys.executable, "-m", "president", "engine"]


def _times(k: int) -> str:
    return "once" if k == 1 else f"{k} times in a row"


class NonJsonValue(PresidentError, ValueError):
    """Python's json reads it, RFC 8259 has no such value: NaN, Infinity, 1e400, a lone surrogate."""


def _not_json(name: str) -> Any:
    raise NonJsonValue(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonJsonValue(f"{text} is out of the range of a JSON number")
    return value


def loads_strict(line: bytes) -> Any:
    """JSON as RFC 8259 has it: no NaN, Infinity or -Infinity, no number that overflows to one,
    no string that is not Unicode (a lone surrogate). Raises ValueError (NonJsonValue for those)."""
    try:
        value = json.loads(line, parse_constant=_not_json, parse_float=_finite)
    except NonJsonValue:
        json.loads(line)  # a line that is not JSON at all either ("NaN: a log line") raises plain ValueError
        raise
    if b"\\u" in line:  # an escaped lone surrogate reads as a str that cannot be written out again
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise NonJsonValue("a string holds a lone surrogate (\\ud800-\\udfff), which is not Unicode") from None
    return value


#: Every engine started and not yet stopped: ended at exit whatever the way out (see `_end_all`).
_LIVE: "weakref.WeakSet[SubprocessClient]" = weakref.WeakSet()


class SubprocessClient:
    """An engine command speaking JSON lines on stdin/stdout; the last `STDERR_TAIL` bytes of its
    stderr are kept for the report.

    The engine runs in its own process group (with any process it starts), and stopping it ends
    the whole group. Replies are matched to requests by position (the protocol has one reply per
    request, in order); anything else on stdout is a `ProtocolFault` and stops the engine, so a
    stray line never shifts later replies. An engine that closes its output is dead: it is
    stopped, and restarted by the caller. After `hung_after` requests in a row without a reply (a
    timeout, or a closed output) the engine is declared hung (`RunStopped`); `budget` seconds bound
    the whole run.
    """

    def __init__(self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                 hung_after: int = DEFAULT_HUNG_AFTER, budget: float | None = None):
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:  # an unterminated quote, a trailing backslash
            raise EngineStartError(f"cannot read the engine command {command!r}: {exc} "
                                   "(it is split into words as a shell would: close the quote)") from None
        self.label = command if isinstance(command, str) else shlex.join(command)
        self.timeout = timeout
        self.cwd = cwd
        self.hung_after = hung_after
        self.budget = budget
        self.deadline = time.monotonic() + budget if budget else None
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.requests = 0
        self.faults: list[str] = []  # the first protocol fault of each kind, for the report
        self.fault_counts: dict[str, int] = {}
        self._fault_kinds: list[str] = []
        self._timeouts = 0
        self._faults_in_row = 0
        self._buf = bytearray()
        self._err = bytearray()  # the last STDERR_TAIL bytes of stderr since the last (re)start
        self._err_total = 0
        self._tails_seen: set[str] = set()
        if not self.argv or not self.argv[0]:
            raise EngineStartError("the engine command is empty (give the command that starts your engine)")
        self.start()

    def start(self) -> None:
        self._err, self._err_total = bytearray(), 0
        try:  # its own session and process group: stop() ends the engine and whatever it started
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=self.cwd, bufsize=0, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise EngineStartError(f"cannot start the engine {self.label!r}: {getattr(exc, 'strerror', None) or exc} "
                             "(check the engine command; it is split into words as a shell would)") from None
        _LIVE.add(self)
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(f.fileno(), False)
        self._buf = bytearray()

    def _read_stderr(self) -> bool:
        """Take what the engine wrote on stderr so far, keeping the last STDERR_TAIL bytes only.
        False once the engine has closed its stderr."""
        err = self.proc.stderr if self.proc is not None else None
        if err is None:
            return False
        for _ in range(64):  # at most 4 MiB at a time: a flooding engine cannot hold the client here
            try:
                chunk = os.read(err.fileno(), 1 << 16)
            except BlockingIOError:
                return True
            except (OSError, ValueError):
                return False
            if not chunk:
                return False
            self._err_total += len(chunk)
            self._err += chunk
            if len(self._err) > STDERR_TAIL:
                del self._err[:len(self._err) - STDERR_TAIL]
        return True

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the engine wrote on stderr since it was last (re)started."""
        self._read_stderr()
        text = self._err.decode("utf-8", "replace").strip().splitlines()
        if self._err_total > len(self._err):  # the first kept line may be cut
            text = text[1:]
        kept: list[str] = []  # the last lines first, each cut at 200 characters, about 600 in all
        for line in reversed(text[-lines:]):
            if kept and sum(map(len, kept)) + len(line[:200]) > 600:
                break
            kept.append(line[:200] + ("..." if len(line) > 200 else ""))
        return "\n".join(reversed(kept))

    def _died(self, what: str, reqs: Sequence[dict[str, Any]] = (), index: int = 0) -> EngineDied | RunStopped:
        """The engine exited or closed a pipe: it is dead to us, stopped now (its whole group). A
        request without a reply: `hung_after` of them in a row stop the run, as timeouts do."""
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(0.2)  # closing its output usually means it is exiting
            except subprocess.TimeoutExpired:
                code = None
        tail = self.stderr_tail()
        self.stop(polite=False)
        state = f"exit code {code}" if code is not None else "still running: killed"
        if index < len(reqs):
            self._timeouts += 1
            if self._timeouts >= self.hung_after:
                how = "but kept running" if code is None else f"and exited with code {code}"
                return RunStopped(f"the engine is hung: it {what} {how} instead of replying, "
                                  f"{_times(self._timeouts)} (last request {reqs[index].get('cmd')!r}); "
                                  "stopped (an engine "
                                  "answers every request on stdout until quit; fix the engine, see docs/protocol.md)"
                                  + (f"; its stderr ends: {tail.splitlines()[-1][:200]}" if tail else ""))
        if tail in self._tails_seen:  # the same crash again: its stderr was shown already
            return EngineDied(f"engine {what} ({state}; same stderr as before)")
        self._tails_seen.add(tail)
        return EngineDied(f"engine {what} ({state})" + (f"; stderr:\n{tail}" if tail else ""))

    def _fault(self, kind: str, message: str) -> ProtocolFault | RunStopped:
        """Record a protocol fault (the first of each kind is reported), stop the engine: its
        replies are out of step now. The same fault `hung_after` times in a row stops the run."""
        if kind not in self.fault_counts:
            self.faults.append(message)
            self._fault_kinds.append(kind)
        self.fault_counts[kind] = self.fault_counts.get(kind, 0) + 1
        self._faults_in_row += 1
        self.stop()
        if self._faults_in_row >= self.hung_after:
            return RunStopped(f"the engine keeps breaking the protocol ({self._faults_in_row} times in a row): "
                              f"{message} (fix the engine; see docs/protocol.md, Framing)")
        return ProtocolFault(message + " (engine stopped; restarted for the next scenario or game)")

    def fault_report(self) -> list[str]:
        """One line per kind of fault: the first occurrence, and how often it happened."""
        return [msg + (f" ({self.fault_counts[k]} times)" if self.fault_counts[k] > 1 else "")
                for k, msg in zip(self._fault_kinds, self.faults)]

    def _spent(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise RunStopped(f"the run used its whole time budget of {self.budget:g} s; stopped "
                             "(give it more time, or play fewer games)")

    def _line(self, line: bytes, reqs: Sequence[dict[str, Any]], index: int) -> dict[str, Any]:
        try:
            reply = loads_strict(line)
        except RecursionError:
            raise self._fault("not-json", f"the engine wrote a line that is not JSON on stdout: {line[:200]!r} "
                              "(logs belong on stderr)") from None
        except NonJsonValue as exc:
            at = max(0, min((i for i in (line.find(b"NaN"), line.find(b"Infinity")) if i >= 0), default=0) - 80)
            raise self._fault("not-json-value", f"the engine wrote a reply with a value JSON does not have "
                              f"({exc}): {'...' if at else ''}{line[at:at + 200]!r}") from None
        except ValueError:
            raise self._fault("not-json", f"the engine wrote a line that is not JSON on stdout: {line[:200]!r} "
                              "(logs belong on stderr)") from None
        if not isinstance(reply, dict):
            raise self._fault("not-object", f"the engine wrote a JSON value that is not a reply object: {line[:200]!r}")
        cmd = reqs[index].get("cmd")
        need = _REPLY_KEYS.get(cmd) if reply.get("ok") is True else None
        if need is not None and need not in reply:
            raise self._fault("mismatched", f"the reply to request {index + 1} ({cmd}) lacks {need!r}: a reply to "
                              f"another request, out of order? {line[:200]!r}")
        return reply

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write every request, read as many replies; writes and reads interleave so pipes never fill."""
        replies: list[dict[str, Any]] = []
        try:
            self._exchange(reqs, replies)
        except ProtocolViolation as exc:
            exc.index = len(replies)
            raise
        if any(r.get("cmd") != "hello" for r in reqs):
            self._timeouts = self._faults_in_row = 0
        self.requests += len(reqs)
        return replies

    def _drain(self, out_fd: int) -> None:
        """Output nobody asked for (a late second reply, a log line) is a fault, before it shifts replies."""
        while select.select([out_fd], [], [], 0)[0]:
            try:
                chunk = os.read(out_fd, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._buf += chunk
        if self._buf.strip():
            line = bytes(self._buf).split(b"\n", 1)[0]
            raise self._fault("unasked", f"the engine wrote a line nobody asked for (a second reply?): {line[:200]!r}")
        self._buf.clear()

    def _exchange(self, reqs: Sequence[dict[str, Any]], replies: list[dict[str, Any]]) -> None:
        self._spent()
        proc = self.proc
        if proc is None or proc.poll() is not None:
            raise self._died("is not running", reqs)
        data = b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in reqs)
        out_fd, in_fd = proc.stdout.fileno(), proc.stdin.fileno()  # type: ignore[union-attr]
        err_fd = proc.stderr.fileno()  # type: ignore[union-attr]
        self._drain(out_fd)
        view, pos = memoryview(data), 0
        buf = self._buf
        timeout = max(self.timeout, STARTUP_TIMEOUT) if reqs[0].get("cmd") == "hello" else self.timeout
        deadline = time.monotonic() + timeout
        while len(replies) < len(reqs):
            while True:
                nl = buf.find(b"\n")
                if nl < 0 or len(replies) == len(reqs):
                    break
                line = bytes(buf[:nl])
                del buf[:nl + 1]
                if not line.strip():
                    continue
                replies.append(self._line(line, reqs, len(replies)))
                if reqs[len(replies) - 1].get("cmd") != "hello":  # it answers: not hung, whatever comes next
                    self._timeouts = 0
                deadline = time.monotonic() + timeout
            if len(replies) == len(reqs):
                break
            now = time.monotonic()
            limit = deadline if self.deadline is None else min(deadline, self.deadline)
            if now >= limit:
                self._spent()
                self._timeouts += 1
                if self._timeouts >= self.hung_after:
                    raise RunStopped(f"the engine is hung: no reply within {timeout:g} s, "
                                     f"{_times(self._timeouts)} (last request "
                                     f"{reqs[len(replies)].get('cmd')!r}); stopped "
                                     "(fix the engine, or raise --timeout / --hung-after)")
                raise EngineTimeout(f"no reply within {timeout:g} s to {reqs[len(replies)].get('cmd')!r}")
            want_write = [in_fd] if pos < len(data) else []
            readable, writable, _ = select.select([out_fd, err_fd] if err_fd >= 0 else [out_fd], want_write, [],
                                                  limit - now)
            if err_fd in readable:  # a chatty engine never blocks on a full stderr pipe; only a tail is kept
                if not self._read_stderr():
                    err_fd = -1  # closed: no more select on it
            if writable:
                try:
                    pos += os.write(in_fd, view[pos:pos + 65536])
                except BlockingIOError:
                    pass
                except (BrokenPipeError, OSError):
                    raise self._died("closed its input", reqs, len(replies)) from None
            if out_fd in readable:
                try:
                    chunk = os.read(out_fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._died("closed its output", reqs, len(replies))
                buf += chunk
        if buf.strip():  # more output than requests in the same breath: a second reply or a log line
            line = bytes(buf).split(b"\n", 1)[0]
            raise self._fault("extra", f"the engine wrote more replies than requests: {line[:200]!r}")

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        return self.pipeline([req])[0]

    def hello(self) -> dict[str, Any]:
        return self.request({"cmd": "hello"})

    def restart(self) -> None:
        self.stop()
        self.restarts += 1
        self.start()

    def stop(self, polite: bool = True) -> None:
        """End the engine: `quit` first when `polite` (a silent engine is not asked twice), then its
        whole process group is killed, so nothing it started outlives it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        _LIVE.discard(self)
        try:
            if polite and proc.poll() is None:
                try:
                    proc.stdin.write(b'{"cmd":"quit"}\n')  # type: ignore[union-attr]
                except (OSError, ValueError):
                    pass
                try:
                    proc.wait(0.05 if self._timeouts else 0.5)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            end_group(proc)
            for f in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    f.close()  # type: ignore[union-attr]
                except OSError:
                    pass

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> "SubprocessClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def end_group(proc: "subprocess.Popen[bytes]") -> None:
    """Kill the process group `proc` leads (it was started with start_new_session) and reap `proc`."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if proc.poll() is None:  # not a group leader after all (setsid refused): the process itself
        proc.kill()
    try:
        proc.wait(2)
    except subprocess.TimeoutExpired:
        pass


@atexit.register
def _end_all() -> None:
    """At exit (a normal end, an error, SIGTERM or Ctrl-C unwound to the top), no engine is left."""
    for client in list(_LIVE):
        client.stop(polite=False)


def open_client(engine: str | None, timeout: float = DEFAULT_TIMEOUT, hung_after: int = DEFAULT_HUNG_AFTER,
                budget: float | None = None) -> Client:
    """The engine behind `--engine CMD`, or the reference engine as a subprocess when None."""
    if engine is not None and not engine.strip():
        raise EngineStartError("the engine command is empty (an unset variable?); give the command that starts "
                               "your engine, or none to check the reference")
    return SubprocessClient(engine if engine is not None else reference_command(), timeout, hung_after=hung_after,
                            budget=budget)
