"""The `president` command line: a thin click layer over plain functions.

Each area registers its commands from its own module (president/cmd_*.py).
"""
from __future__ import annotations

import click

from . import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="president")
def main() -> None:
    """President (CardVerse variant) rules-spec toolkit.

    The spec (spec/president.yaml) is the single source of truth: `build` renders the
    rule sheets and features from it, `check` verifies catalogs and generated files,
    `engine` serves the reference engine over the JSON-lines protocol, and `conform`
    checks any engine against the spec's scenarios.
    """


def _register() -> None:
    # One line per area; each module defines click commands.
    from .cmd_engine import bench, engine

    main.add_command(engine)
    main.add_command(bench)
    from .cmd_tournament import tournament; main.add_command(tournament)  # noqa: E702
    from .cmd_project import build, check; [main.add_command(c) for c in (build, check)]  # noqa: E702
    from .cmd_i18n import i18n; main.add_command(i18n)  # noqa: E702
    from .cmd_conform import conform; main.add_command(conform)  # noqa: E702


_register()
