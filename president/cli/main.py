"""The `president` command line: a thin click layer over plain functions.

Each area registers its commands from its own module (president/cli/*.py). Whatever happens,
a command ends with one line on stderr, never a traceback: exit 0 success, 1 problems found
(or the run had to stop), 2 usage error, 130 on Ctrl-C, 143 on SIGTERM (handled as Ctrl-C is:
the same cleanups run, staged files are removed).
"""
from __future__ import annotations

import os
import signal
import sys
from typing import Any


def _interrupted_early(signum: int, frame: object) -> None:
    """Ctrl-C while the command line is still loading: nothing to clean up yet."""
    interrupted()


signal.signal(signal.SIGINT, _interrupted_early)  # until a command runs (see Main.invoke)

import click  # noqa: E402

from .._version import __version__  # noqa: E402
from ..errors import PresidentError  # noqa: E402
from ..textsafe import inert  # noqa: E402

INTERRUPTED = 130
TERMINATED = 143  # 128 + SIGTERM, as a shell reports it


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would raise KeyboardInterrupt, so the same cleanups run."""


_MAIN_PID = os.getpid()


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM in the command: unwind like Ctrl-C. In a forked worker, die as SIGTERM asks."""
    if os.getpid() != _MAIN_PID:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    raise Terminated()


def interrupted(code: int = INTERRUPTED) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    """The first Ctrl-C (or SIGTERM): say so on one line and leave with 130 (143) at once
    (workers are ended by their owners)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the way out
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        sys.stderr.write("\nterminated\n" if code == TERMINATED else "\ninterrupted\n")
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)


class Main(click.Group):
    """The top-level group: lists every command in full, turns any escaping error into one line."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, (cmd.help or "").strip().split("\n\n")[0].replace("\n", " ")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        if signal.getsignal(signal.SIGINT) is _interrupted_early:  # from now on Ctrl-C unwinds (cleanups run)
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:  # and so does SIGTERM
            signal.signal(signal.SIGTERM, _terminate)
        try:
            return super().invoke(ctx)
        except Terminated:
            interrupted(TERMINATED)
        except KeyboardInterrupt:
            interrupted()
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except PresidentError as exc:  # one line, its control characters shown (it may quote an engine)
            raise click.ClickException(inert(str(exc).split("\n")[0])) from None
        except BrokenPipeError:  # `president ... | head`: the reader left, nothing to say
            sys.stderr.close()
            os._exit(1)
        except RecursionError:
            raise click.ClickException("the input is too deeply nested (RecursionError); make it smaller") from None
        except MemoryError:  # not the user's input, necessarily: an engine's replies are bounded, but not all else
            raise click.ClickException("out of memory (MemoryError); stopped (a smaller --games or --jobs needs less; "
                                       "please report it if an engine's replies caused it)") from None
        except Exception as exc:  # a bug: still one line; PRESIDENT_DEBUG=1 shows the traceback
            if os.environ.get("PRESIDENT_DEBUG"):
                raise
            raise click.ClickException(f"internal error: {type(exc).__name__}: {exc} "
                                       "(please report it; PRESIDENT_DEBUG=1 shows the traceback)") from None


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="president")
def main() -> None:
    """President (CardVerse variant) rules-spec toolkit.

    The spec (spec/president.yaml) is the single source of truth: `build` renders the
    rule sheets and features from it, `check` verifies catalogs and generated files,
    `engine` serves the reference engine over the JSON-lines protocol, `conform`
    checks any engine against the spec's scenarios, `report` reads its saved reports
    (show, table, diff), `tournament` and `bench` measure
    the AIs and the engine, `i18n` holds the translator's tools.

    Exit codes: 0 success, 1 problems found, 2 usage error, 130 interrupted (Ctrl-C).
    """


def _register() -> None:
    # One line per area; each module defines click commands.
    from .engine import bench, engine

    main.add_command(engine)
    main.add_command(bench)
    from .tournament import tournament; main.add_command(tournament)  # noqa: E702
    from .project import build, check
    main.add_command(build)
    main.add_command(check)
    from .i18n import i18n; main.add_command(i18n)  # noqa: E702
    from .conform import conform; main.add_command(conform)  # noqa: E702
    from .report import report; main.add_command(report)  # noqa: E702


_register()
