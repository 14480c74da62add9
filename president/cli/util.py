"""Shared pieces of the command line: checked option types, output files written whole or not at all,
and a progress line on stderr when it is a terminal."""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any

import click

from ..atomic import StagingError, replace_all
from ..errors import PresidentError
from ..textsafe import inert


class Seconds(click.ParamType):
    """A finite, positive number of seconds (refuses nan, inf, 0 and negatives)."""

    name = "SECONDS"

    def __init__(self, maximum: float = 86_400.0):
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 < seconds <= self.maximum:
            self.fail(f"{value!r} is not a number of seconds between 0 (excluded) and {self.maximum:g}", param, ctx)
        return seconds


def check_output(path: Path | None, option: str) -> None:
    """Refuse early (usage error) an output file whose folder does not exist, before a long run."""
    if path is None or str(path) == "-":
        return
    folder = Path(path).parent
    if not folder.is_dir():
        raise click.BadParameter(f"the folder {folder} does not exist", param_hint=option)
    if Path(path).is_dir():
        raise click.BadParameter(f"{path} is a folder; give a file name", param_hint=option)


def write_output(path: Path, text: str, option: str) -> None:
    """Write a report file whole (`president.atomic.replace_all`): never a partial file. A device,
    a FIFO or /dev/stdout is written through, never replaced; a regular file keeps its mode."""
    try:
        replace_all({Path(path): text.encode("utf-8")}, through=True)
    except StagingError as exc:
        raise PresidentError(f"cannot write {option} {path}: {exc.error.strerror or exc.error} "
                             "(choose a writable place)") from None


def echo(text: str, err: bool = False) -> None:
    """Print a text that may quote an engine or a catalog: its control characters shown as escapes
    (`president.textsafe.inert`), so that nothing it holds moves the cursor or rewrites the terminal."""
    click.echo(inert(text), err=err)


class ProgressLine:
    """`what done/total, elapsed` rewritten in place on stderr, only when stderr is a terminal."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self._last = 0.0
        self._shown = False

    def update(self, what: str, done: int, total: int | None = None, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        count = f"{done}/{total}" if total else f"{done}"
        sys.stderr.write(f"\r\x1b[K{what} {count}  {now - self.start:.1f}s")
        sys.stderr.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._shown = False
