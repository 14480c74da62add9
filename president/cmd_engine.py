"""`president engine` and `president bench`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .errors import PresidentError


def _rules(spec: Path | None):
    from .engine import Ruleset
    from .spec import load_spec

    return Ruleset.from_spec(load_spec(spec) if spec else None)


@click.command()
@click.option("--spec", type=click.Path(dir_okay=False, path_type=Path), help="Spec file (default: the project's).")
def engine(spec: Path | None) -> None:
    """Serve the reference engine on stdin/stdout (engine protocol v1, JSON lines).

    One JSON request per line in, exactly one JSON reply per line out; logs go to stderr.
    See docs/protocol.md.
    """
    from .protocol import serve

    try:
        rules = _rules(spec)
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    print("president engine: protocol 1 ready", file=sys.stderr)
    serve(sys.stdin.buffer, sys.stdout.buffer, rules)


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=1), default=5000, show_default=True, help="Random deals to play.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True,
              help="Players at the table (the spec's range, 3 to 6 in the CardVerse variant).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the random deals.")
@click.option("--protocol", "through_protocol", is_flag=True,
              help="Measure legal/act round trips through a `president engine` subprocess instead.")
@click.option("--pin/--no-pin", default=True, show_default=True,
              help="With --protocol: run the client and the engine on one CPU core (see docs/protocol.md).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the figures as one JSON object to FILE ('-' for stdout).")
def bench(games: int, players: int, seed: int, through_protocol: bool, pin: bool, json_path: Path | None) -> None:
    """Play N uniformly random deals in one process and report deals/s and steps/s.

    With --protocol, play them through a `president engine` subprocess instead and report
    legal/act round trips per second from this (Python) client.
    """
    from .bench import bench_engine, bench_protocol
    from .cliutil import check_output, write_output

    rules = _rules(None)
    if not rules.min_players <= players <= rules.max_players:
        raise click.BadParameter(f"{players} players; the game needs {rules.min_players} to {rules.max_players}",
                                 param_hint="--players")
    check_output(json_path, "--json")
    result = bench_protocol(games, players, seed, pin) if through_protocol else bench_engine(games, players, seed)
    if json_path is not None and str(json_path) == "-":
        click.echo(json.dumps(result, sort_keys=True))
        return
    for k, v in result.items():
        click.echo(f"{k}: {v:,.0f}" if isinstance(v, float) else f"{k}: {v}")
    if json_path is not None:
        write_output(json_path, json.dumps(result, sort_keys=True) + "\n", "--json")
