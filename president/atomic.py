"""Files written whole or not at all: each one is staged in a temporary file beside its target,
then every staged file is renamed into place. Shared by `president build` (many files) and the
report files of the commands (one file); it imports nothing heavy, so commands start fast.

- A target that exists and is not a regular file (a device such as /dev/null, a FIFO, a symlink
  to /proc/self/fd/1) is written through, never replaced: `through=True` (reports) opens and
  writes it after every regular file is staged; otherwise (build) it is refused.
- A symlink to a regular file is kept: the file it points to is replaced.
- A replaced file keeps its mode (and, as root, its owner); a new file gets the umask's mode.
- Staged files are removed on every way out: an error, Ctrl-C or SIGTERM (which the command line
  turns into an exception), including while a staged file is being created.
- A staged file is named `.NAME.XXXXXXXX.tmp` (NAME cut so that the whole name stays within the
  file system's limit of 255 bytes); only a SIGKILL can leave one behind, and `stale_staged`
  finds those (`president build` removes them, `president check` reports them).
- `signals_honoured()` keeps an interruption from being lost inside code that swallows it (a
  finalizer that runs while Ctrl-C is raised prints "Exception ignored" and goes on).
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import signal
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from .errors import PresidentError

#: The longest file name most file systems take (ext4, XFS, tmpfs, APFS: NAME_MAX), in bytes.
NAME_MAX = 255
_STAGED = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{8}\.tmp$", re.S)


class StagingError(PresidentError):
    """Writing `path` failed with `error`; nothing was renamed into place and no staged file is left."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(f"{path}: {error}")
        self.path = path
        self.error = error

    @property
    def no_space(self) -> bool:
        """The file system is full (or the user's quota spent)."""
        return self.error.errno in (errno.ENOSPC, errno.EDQUOT)

    def what_to_do(self, size: int, otherwise: str) -> str:
        """What to do, for a write of `size` bytes in all that failed so: free space, else `otherwise`."""
        if self.no_space:
            return (f"the file system is full; nothing was changed: free about {size:,} bytes there, "
                    "or write to another place")
        return otherwise


def umask() -> int:
    """The process umask, read without changing it where Linux tells it (else set back at once)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def is_special(path: Path) -> bool:
    """`path` exists (following symlinks) and is not a regular file: a device, a FIFO, a socket..."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _cut(name: str, limit: int) -> str:
    """`name` cut to at most `limit` bytes of UTF-8, never inside a character."""
    return os.fsencode(name)[:limit].decode("utf-8", "ignore") if len(os.fsencode(name)) > limit else name


def staged_name(name: str, token: str) -> str:
    """The staged file of a target called `name`: `.NAME.TOKEN.tmp`, NAME cut to stay within NAME_MAX."""
    return f".{_cut(name, NAME_MAX - len(token) - 6)}.{token}.tmp"


def stale_staged(folder: Path, names: set[str] | None = None, recursive: bool = False) -> list[Path]:
    """Staged files in `folder` (and below when `recursive`) that an interrupted write left behind:
    `.NAME.XXXXXXXX.tmp`, for any NAME, or only for the targets called `names` (a writer's own)."""
    wanted = None if names is None else {_cut(n, NAME_MAX - 14) for n in names}
    try:
        found = sorted(folder.rglob(".*.tmp") if recursive else folder.glob(".*.tmp"))
        return [path for path in found if (m := _STAGED.match(path.name)) is not None
                and (wanted is None or m.group("name") in wanted) and path.is_file() and not path.is_symlink()]
    except OSError:
        return []


def remove_stale(folder: Path, names: set[str], recursive: bool = False) -> list[Path]:
    """Remove the staged files `stale_staged` finds for the targets `names`; the ones removed."""
    removed = []
    for path in stale_staged(folder, names, recursive):
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass
    return removed


@contextmanager
def signals_honoured() -> Iterator[Callable[[], None]]:
    """SIGINT and SIGTERM inside the block are recorded, then handled as before (the command line
    raises KeyboardInterrupt). Yields `checkpoint()`: call it where the block may have swallowed
    the exception (after a library call); it raises it again. Whatever the block swallowed is
    raised again on leaving it, and the "Exception ignored" report of a finalizer is not printed."""
    got: list[int] = []
    previous: dict[int, Any] = {}

    def record(signum: int, frame: Any) -> None:
        got.append(signum)
        _handle(signum, previous[signum], frame)

    def checkpoint() -> None:
        if got:
            signum = got[0]
            got.clear()
            _handle(signum, previous.get(signum, signal.SIG_DFL), None)

    old_hook = sys.unraisablehook

    def hook(unraisable: Any) -> None:  # the KeyboardInterrupt a finalizer ate: raised at the checkpoint
        if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and got):
            old_hook(unraisable)

    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, record)
    except ValueError:  # not the main thread: signals are not ours to handle
        for num, handler in previous.items():
            signal.signal(num, handler)
        yield lambda: None
        return
    sys.unraisablehook = hook
    try:
        yield checkpoint
        checkpoint()
    finally:
        sys.unraisablehook = old_hook
        for num, handler in previous.items():
            signal.signal(num, handler)


def _handle(signum: int, handler: Any, frame: Any) -> None:
    """What `handler` (as signal.signal returned it) does with `signum`."""
    if callable(handler):
        handler(signum, frame)
    elif handler != signal.SIG_IGN:  # SIG_DFL: Ctrl-C raises, SIGTERM ends the process
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait (are delivered right after) while the block runs."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # not the main thread's business, or no pthreads
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _stage(target: Path, data: bytes, staged: list[tuple[str, Path]]) -> None:
    """Write `data` to a new hidden file beside `target`, recorded in `staged` before it exists
    (so an interruption at any point leaves nothing behind), with the mode the target will keep."""
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    tmp = str(target.parent / staged_name(target.name, secrets.token_hex(4)))
    fd = -1
    try:
        with _signals_held():
            staged.append((tmp, target))
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~umask()
        os.fchmod(fd, mode)
        if st is not None and os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
            os.fchown(fd, st.st_uid, st.st_gid)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        if fd >= 0:
            os.close(fd)


def _write_through(path: Path, data: bytes) -> None:
    """Write into an existing special file (device, FIFO, /dev/stdout) without replacing it."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def replace_all(files: dict[Path, bytes], through: bool = False) -> None:
    """Stage every file beside its target (their folders must exist), then rename them all into place.

    Targets that are special files are written through when `through`, refused otherwise
    (StagingError). Raises StagingError naming the file that failed; on it, or on an
    interruption while staging, the staged files are removed and no target has changed."""
    staged: list[tuple[str, Path]] = []
    special: list[tuple[Path, bytes]] = []
    current = Path()
    try:
        for path, data in files.items():
            current = path
            if path.is_dir():
                raise IsADirectoryError(21, "a folder is in the way", str(path))
            if is_special(path):
                if not through:
                    raise OSError(0, "not a regular file (a device, a FIFO or a socket); remove it", str(path))
                special.append((path, data))
                continue
            real = Path(os.path.realpath(path)) if path.is_symlink() else path
            _stage(real, data, staged)
        with _signals_held():  # the renames are quick: all of them, or (on an error) the rest unstaged
            for tmp, path in staged:
                current = path
                os.replace(tmp, path)
            staged.clear()
        for path, data in special:
            current = path
            _write_through(path, data)
    except OSError as exc:
        _unstage(staged)
        raise StagingError(current, exc) from None
    except BaseException:
        _unstage(staged)
        raise


def _unstage(staged: list[tuple[str, Path]]) -> None:
    with _signals_held():
        for tmp, _ in staged:
            try:
                Path(tmp).unlink(missing_ok=True)
            except OSError:
                pass
