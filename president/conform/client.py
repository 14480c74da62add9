"""Clients speaking engine protocol v1: a subprocess over JSON lines, or in-process.

`SubprocessClient` writes requests and reads replies with a timeout per request, pipelines
batches (`pipeline`), and can be restarted after a crash. `InProcessClient` wraps
`president.protocol.Session` with the same interface.
"""
from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Protocol, Sequence

DEFAULT_TIMEOUT = 5.0


class ProtocolViolation(Exception):
    """The engine broke the protocol (malformed reply, missing field...): an `error` outcome."""


class EngineDied(ProtocolViolation):
    """The engine process exited or closed its output."""


class EngineTimeout(ProtocolViolation):
    """No reply within the request timeout."""


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
            from ..protocol import Session

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


class SubprocessClient:
    """An engine command speaking JSON lines on stdin/stdout; stderr is kept in a temp file."""

    def __init__(self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.label = command if isinstance(command, str) else shlex.join(command)
        self.timeout = timeout
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._buf = bytearray()
        self._stderr = tempfile.TemporaryFile()
        self.start()

    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, cwd=self.cwd, bufsize=0)
        except OSError as exc:
            raise EngineDied(f"cannot start the engine {self.label!r}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._buf = bytearray()

    def stderr_tail(self, lines: int = 5) -> str:
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        self._stderr.seek(0, 2)
        return "\n".join(text[-lines:])

    def _died(self, what: str) -> EngineDied:
        code = self.proc.poll() if self.proc else None
        tail = self.stderr_tail()
        return EngineDied(f"engine {what} (exit code {code})" + (f"; stderr:\n{tail}" if tail else ""))

    def pipeline(self, reqs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write every request, read as many replies; writes and reads interleave so pipes never fill."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            raise self._died("is not running")
        data = b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in reqs)
        out_fd, in_fd = proc.stdout.fileno(), proc.stdin.fileno()  # type: ignore[union-attr]
        view, pos = memoryview(data), 0
        replies: list[dict[str, Any]] = []
        buf = self._buf
        deadline = time.monotonic() + self.timeout
        while len(replies) < len(reqs):
            while True:
                nl = buf.find(b"\n")
                if nl < 0 or len(replies) == len(reqs):
                    break
                line = bytes(buf[:nl])
                del buf[:nl + 1]
                try:
                    reply = json.loads(line)
                except ValueError:
                    raise ProtocolViolation(f"reply is not JSON: {line[:200]!r}") from None
                if not isinstance(reply, dict):
                    raise ProtocolViolation(f"reply is not a JSON object: {line[:200]!r}")
                replies.append(reply)
                deadline = time.monotonic() + self.timeout
            if len(replies) == len(reqs):
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimeout(f"no reply within {self.timeout:g} s to {reqs[len(replies)].get('cmd')!r}")
            want_write = [in_fd] if pos < len(data) else []
            readable, writable, _ = select.select([out_fd], want_write, [], remaining)
            if writable:
                try:
                    pos += os.write(in_fd, view[pos:pos + 65536])
                except BlockingIOError:
                    pass
                except (BrokenPipeError, OSError):
                    raise self._died("closed its input") from None
            if readable:
                try:
                    chunk = os.read(out_fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._died("closed its output")
                buf += chunk
        return replies

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        return self.pipeline([req])[0]

    def hello(self) -> dict[str, Any]:
        return self.request({"cmd": "hello"})

    def restart(self) -> None:
        self.stop()
        self.restarts += 1
        self.start()

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:
                    proc.stdin.write(b'{"cmd":"quit"}\n')  # type: ignore[union-attr]
                except OSError:
                    pass
                try:
                    proc.wait(0.5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(2)
        finally:
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()  # type: ignore[union-attr]
                except OSError:
                    pass

    def close(self) -> None:
        self.stop()
        self._stderr.close()

    def __enter__(self) -> "SubprocessClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_client(engine: str | None, timeout: float = DEFAULT_TIMEOUT) -> Client:
    """The engine behind `--engine CMD`, or the reference engine as a subprocess when None."""
    return SubprocessClient(engine if engine else reference_command(), timeout)
