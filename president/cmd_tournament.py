"""`president tournament`: AI levels against each other."""
from __future__ import annotations

import json
from pathlib import Path

import click


class LevelsOption(click.Option):
    """--seats: its help lists the AI levels the spec declares (read only when help is shown)."""

    def get_help_record(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        from .ai.base import levels
        self.help = f"{self.help.split(' Levels:')[0] if self.help else ''} Levels: {', '.join(levels())}."
        return super().get_help_record(ctx)


@click.command()
@click.option("--seats", required=True, cls=LevelsOption, metavar="LEVEL,LEVEL,...",
              help="AI level per seat, comma-separated, e.g. hard,medium,medium,medium.")
@click.option("--games", "-n", type=click.IntRange(min=1), required=True, help="Games to play.")
@click.option("--deals", "-d", type=click.IntRange(min=1), default=1, show_default=True, help="Deals per game.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the games: the same seed plays the same games, whatever --jobs is.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes; results are identical for any value.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as JSON to FILE ('-' for stdout).")
def tournament(seats: str, games: int, deals: int, seed: int, jobs: int, json_path: Path | None) -> None:
    """Play N games between AI levels; seats rotate between games to remove position bias.

    Shows, per entry of --seats: mean points with 95% CI, President rate, last-place rate, and
    mean / p99 decision time in ms.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from .ai.base import levels as spec_levels
    from .tournament import tournament as run

    levels = [s.strip() for s in seats.split(",") if s.strip()]
    known = spec_levels()
    bad = [lv for lv in levels if lv not in known]
    if bad:
        raise click.BadParameter(f"unknown level(s) {', '.join(bad)}; known: {', '.join(known)}", param_hint="--seats")
    from .engine import Ruleset
    rules = Ruleset.from_spec()
    if not rules.min_players <= len(levels) <= rules.max_players:
        raise click.BadParameter(f"{len(levels)} seats; the game needs {rules.min_players} to {rules.max_players}",
                                 param_hint="--seats")
    from .cliutil import check_output, write_output
    check_output(json_path, "--json")
    console = Console(stderr=True)
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("games", total=games)
        result = run(levels, games, deals, seed, jobs,
                     progress=lambda k: bar.advance(task, k))
    table = Table(title=f"{games} games x {deals} deal(s), seed {seed}")
    for col in ("seat entry", "level", "mean points", "President", "last", "ms mean", "ms p99"):
        table.add_column(col, justify="right" if col not in ("level",) else "left")
    for e, lv in enumerate(levels):
        table.add_row(str(e), lv, f"{result['mean_points'][e]:.3f} ± {result['ci95'][e]:.3f}",
                      f"{result['president_rate'][e]:.1%}", f"{result['last_rate'][e]:.1%}",
                      f"{result['decision_ms_mean'][e]:.3f}", f"{result['decision_ms_p99'][e]:.3f}")
    Console().print(table)
    if json_path is not None:
        text = json.dumps(result, indent=2)
        if str(json_path) == "-":
            click.echo(text)
        else:
            write_output(json_path, text + "\n", "--json")
