"""Where the project files live: the project found upward from a folder, or the packaged copies."""
from __future__ import annotations

from pathlib import Path
from .errors import PresidentError

#: The project's languages, defined once: the source language (msgids are English) first, then
#: those with catalogs under locales/<lang>/LC_MESSAGES/. Kept here, free of imports, so that
#: loading the command line stays cheap.
SOURCE_LANG = "en"
CATALOG_LANGS: tuple[str, ...] = ("ar", "el", "ru", "hy", "hi")
LANGS: tuple[str, ...] = (SOURCE_LANG, *CATALOG_LANGS)

PACKAGE_DIR = Path(__file__).resolve().parent
#: In a wheel the data files ship under president/_data; in a checkout they sit beside the package.
_PACKAGED = PACKAGE_DIR / "_data"
_CHECKOUT = PACKAGE_DIR.parent


def packaged_root() -> Path:
    """The root holding spec/, locales/, rules/ and features/ that came with the installed package."""
    if (_PACKAGED / "spec" / "president.yaml").is_file():
        return _PACKAGED
    return _CHECKOUT


def find_project_root(start: Path) -> Path | None:
    """Walk upward from `start` as git does, to a folder with spec/president.yaml and locales/.
    Only the command line starts from the current folder; the library never looks there."""
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / "spec" / "president.yaml").is_file() and (folder / "locales").is_dir():
            return folder
    return None


def project_root(root: Path | None = None) -> Path:
    """`root` if given, else the packaged copies (the command line passes the project it found)."""
    if root is not None:
        return Path(root).resolve()
    return packaged_root()


def default_spec_path(root: Path | None = None) -> Path:
    return project_root(root) / "spec" / "president.yaml"


def schema_path() -> Path:
    return packaged_root() / "spec" / "schema.json"


# --- staying inside the project --------------------------------------------------------------

def escape_of(path: Path, root: Path) -> tuple[Path, Path] | None:
    """Where `path` leaves `root` through a symlink: (the first link on the way out, where it
    leads), or None if `path` resolves inside `root`. `path` need not exist yet."""
    path, root = Path(path), Path(root)
    real_root = root.resolve()
    if path.resolve().is_relative_to(real_root):
        return None
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path, path.resolve()
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink() and not current.resolve().is_relative_to(real_root):
            return current, current.resolve()
    return path, path.resolve()


def inside(path: Path, root: Path) -> bool:
    return escape_of(path, root) is None


class SpecialFile(PresidentError, OSError):
    """A file that must be a regular file is not one (a device, a FIFO, a folder...), or is too large."""


class HardLinked(SpecialFile):
    """A file that must be the project's own has other names (hard links): it may be a file from
    outside the project, so it is refused without being read."""

    def __init__(self, path: Path, links: int):
        super().__init__(0, f"has {links} hard links, so it may be a file from outside the project; "
                            "refused, not read", str(path))
        self.links = links


def file_kind(mode: int) -> str:
    import stat
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: Path, limit: int, own: bool = False) -> bytes:
    """The bytes of a regular file, at most `limit` of them: a device, a FIFO or a socket is refused
    at once (opened without blocking, never read), a longer file as soon as `limit` is passed, and
    with `own` a file with more than one hard link (HardLinked), before anything is read.
    Raises FileNotFoundError, PermissionError... or SpecialFile (an OSError) with a plain reason."""
    import os
    import stat
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SpecialFile(0, f"{file_kind(st.st_mode)}, not a regular file", str(path))
        if own and st.st_nlink > 1:
            raise HardLinked(path, st.st_nlink)
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise SpecialFile(0, f"over the limit of {limit:,} bytes", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)
