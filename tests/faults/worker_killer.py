"""A reference engine that kills the `--jobs` worker driving it: `python tests/faults/worker_killer.py K`.

It serves the reference `Session` and, at its K-th `new_game`, sends SIGKILL to its parent when
that parent is a forked worker (a process whose own parent runs the same command line), as `kill -9`
or the out-of-memory killer would. With $KILL_ONCE naming a file, only the first engine to get
there kills (it creates the file); without it, every worker's engine kills its worker, so a worker
started again for the lost items is lost too. Used by tests/faults/test_workers.py.
"""
from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.protocol.server import Session  # noqa: E402


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent_is_a_worker() -> bool:
    parent = os.getppid()
    try:
        grandparent = int(Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return False
    return _cmdline(parent) == _cmdline(grandparent) != b""


def _first_to_kill() -> bool:
    marker = os.environ.get("KILL_ONCE")
    if not marker:
        return True
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def main(at: int) -> int:
    session = Session(name="worker-killer")
    games = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("cmd") == "new_game":
            games += 1
            if games == at and _parent_is_a_worker() and _first_to_kill():
                os.kill(os.getppid(), signal.SIGKILL)
        sys.stdout.write(json.dumps(session.handle(req)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
