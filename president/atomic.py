"""Files written whole or not at all: each one is staged in a temporary file beside its target,
then every staged file is renamed into place. Shared by `president build` (many files) and the
report files of the commands (one file); it imports nothing heavy, so commands start fast."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


class StagingError(Exception):
    """Writing `path` failed with `error`; nothing was renamed into place and no staged file is left."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(f"{path}: {error}")
        self.path = path
        self.error = error


def replace_all(files: dict[Path, bytes]) -> None:
    """Stage every file beside its target (their folders must exist), then rename them all into place.

    Raises StagingError naming the file that failed; on it, or on Ctrl-C while staging, the staged
    files are removed and no target has changed."""
    staged: list[tuple[str, Path]] = []
    current = Path()
    try:
        for path, data in files.items():
            current = path
            if path.is_dir():
                raise IsADirectoryError(21, "a folder is in the way", str(path))
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        for tmp, path in staged:
            current = path
            os.replace(tmp, path)
    except OSError as exc:
        _unstage(staged)
        raise StagingError(current, exc) from None
    except BaseException:
        _unstage(staged)
        raise


def _unstage(staged: list[tuple[str, Path]]) -> None:
    for tmp, _ in staged:
        Path(tmp).unlink(missing_ok=True)
