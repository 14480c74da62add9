"""`president engine` and `president bench`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import PresidentError


def _rules(spec: Path | None):
    from ..game.engine import Ruleset
    from .util import spec_here

    return Ruleset.from_spec(spec_here(spec))


@click.command()
@click.option("--spec", type=click.Path(dir_okay=False, path_type=Path), help="Spec file (default: the project's).")
def engine(spec: Path | None) -> None:
    """Serve the reference engine on stdin/stdout (engine protocol v1, JSON lines).

    One JSON request per line in, exactly one JSON reply per line out; logs go to stderr.
    See docs/protocol.md.
    """
    from ..protocol.server import serve

    try:
        rules = _rules(spec)
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    print("president engine: protocol 1 ready", file=sys.stderr)
    serve(sys.stdin.buffer, sys.stdout.buffer, rules)


def _option(text: str) -> tuple[str, object]:
    """NAME=VALUE with a JSON value (true, 2) or a bare string (holder:3C)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise click.UsageError(f"--option {text!r}: write NAME=VALUE, e.g. jokers=2")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=1), default=5000, show_default=True, help="Random deals to play.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True,
              help="Players at the table (the spec's range, 3 to 6 in the CardVerse variant).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the random deals.")
@click.option("--protocol", "through_protocol", is_flag=True,
              help="Measure legal/act round trips through a `president engine` subprocess instead.")
@click.option("--pin/--no-pin", default=True, show_default=True,
              help="With --protocol: run the client and the engine on one CPU core (see docs/protocol.md).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A table option as new_game.config spells it, e.g. --option jokers=2 --option equality=true.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the figures as one JSON object to FILE ('-' for stdout).")
def bench(games: int, players: int, seed: int, through_protocol: bool, pin: bool, options: tuple[str, ...],
          json_path: Path | None) -> None:
    """Play N uniformly random deals in one process and report deals/s and steps/s.

    With --protocol, play them through a `president engine` subprocess instead and report
    legal/act round trips per second from this (Python) client.
    """
    from ..arena.bench import bench_engine, bench_protocol
    from .util import check_outputs, run_inputs, write_output
    from ..errors import IllegalAction

    rules = _rules(None)
    if not rules.min_players <= players <= rules.max_players:
        raise click.BadParameter(f"{players} players; the game needs {rules.min_players} to {rules.max_players}",
                                 param_hint="--players")
    config = dict(_option(o) for o in options)
    if "players" in config:
        raise click.BadParameter(f"players={config['players']!r} is not a table option; the table size is "
                                 "--players", param_hint="--option")
    if through_protocol and config:
        raise click.UsageError("--option applies to the in-process bench only")
    check_outputs({"--json": json_path}, run_inputs())
    try:
        result = bench_protocol(games, players, seed, pin) if through_protocol else bench_engine(games, players, seed,
                                                                                                   config)
    except IllegalAction as exc:
        raise click.UsageError(f"--option: {exc.message}") from None
    if json_path is not None and str(json_path) == "-":
        click.echo(json.dumps(result, sort_keys=True))
        return
    for k, v in result.items():
        click.echo(f"{k}: {v:,.0f}" if isinstance(v, float) else f"{k}: {v}")
    if json_path is not None:
        write_output(json_path, json.dumps(result, sort_keys=True) + "\n", "--json")
