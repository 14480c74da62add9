"""Clients speaking engine protocol v1: a subprocess over JSON lines, or in-process.

`SubprocessClient` writes requests and reads replies with a timeout per request, pipelines
batches (`pipeline`), and can be restarted after a crash. `InProcessClient` wraps
`president.protocol.server.Session` with the same interface.
"""
from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import subprocess
import sys
import time
import weakref
from typing import Any, Callable, Protocol, Sequence

from ..errors import PresidentError
from ..spec import MAX_LEGAL_ACTIONS
from ..textsafe import inert
from .procs import TOKEN_VAR, end_group, new_token
from .strays import STRAY_CHARS, StrayLines, settled, strays
from .types import Reply
from .reading import (MAX_REPLY_BYTES, NonJsonValue, OverBound, bound_reply, duplicate_action,
                      loads_strict, measure, shorten)

__all__ = ["STRAY_CHARS", "Client", "EngineDied", "EngineStartError", "EngineTimeout", "InProcessClient", "NonJsonValue",
           "ProtocolFault", "ProtocolViolation", "RunStopped", "SubprocessClient", "end_group", "loads_strict",
           "open_client", "reference_command", "settled", "strays"]

DEFAULT_TIMEOUT = 5.0
#: Consecutive timeouts after which the engine is declared hung and the run stops.
DEFAULT_HUNG_AFTER = 3
#: hello may take this long at least: an engine needs time to start.
STARTUP_TIMEOUT = 10.0
#: How much of the engine's stderr is kept (its last bytes): enough for a crash's message and traceback.
STDERR_TAIL = 1 << 16
#: A reply line, once begun, ends within this many seconds (at most --timeout): one that trickles in
#: slower counts toward being hung as a timeout does, whatever the time left until its deadline.
DRIP_SECONDS = 1.0
#: What each command's successful reply must hold (a cheap check that a reply fits its request).
#: Faults that show a line answering no request (unasked, extra, out of step, a log line).
_STRAY_KINDS = frozenset({"unasked", "extra", "mismatched", "not-json", "not-object"})
#: Why a run stops (`RunStopped.kind`): the engine is hung, keeps crashing, keeps breaking the protocol,
#: the budget is spent, its hello fails, it cannot be started, a worker stopped.
STOP_KINDS = ("hang", "crash", "protocol", "budget", "handshake", "start", "worker", "stopped")
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
    """The run cannot go on: the engine cannot be started, is hung, or the time budget is spent.

    `kind` says which (`STOP_KINDS`); `request` is the request it stopped at, `{"number": N, "cmd":
    ...}` (N counts the requests this client sent, restarts included), None when no request was
    waiting; `lines` are the stray stdout lines that stopped it (a protocol fault), bounded and inert.
    Where work was split into items (`conform.jobs.run_parallel`), `partial` holds the results of the
    items done before the stop, in item order, and `item` the index of the one it stopped in (None:
    not known, another worker's); lock-step games hand their result on as `lock` instead."""

    partial: list[Any] | None = None
    item: int | None = None
    lock: Any = None  # lock-step games: the result merged from the games done before the stop

    def __init__(self, message: str, kind: str = "stopped", request: dict[str, Any] | None = None,
                 lines: Sequence[dict[str, Any]] = ()):
        super().__init__(message)
        self.kind, self.request, self.lines = kind, request, list(lines)

    def __reduce__(self) -> Any:  # kept across a --jobs worker's pipe
        return (type(self), (str(self), self.kind, self.request, self.lines))


class EngineStartError(RunStopped):
    """The engine command cannot be run at all (not found, not executable, empty)."""

    def __init__(self, message: str, kind: str = "start", request: dict[str, Any] | None = None,
                 lines: Sequence[dict[str, Any]] = ()):
        super().__init__(message, kind, request, lines)


class Client(Protocol):
    """What the runner needs of an engine: requests (one, or several pipelined) and their replies
    (`president.protocol.types.Reply`: any JSON object until checked), a fresh start, the end; its
    name, the run's deadline (monotonic seconds, or None) and the protocol faults it saw."""

    label: str
    deadline: float | None

    def request(self, req: dict[str, Any]) -> Reply: ...

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[Reply]: ...

    def hello(self) -> Reply: ...

    def restart(self) -> None: ...

    def close(self) -> None: ...

    def fault_report(self) -> list[str]: ...


class InProcessClient:
    """The reference engine (or any `Session`-like object with `handle`) called directly."""

    def __init__(self, factory: Callable[[], Any] | None = None):
        if factory is None:
            from .server import Session

            factory = Session
        self._factory = factory
        self.session = factory()
        self.label = "reference engine (in-process)"
        self.deadline: float | None = None  # no budget: the reference in this process

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

    def fault_report(self) -> list[str]:
        return []  # the reference in this process breaks no protocol


def reference_command() -> list[str]:
    """How to start the reference engine as a subprocess, from this very interpreter."""
    return [sys.executable, "-m", "president", "engine"]


def _times(k: int) -> str:
    return "once" if k == 1 else f"{k} times in a row"


#: Every engine started and not yet stopped: ended at exit whatever the way out (see `_end_all`).
_LIVE: "weakref.WeakSet[SubprocessClient]" = weakref.WeakSet()


class SubprocessClient(StrayLines):
    """An engine command speaking JSON lines on stdin/stdout; the last `STDERR_TAIL` bytes of its
    stderr are kept for the report.

    The engine runs in its own process group and session, and stopping it ends the group and any
    process that left it (`procs.end_group`). Replies are matched to requests by position (the
    protocol has one reply per request, in order); anything else on stdout is a `ProtocolFault` and
    stops the engine, so a stray line never shifts later replies. An engine that exits (seen through
    its process, whoever still holds its stdout) or closes its output is dead: it is stopped, and
    restarted by the caller. After `hung_after` requests in a row without a reply (a timeout, a
    closed output, an exit, a reply trickling in over `DRIP_SECONDS`) the engine is declared hung
    (`RunStopped`); `budget` seconds bound the whole run. Every reply is bounded (`reading`):
    at most `MAX_REPLY_BYTES`, its texts cut and inert.
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
        self._unasked = 0  # lines that answered no request, in the whole run: never forgiven by later replies
        self._buf = bytearray()
        self._err = bytearray()  # the last STDERR_TAIL bytes of stderr since the last (re)start
        self._err_total = 0
        self._tails_seen: set[str] = set()
        #: The stray stdout lines seen (the first STRAY_KEPT): `{"request": N, "cmd": ..., "line": ...}`.
        self.stray_lines: list[dict[str, Any]] = []
        self._batch: Sequence[dict[str, Any]] = ()  # the requests being answered, and which one is due
        self._due = 0
        self._settled = 0.0  # seconds spent in `settle`
        self._token = new_token()  # inherited by whatever the engine starts: found and ended with it
        self._pidfd = -1
        if not self.argv or not self.argv[0]:
            raise EngineStartError("the engine command is empty (give the command that starts your engine)")
        self.start()

    def start(self) -> None:
        self._err, self._err_total = bytearray(), 0
        env = {**os.environ, TOKEN_VAR: self._token}
        try:  # its own session and process group: stop() ends the engine and whatever it started
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=self.cwd, bufsize=0, start_new_session=True,
                                         env=env)
        except (OSError, ValueError) as exc:
            raise EngineStartError(f"cannot start the engine {self.label!r}: {getattr(exc, 'strerror', None) or exc} "
                             "(check the engine command; it is split into words as a shell would)") from None
        _LIVE.add(self)
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(f.fileno(), False)
        try:  # readable once the engine exits, even while a child it started holds its stdout open
            self._pidfd = os.pidfd_open(self.proc.pid)
        except (AttributeError, OSError):
            self._pidfd = -1  # no pidfd (not Linux 5.3+): the process is polled instead
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
        """The last lines the engine wrote on stderr since it was last (re)started, inert."""
        self._read_stderr()
        text = self._err.decode("utf-8", "replace").strip().splitlines()
        if self._err_total > len(self._err):  # the first kept line may be cut
            text = text[1:]
        kept: list[str] = []  # the last lines first, each cut at 200 characters, about 600 in all
        for line in reversed(text[-lines:]):
            line = inert(line, strict=True)
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
                how = ("but kept running" if code is None else
                       f"with code {code}" if what == "exited" else f"and exited with code {code}")
                return RunStopped(f"the engine is hung: it {what} {how} instead of replying, "
                                  f"{_times(self._timeouts)} (last request {reqs[index].get('cmd')!r}); "
                                  "stopped (an engine "
                                  "answers every request on stdout until quit; fix the engine, see docs/protocol.md)"
                                  + (f"; its stderr ends: {tail.splitlines()[-1][:200]}" if tail else ""),
                                  "hang" if code is None else "crash", self.request_at(reqs, index))
        if tail in self._tails_seen:  # the same crash again: its stderr was shown already
            return EngineDied(f"engine {what} ({state}; same stderr as before)")
        self._tails_seen.add(tail)
        return EngineDied(f"engine {what} ({state})" + (f"; stderr:\n{tail}" if tail else ""))

    def _fault(self, kind: str, message: str, line: bytes | None = None) -> ProtocolFault | RunStopped:
        """Record a protocol fault (the first of each kind is reported), stop the engine: its
        replies are out of step now. The same fault `hung_after` times in a row stops the run, and
        so do `hung_after` lines that answered no request in the whole run (`_STRAY_KINDS`: a reply
        in between forgives none of them, as such a line may have been taken for a reply)."""
        if kind not in self.fault_counts:
            self.faults.append(message)
            self._fault_kinds.append(kind)
        self.fault_counts[kind] = self.fault_counts.get(kind, 0) + 1
        self._faults_in_row += 1
        if kind in _STRAY_KINDS:
            self._unasked += 1
            if line is not None:
                self._stray(line)
        self.stop()
        if self._faults_in_row >= self.hung_after:
            return RunStopped(f"the engine keeps breaking the protocol ({self._faults_in_row} times in a row): "
                              f"{message} (fix the engine; see docs/protocol.md, Framing)", "protocol",
                              self.request_at(), self.stray_lines)
        if self._unasked >= self.hung_after:
            return RunStopped(f"the engine keeps breaking the protocol ({self._unasked} lines that answered no "
                              f"request, in this run): {message} (fix the engine; see docs/protocol.md, Framing)",
                              "protocol", self.request_at(), self.stray_lines)
        return ProtocolFault(message + " (engine stopped; restarted for the next scenario or game)")

    def fault_report(self) -> list[str]:
        """One line per kind of fault: the first occurrence, and how often it happened."""
        return [msg + (f" ({self.fault_counts[k]} times)" if self.fault_counts[k] > 1 else "")
                for k, msg in zip(self._fault_kinds, self.faults)]

    def _spent(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise RunStopped(f"the run used its whole time budget of {self.budget:g} s; stopped "
                             "(give it more time, or play fewer games)", "budget", self.request_at())

    def _parse(self, line: bytes, cmd: str | None) -> Any:
        """The line as JSON, within the protocol's bounds (`reading.measure`), or a fault."""
        try:
            line = shorten(line)
            measure(line, cmd)
            return loads_strict(line)
        except OverBound as exc:
            raise self._fault(f"over-bound-{exc.kind}", str(exc)) from None
        except RecursionError:
            raise self._fault("not-json", f"the engine wrote a line that is not JSON on stdout (nested too deeply "
                              f"to read): {line[:200]!r}") from None
        except MemoryError:
            raise self._fault("too-long", f"the engine wrote a reply too large to read ({len(line):,} bytes): "
                              f"{line[:200]!r}") from None
        except NonJsonValue as exc:
            at = max(0, min((i for i in (line.find(b"NaN"), line.find(b"Infinity")) if i >= 0), default=0) - 80)
            raise self._fault("not-json-value", f"the engine wrote a reply with a value JSON does not have "
                              f"({exc}): {'...' if at else ''}{line[at:at + 200]!r}") from None
        except ValueError:
            raise self._fault("not-json", f"the engine wrote a line that is not JSON on stdout: {line[:200]!r} "
                              "(logs belong on stderr)", line) from None

    def _line(self, line: bytes, reqs: Sequence[dict[str, Any]], index: int) -> dict[str, Any]:
        cmd = reqs[index].get("cmd")
        reply = self._parse(line, cmd)
        if not isinstance(reply, dict):
            raise self._fault("not-object", f"the engine wrote a JSON value that is not a reply object: {line[:200]!r}",
                              line)
        need = _REPLY_KEYS.get(cmd) if cmd is not None and reply.get("ok") is True else None
        if need is not None and need not in reply:
            raise self._fault("mismatched", f"the reply to request {index + 1} ({cmd}) lacks {need!r}: a reply to "
                              f"another request, out of order? {line[:200]!r}", line)
        if need == "actions":
            actions = reply["actions"]
            if isinstance(actions, list) and len(actions) > MAX_LEGAL_ACTIONS:
                raise self._fault("over-bound-legal", f"the reply to legal lists {len(actions):,} actions, over "
                                  f"the protocol's bound of {MAX_LEGAL_ACTIONS:,} (docs/protocol.md, Bounds)")
            twice = duplicate_action(actions)
            if twice is not None:
                raise self._fault("legal-twice", f"the reply to legal lists the action {json.dumps(twice)[:200]} "
                                  "more than once (legal lists every distinct action once)")
        return bound_reply(reply, cmd)

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write every request, read as many replies; writes and reads interleave so pipes never fill."""
        replies: list[dict[str, Any]] = []
        try:
            slow = self._exchange(reqs, replies)
        except ProtocolViolation as exc:
            exc.index = len(replies)
            raise
        finally:
            self._batch = ()
        if any(r.get("cmd") != "hello" for r in reqs) and not slow:
            self._timeouts = self._faults_in_row = 0
        self.requests += len(reqs)
        return replies

    def _drain(self, out_fd: int) -> None:
        """Output nobody asked for (a late second reply, a log line) is a fault, before it shifts replies."""
        self._take(out_fd)
        if self._buf.strip():
            line = bytes(self._buf[:200]).split(b"\n", 1)[0]
            raise self._fault("unasked", f"the engine wrote a line nobody asked for (a second reply?): {line!r}",
                              bytes(self._buf[:4 * STRAY_CHARS]).split(b"\n", 1)[0])
        self._buf.clear()

    def _take(self, out_fd: int) -> bool:
        """Read what stdout holds now, without waiting (at most a reply's bound). False at its end."""
        while len(self._buf) <= MAX_REPLY_BYTES:
            try:
                chunk = os.read(out_fd, 1 << 16)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self._buf += chunk
        return True

    def _exited(self, proc: "subprocess.Popen[bytes]", ready: list[int]) -> bool:
        """Whether the engine process has exited (its pidfd is readable, or a poll says so)."""
        if self._pidfd >= 0:
            return self._pidfd in ready and proc.poll() is not None
        return proc.poll() is not None

    def _exchange(self, reqs: Sequence[dict[str, Any]], replies: list[dict[str, Any]]) -> bool:
        """Send `reqs`, read their replies into `replies`. True when a reply trickled in (`DRIP_SECONDS`)."""
        self._batch, self._due = reqs, 0
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
        drip = min(DRIP_SECONDS, timeout)
        deadline = time.monotonic() + timeout
        begun: float | None = None  # when the first byte of the reply being read came
        scanned = 0  # buf[:scanned] holds no newline: each byte is looked at once
        slow = False
        exited = False
        while len(replies) < len(reqs):
            while len(replies) < len(reqs):
                nl = buf.find(b"\n", scanned)
                if nl < 0:
                    scanned = len(buf)
                    break
                line = bytes(buf[:nl])
                del buf[:nl + 1]
                scanned = 0
                took = time.monotonic() - begun if begun is not None else 0.0
                begun = time.monotonic() if buf else None
                if not line.strip():
                    continue
                self._due = len(replies)
                replies.append(self._line(line, reqs, len(replies)))
                if took > drip:
                    slow = True
                    self._slow(took, reqs[len(replies) - 1])
                elif reqs[len(replies) - 1].get("cmd") != "hello":  # it answers: not hung, whatever comes next
                    self._timeouts = 0
                deadline = time.monotonic() + timeout
            if len(replies) == len(reqs):
                break
            self._due = len(replies)
            if len(buf) > MAX_REPLY_BYTES:
                raise self._fault("too-long", f"the engine wrote a reply line over {MAX_REPLY_BYTES:,} bytes "
                                  f"to {reqs[len(replies)].get('cmd')!r} (the longest reply the protocol allows "
                                  f"is far shorter); it begins {bytes(buf[:120])!r}")
            if exited:  # its last words are read: the reply it owes will not come
                raise self._died("exited", reqs, len(replies))
            now = time.monotonic()
            limit = deadline if self.deadline is None else min(deadline, self.deadline)
            if now >= limit:
                self._spent()
                self._timeouts += 1
                if self._timeouts >= self.hung_after:
                    raise RunStopped(f"the engine is hung: no reply within {timeout:g} s, "
                                     f"{_times(self._timeouts)} (last request "
                                     f"{reqs[len(replies)].get('cmd')!r}); stopped "
                                     "(fix the engine, or allow it more time per reply / more silent replies)",
                                     "hang", self.request_at())
                raise EngineTimeout(f"no reply within {timeout:g} s to {reqs[len(replies)].get('cmd')!r}")
            want_write = [in_fd] if pos < len(data) else []
            watch = [out_fd] + ([err_fd] if err_fd >= 0 else []) + ([self._pidfd] if self._pidfd >= 0 else [])
            wait = limit - now if self._pidfd >= 0 else min(limit - now, 0.25)
            readable, writable, _ = select.select(watch, want_write, [], wait)
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
            if self._exited(proc, readable):
                exited = True  # what it wrote before exiting is read below, then its replies are owed
            if out_fd in readable or exited:
                had = len(buf)
                if not self._take(out_fd) and len(buf) == had and not exited:
                    raise self._died("closed its output", reqs, len(replies))
                if begun is None and buf.strip():
                    begun = time.monotonic()
        self._take(out_fd)  # more output than requests in the same breath: a second reply or a log line
        if buf.strip():
            line = bytes(buf[:200]).split(b"\n", 1)[0]
            self._due = len(reqs) - 1  # after the last reply
            raise self._fault("extra", f"the engine wrote more replies than requests: {line!r}",
                              bytes(buf[:4 * STRAY_CHARS]).split(b"\n", 1)[0])
        return slow

    def _slow(self, took: float, req: dict[str, Any]) -> None:
        """A reply that trickled in: it counts toward being hung, as a timeout does."""
        self._timeouts += 1
        if self._timeouts >= self.hung_after:
            self.stop(polite=False)
            raise RunStopped(f"the engine is hung: its reply to {req.get('cmd')!r} trickled in over {took:.1f} s "
                             f"(a reply line, once begun, comes whole within {DRIP_SECONDS:g} s), "
                             f"{_times(self._timeouts)}; stopped (fix the engine: write each reply in one go)",
                             "hang", self.request_at())

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
        whole process group is killed, and whatever left the group, so nothing it started outlives it."""
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
            end_group(proc, self._token)
            for f in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    f.close()  # type: ignore[union-attr]
                except OSError:
                    pass
            if self._pidfd >= 0:
                os.close(self._pidfd)
                self._pidfd = -1

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> "SubprocessClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
