"""`president tournament`: AI levels against each other."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .util import Seconds, spec_here


class LevelsOption(click.Option):
    """--seats, --ladder: the help lists the AI levels the spec declares (read only when help is shown)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from ..ai.base import levels
        self.help = f"{self.help.split(' Levels:')[0] if self.help else ''} Levels: {', '.join(levels())}."
        return super().get_help_record(ctx)


@click.command()
@click.option("--seats", cls=LevelsOption, metavar="LEVEL,LEVEL,...",
              help="AI level per seat, comma-separated, e.g. hard,medium,medium,medium.")
@click.option("--ladder", cls=LevelsOption, metavar="LEVEL,LEVEL,...",
              help="Levels to rate in mixed seatings instead of --seats, e.g. easy,medium,hard.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True, help="Seats per table with --ladder.")
@click.option("--games", "-n", type=click.IntRange(min=1), required=True, help="Games to play.")
@click.option("--deals", "-d", type=click.IntRange(min=1), default=1, show_default=True, help="Deals per game.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the games: the same seed plays the same games, whatever --jobs is.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes; results are identical for any value.")
@click.option("--cluster", metavar="ADDRESS",
              help="Play on this Dask distributed scheduler (e.g. tcp://host:8786) instead of local processes; "
                   "results are identical. Needs the [cluster] extra.")
@click.option("--connect-timeout", type=Seconds(3600), default=10.0, show_default=True,
              help="With --cluster: seconds to reach the scheduler before giving up.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write President rate and rating against games played, with 95% bands (.png or .svg).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as JSON to FILE ('-' for stdout).")
def tournament(seats: str | None, ladder: str | None, players: int, games: int, deals: int, seed: int, jobs: int,
               cluster: str | None, connect_timeout: float, plot_path: Path | None, json_path: Path | None) -> None:
    """Play N games between AI levels; seats rotate between games to remove position bias.

    Shows, per entry of --seats: mean points with 95% CI, President rate, last-place rate, and
    mean / p99 decision time in ms. With --ladder, the levels play every mixed seating in turn
    and each level gets an OpenSkill rating (mu ± 2 sigma) next to its President rate.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..arena.ladder import ladder_seating
    from ..arena.tournament import run_games

    if (seats is None) == (ladder is None):
        raise click.UsageError("give either --seats or --ladder")
    if plot_path is not None and plot_path.suffix.lower() not in (".png", ".svg"):
        raise click.BadParameter(f"{str(plot_path)!r}: the plot is written as .png or .svg", param_hint="--plot")
    levels = _levels(seats or ladder or "", "--seats" if seats else "--ladder")
    n = len(levels) if seats else players
    from ..game.engine import Ruleset
    rules = Ruleset.from_spec(spec_here())
    if not rules.min_players <= n <= rules.max_players:
        raise click.BadParameter(f"{n} seats; the game needs {rules.min_players} to {rules.max_players}",
                                 param_hint="--seats" if seats else "--players")
    if ladder and len(set(levels)) < 2:
        raise click.BadParameter("a ladder needs at least two different levels", param_hint="--ladder")
    seating = levels if seats else ladder_seating(levels, players)
    from .util import check_outputs, run_inputs, write_output
    check_outputs({"--json": json_path, "--plot": plot_path}, run_inputs())
    console = Console(stderr=True)
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("games", total=games)
        advance = lambda k: bar.advance(task, k)  # noqa: E731
        if cluster:
            from ..arena.cluster import ClusterError, run_games_cluster
            try:
                results = run_games_cluster(seating, games, deals, seed, cluster, progress=advance,
                                            timeout=connect_timeout)
            except ClusterError as exc:
                raise click.ClickException(str(exc)) from None
        else:
            results = run_games(seating, games, deals, seed, jobs, progress=advance)
    title = f"{games} games x {deals} deal(s), seed {seed}"
    if seats:
        result = _show_seats(levels, results, deals, title)
    else:
        result = _show_ladder(levels, players, results, deals, seed, title)
    if plot_path is not None:
        from ..arena.ladder import plot, rate
        from ..arena.tournament import seating as seating_at
        from ..errors import PresidentError
        try:
            plot(rate(lambda g: seating_at(seating, g), results), plot_path, title)
        except (PresidentError, OSError) as exc:
            raise click.ClickException(f"cannot write the plot {str(plot_path)!r}: {exc}") from None
    if json_path is not None:
        text = json.dumps(result, indent=2)
        if str(json_path) == "-":
            click.echo(text)
        else:
            write_output(json_path, text + "\n", "--json")


def _levels(text: str, hint: str) -> list[str]:
    from ..ai.base import levels as spec_levels

    levels = [s.strip() for s in text.split(",") if s.strip()]
    known = spec_levels()
    bad = [lv for lv in levels if lv not in known]
    if bad or not levels:
        raise click.BadParameter(f"unknown level(s) {', '.join(bad) or text!r}; known: {', '.join(known)}",
                                 param_hint=hint)
    return levels


def _show_seats(levels: list[str], results: list, deals: int, title: str) -> dict:
    from rich.console import Console
    from rich.table import Table

    from ..arena.tournament import summarize

    result = summarize(levels, results, deals)
    table = Table(title=title)
    for col in ("seat entry", "level", "mean points", "President", "last", "ms mean", "ms p99"):
        table.add_column(col, justify="right" if col not in ("level",) else "left")
    for e, lv in enumerate(levels):
        table.add_row(str(e), lv, f"{result['mean_points'][e]:.3f} ± {result['ci95'][e]:.3f}",
                      f"{result['president_rate'][e]:.1%}", f"{result['last_rate'][e]:.1%}",
                      f"{result['decision_ms_mean'][e]:.3f}", f"{result['decision_ms_p99'][e]:.3f}")
    Console().print(table)
    return result


def _show_ladder(levels: list[str], players: int, results: list, deals: int, seed: int, title: str) -> dict:
    from rich.console import Console
    from rich.table import Table

    from ..arena.ladder import ladder_seating, rate, summary

    rows = summary(rate(ladder_seating(levels, players), results))
    table = Table(title=f"ladder, {players} seats, mixed seatings: {title}")
    for col in ("level", "rating (mu ± 2σ)", "President (95% CI)", "points/deal", "deals"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for r in rows:
        table.add_row(r["level"], f"{r['mu']:.2f} ± {2 * r['sigma']:.2f}",
                      f"{r['president_rate']:.1%} ± {r['president_ci95']:.1%}", f"{r['mean_points']:.3f}",
                      str(r["deals"]))
    Console().print(table)
    return {"ladder": levels, "players": players, "games": len(results), "deals": deals, "seed": seed,
            "rating": "openskill PlackettLuce", "levels": rows}
