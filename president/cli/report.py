"""`president report`: read saved conformance reports (`president conform --json FILE`).

`show` prints a run's text report again, `table` builds the clause × engine table from several
runs, `diff` lists the deviations new, gone or changed between two runs of one engine and exits 1
when one is new (a CI gate). A file that is not a report of a version this toolkit reads exits 2.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .util import check_output, write_outputs
from ..errors import PresidentError
from ..textsafe import inert

if TYPE_CHECKING:
    from ..conform.saved import Report

REPORT = click.Path(path_type=Path)


class BadReport(click.ClickException):
    """A report that cannot be read: one line, exit 2 (bad input, as a usage error)."""

    exit_code = 2


def _load(path: Path) -> "Report":
    from ..conform.saved import Report, ReportError

    try:
        return Report.load(path)
    except ReportError as exc:
        raise BadReport(str(exc)) from None


@click.group()
def report() -> None:
    """Read saved conformance reports (`president conform --json FILE`): show, table, diff.

    Exit codes: 0 success, 1 `diff` found a new deviation, 2 a file that is not a report this
    president reads (no such file, not a regular file, over 16 MB, not JSON, nested too deeply,
    another report_version, a message reference that names no text, against the schema, counts
    that disagree). Every text of a report is shown inert: a control or bidi character as an escape.
    """


@report.command()
@click.argument("path", type=REPORT)
@click.option("-v", "--verbose", is_flag=True, help="List every clause, also those without scenarios.")
def show(path: Path, verbose: bool) -> None:
    """Print a saved run's text report.

    The same text as `president conform` printed (in English)."""
    saved = _load(path)
    for fault in saved.protocol_faults:
        click.echo(f"protocol fault: {fault}", err=True)
    click.echo(saved.text(verbose))


@report.command()
@click.argument("paths", type=REPORT, nargs=-1, required=True)
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the table as a page: each engine's root causes, a legend, the evidence.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the table as JSON.")
def table(paths: tuple[Path, ...], html_path: Path | None, json_path: Path | None) -> None:
    """Build the clause x engine table from saved runs.

    One column per report, in the order given; the runs must be of one spec."""
    from ..conform import table as page
    from ..conform.saved import ReportError

    check_output(html_path, "--html")
    check_output(json_path, "--json")
    try:
        built = page.build([_load(p) for p in paths])
    except ReportError as exc:
        raise BadReport(str(exc)) from None
    click.echo(page.text(built))
    try:
        write_outputs({"--json": (json_path, json.dumps(built, indent=2, ensure_ascii=False) + "\n" if json_path else ""),
                       "--html": (html_path, page.html(built) if html_path else "")})
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None


@report.command()
@click.argument("old", type=REPORT)
@click.argument("new", type=REPORT)
def diff(old: Path, new: Path) -> None:
    """List deviations new, gone or changed (exit 1: a new one).

    Compares OLD and NEW, two saved runs of one engine.

    Deviations are matched by clause and by what differs, not by their place in the list.
    Exit 1 when a deviation (or a scenario or lock-step error) is new, 0 otherwise, 2 on a bad file.
    """
    from ..conform.diff import NEW, diff as compare, stop_warnings, summary

    before, after = _load(old), _load(new)
    old_name, new_name = inert(str(old), strict=True), inert(str(new), strict=True)
    if before.engine_name != after.engine_name:
        click.echo(f"warning: {old_name} is a run of {before.engine_name}, {new_name} of {after.engine_name}", err=True)
    if before.spec_version != after.spec_version:
        click.echo(f"warning: {old_name} is of spec {before.spec_version}, {new_name} of spec {after.spec_version}",
                   err=True)
    changes = compare(before, after)
    click.echo(f"{old_name}: {len(before.deviations)} deviation(s); {new_name}: {len(after.deviations)} deviation(s)")
    for change in changes:
        click.echo(change.line())
    click.echo(summary(changes) if changes else "no deviation new, gone or changed")
    for warning in stop_warnings(before, after, (str(old), str(new))):  # a stopped run was compared in part
        click.echo(warning, err=True)
    if any(c.kind == NEW for c in changes):
        raise SystemExit(1)
