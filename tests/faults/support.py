"""What the file and spec fault tests share: `president` run as a user would, in a folder."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def president(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "president", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def measured(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> tuple[int, str, str, int]:
    """Run `python -m president ARGS`; (exit code, stdout, stderr, peak RSS in KB of the run: conform
    and the engines it waited for, from wait4's rusage). Killed (whole session) after `timeout` s."""
    import os
    import signal
    import tempfile
    import threading

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "president", *args], cwd=cwd, env=env, stdout=out,
                                stderr=err, start_new_session=True)
        killer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                usage.ru_maxrss)
