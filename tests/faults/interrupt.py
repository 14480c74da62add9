"""Run a president command, press Ctrl-C (SIGINT) once it is busy, and time its way out."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def interrupt(args: list[str], cwd: Path, after: float = 0.0, wait_for: str | None = None,
              limit: float = 60.0) -> tuple[int, float, str]:
    """(exit code, seconds from SIGINT to exit, stderr). SIGINT goes to the whole process group,
    as a terminal's Ctrl-C does: workers and engines get it too."""
    proc = subprocess.Popen([sys.executable, "-m", "president", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = ""
    start = time.monotonic()
    if wait_for is not None:
        assert proc.stderr is not None
        while wait_for not in seen and time.monotonic() - start < limit:
            line = proc.stderr.readline()
            if not line:
                break
            seen += line
    time.sleep(after)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"{args} still running {limit} s after SIGINT") from None
    return proc.returncode, time.monotonic() - sent, seen + err


if __name__ == "__main__":
    code, seconds, err = interrupt(sys.argv[2:], Path.cwd(), after=float(sys.argv[1]))
    print(f"exit {code} {seconds:.2f}s after SIGINT; stderr: {err.strip()[-300:]!r}")
