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
"""
from __future__ import annotations

import os
import secrets
import signal
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from .errors import PresidentError


class StagingError(PresidentError):
    """Writing `path` failed with `error`; nothing was renamed into place and no staged file is left."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(f"{path}: {error}")
        self.path = path
        self.error = error


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
    tmp = str(target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp")
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
