"""Ending an engine and everything it started, even what left its process group.

The engine runs in a session and process group of its own, and its environment carries a token
(`TOKEN_VAR`) that its descendants inherit. Ending it kills the group, then scans /proc for any
process of this user in the engine's session or carrying its token: a child that called setsid,
or was reparented when the engine exited, is found and killed too (no cgroup needed). Where
/proc is missing only the group is ended.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
from pathlib import Path

#: The variable whose value marks an engine's descendants.
TOKEN_VAR = "PRESIDENT_ENGINE_TOKEN"
_PROC = Path("/proc")


def new_token() -> str:
    return f"{os.getpid()}-{secrets.token_hex(8)}"


def _session(stat: str) -> int:
    return int(stat.rsplit(")", 1)[1].split()[3])


def strays(leader: int, token: str) -> list[int]:
    """Processes of this user (but this one) in the session `leader` started, or carrying `token`."""
    if not _PROC.is_dir():
        return []
    mark, me, uid = f"{TOKEN_VAR}={token}".encode() + b"\0", os.getpid(), os.getuid()
    found = []
    for entry in os.scandir(_PROC):
        if not entry.name.isdigit() or int(entry.name) in (me, leader):
            continue
        try:
            if entry.stat().st_uid != uid and uid != 0:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
            if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                continue
            if _session(stat) == leader:
                found.append(int(entry.name))
                continue
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if mark in f.read() + b"\0":
                    found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not ours to read
    return found


def end_group(proc: "subprocess.Popen[bytes]", token: str | None = None) -> None:
    """Kill the process group `proc` leads (it was started with start_new_session), reap `proc`,
    then kill what escaped the group (`strays`: setsid children, orphans carrying `token`)."""
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
    if token is None:
        return
    for _ in range(3):  # a stray may fork while it is being killed: look again, a few times
        left = strays(proc.pid, token)
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
