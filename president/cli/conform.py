"""`president conform`: check an engine against the spec's scenarios and in lock-step games."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .util import (ProgressLine, Seconds, bounded_line, check_outputs, echo, project_here, run_inputs, write_output,
                   write_outputs)
from ..errors import PresidentError

if TYPE_CHECKING:
    from ..conform.report import Run

from ..resources import LANGS



def report_langs() -> tuple[str, ...]:
    """The languages a rule sheet can be written in: president.i18n's, and its pseudo-locales."""
    from ..i18n import catalogs
    pseudo = (catalogs.PSEUDO_LANG, *getattr(catalogs, "PSEUDO_LOCALES", {}))
    return tuple(dict.fromkeys((*catalogs.LANGS, *pseudo)))


def _retitled(run: "Run", lang: str, root: Path) -> "Run":
    """The run with its deviations titled in `lang` (the --html sheet's language)."""
    from ..conform.api import clause_titles
    translate = clause_titles(lang, root)
    titles = {c.id: translate(c) for c in run.spec.clauses}
    for d in run.deviations:
        d.title = titles.get(d.clause, d.title)
    return run


@click.command()
@click.option("--engine", "engines", metavar="CMD", multiple=True,
              help="Engine command speaking protocol v1 (default: the reference). Repeat it to compare several "
                   "engines: --json and --html then write one clause x engine table.")
@click.option("--games", "-n", type=click.IntRange(min=0), default=200, show_default=True,
              help="Random lock-step games; 0 runs the scenarios alone.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the lock-step games.")
@click.option("-k", "patterns", multiple=True, metavar="PATTERN",
              help="Only scenarios whose id (clause-id/slug) contains or glob-matches PATTERN; repeatable. "
                   "A pattern that matches nothing is an error.")
@click.option("--timeout", type=Seconds(3600), default=5.0, show_default=True, help="Seconds to wait for each reply.")
@click.option("--hung-after", type=click.IntRange(min=1), default=3, show_default=True,
              help="Declare the engine hung and stop after this many requests in a row left without a reply "
                   "(a timeout, or the engine closing its output).")
@click.option("--budget", type=Seconds(), default=None, help="Stop the whole run after this many seconds.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE", help="Write a JUnit XML report.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write a JSON report.")
@click.option("--cucumber-json", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write a Cucumber JSON report.")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Run the scenarios of features/<LANG>/ and write the text report in LANG (JSON keys stay English).")
@click.option("--report-lang", type=click.Choice(report_langs()), default="en", show_default=True,
              help="Language of the --html rule sheet.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the rule sheet with each line marked pass or fail.")
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE", help="Spec file.")
@click.option("--shrink", type=click.FloatRange(min=0, max=3600), default=8.0, show_default=True, metavar="SECONDS",
              help="Time budget to shrink each deviation to a minimal scenario; 0 turns shrinking off.")
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="Run scenarios and lock-step games over N engine processes (same results as 1).")
@click.option("--cluster", metavar="ADDRESS",
              help="Run scenarios and lock-step games on this Dask distributed scheduler (e.g. tcp://host:8786); "
                   "same results as --jobs 1. The --engine command must run on every worker (docs/conformance.md).")
@click.option("--connect-timeout", type=Seconds(3600), default=10.0, show_default=True,
              help="With --cluster: seconds to reach the scheduler before giving up.")
@click.option("-v", "--verbose", is_flag=True, help="List every clause, also those without scenarios.")
def conform(engines: tuple[str, ...], games: int, seed: int, patterns: tuple[str, ...], timeout: float, hung_after: int,
            budget: float | None, junit: Path | None, json_path: Path | None, cucumber_json: Path | None,
            report_lang: str, html_path: Path | None, spec_path: Path | None, verbose: bool, lang: str,
            shrink: float, jobs: int, cluster: str | None, connect_timeout: float) -> None:
    """Check an engine against every scenario of the spec, then in lock-step with the reference.

    Exit codes: 0 the engine conforms (nothing failed, was blocked or errored); 1 it does not, or
    the run had to stop (an engine error: hung, crashing, breaking the protocol, a failed hello,
    --budget spent; every report is still written, with what was learnt before the stop and the
    stop itself); 2 usage error (also an engine command that cannot be started); 3 the toolkit failed, not
    your engine (a bug of president inside a scenario, a game or the diagnosis: that item was
    skipped, every report was still written, each error and its trace saved in
    <report>.toolkit-errors/). See docs/conformance.md.
    """
    from ..conform import report
    from ..conform.api import sheet_lines
    if shrink != shrink:  # nan
        raise click.BadParameter("'nan' is not a number of seconds", param_hint="--shrink")
    outputs = {"--junit": junit, "--json": json_path, "--cucumber-json": cucumber_json, "--html": html_path}
    check_outputs(outputs, run_inputs(spec_path, engines))
    if len(engines) > 1:
        if junit or cucumber_json:
            raise click.UsageError("--junit and --cucumber-json report one engine; with several --engine, "
                                   "use --json and --html (one clause x engine table)")
        _side_by_side(engines, json_path, html_path, games=games, seed=seed, patterns=patterns, timeout=timeout,
                      spec_path=spec_path, lang=lang, shrink=shrink, hung_after=hung_after, budget=budget, jobs=jobs,
                      cluster=cluster, connect_timeout=connect_timeout)
        return
    root = project_here()  # the project around the current folder (or the packaged copies)
    run = _run_or_exit(engines[0] if engines else None, games=games, seed=seed, patterns=patterns, timeout=timeout,
                       spec_path=spec_path, lang=lang, shrink=shrink, hung_after=hung_after, budget=budget, jobs=jobs,
                       cluster=cluster, connect_timeout=connect_timeout, root=root)
    for fault in run.faults:
        echo(f"protocol fault: {fault}", err=True)
    texts = {
        "--junit": lambda: report.junit_xml(run),
        "--cucumber-json": lambda: json.dumps(report.cucumber_json(run.spec, run.results), indent=2) + "\n",
        "--html": lambda: report.annotated_sheet_html(_retitled(run, report_lang, root), report_lang,
                                                      *sheet_lines(run.spec, report_lang, root)),
    }
    rendered = {option: _render(run, option, render) for option, render in texts.items() if outputs[option] is not None}
    text = _render(run, "text", lambda: _text(run, lang, verbose, root))
    saved = _save_toolkit_errors(run, [p for p in (json_path, junit, cucumber_json, html_path) if p is not None])
    if json_path is not None:  # rendered last: it counts every toolkit error, the other reports' included
        rendered["--json"] = _render(run, "--json", lambda: _json_text(run, saved))
    if text is not None:
        echo(text if lang == "en" else "\n".join([text, *report.toolkit_lines(run)]))
    try:  # every report or none: a full disk leaves the earlier ones as they were
        write_outputs({option: (path, body) for option, path in outputs.items()
                       if path is not None and (body := rendered.get(option)) is not None})
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    if saved:
        echo(f"toolkit errors: each one's traceback and trace saved in {saved[0].parent}", err=True)
    _say_stop(run)
    if run.exit_code:
        raise SystemExit(run.exit_code)


def _say_stop(run: "Run", name: str = "the engine") -> None:
    """A stopped run's one error line on stderr (its reports, written already, say the rest)."""
    stop = run.stopped
    if stop is None:
        return
    if stop.kind == "handshake":
        echo(bounded_line(f"Error: handshake with {name} failed: {stop.one_line()} (see docs/protocol.md, hello)"),
             err=True)
    else:
        echo(bounded_line(f"Error: {stop.one_line()}"), err=True)


def _json_text(run: "Run", saved: list[Path]) -> str:
    """The --json report, each toolkit error with the file that keeps its trace."""
    from ..conform import report

    data = report.json_report(run)
    for entry, file in zip(data["toolkit_errors"], saved):
        entry["file"] = str(file)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _text(run: "Run", lang: str, verbose: bool, root: Path) -> str:
    """The text report, in `lang`."""
    from ..conform import report

    if lang == "en":
        return report.summary_text(run, verbose)
    from ..conform.localized import localized_summary
    out = localized_summary(run.spec, run.results, run.lock, run.engine, lang, verbose, root)
    if run.deviations or run.fit is not None:  # clause titles in LANG, the rest in English (ids, options, Gherkin)
        followed = [report.followed_line(run.lock)] if run.lock is not None else []
        out += "\n".join([""] + report.cause_lines(run) + followed + [""] + report.deviation_lines(run))
    return out


def _render(run: "Run", what: str, render: Any) -> str | None:
    """A report rendered; a bug of the toolkit there costs that report alone (a toolkit error)."""
    from ..conform.toolkit import guard

    with guard("report", what, run.toolkit_errors) as caught:
        return render()
    if os.environ.get("PRESIDENT_DEBUG") and caught.error is not None:
        echo(caught.error.traceback, err=True)
    return None


def _save_toolkit_errors(run: "Run", reports: list[Path]) -> list[Path]:
    """Each toolkit error (traceback and the item's request/reply trace, replayable) as
    `<report>.toolkit-errors/N.json` beside the first report file asked for (--json first)."""
    if not run.toolkit_errors:
        return []
    if not reports or str(reports[0]) == "-" or not Path(reports[0]).parent.is_dir():
        echo("toolkit errors: give --json FILE to keep their tracebacks and traces", err=True)
        return []
    folder = Path(f"{reports[0]}.toolkit-errors")
    try:
        folder.mkdir(exist_ok=True)
        files = []
        for n, error in enumerate(run.toolkit_errors, 1):
            files.append(folder / f"{n}.json")
            write_output(files[-1], json.dumps(error.to_json(), indent=1, ensure_ascii=False, default=repr) + "\n",
                         "toolkit error")
    except (OSError, PresidentError) as exc:
        echo(f"toolkit errors: cannot save them in {folder}: {exc}", err=True)
        return []
    return files


def _run_or_exit(engine: str | None, name: str = "the engine", spec_path: Path | None = None, **kwargs) -> "Run":
    """`president.conform.run`, its failures turned into one-line click errors (`name` says which
    engine); a bug of the toolkit outside any item exits 3 (the toolkit failed, not the engine)."""
    from ..protocol.client import EngineStartError
    from ..conform.api import NoScenario, run
    from ..resources import default_spec_path

    bar = ProgressLine()
    try:
        return run(engine, spec=spec_path or default_spec_path(project_here()), progress=bar.update, **kwargs)
    except NoScenario as exc:
        raise click.UsageError(str(exc)) from None
    except EngineStartError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    except Exception as exc:  # a bug of president outside any item: no verdict on the engine
        if os.environ.get("PRESIDENT_DEBUG"):
            raise
        bar.clear()
        echo(f"Error: internal error (the toolkit failed, not your engine): {type(exc).__name__}: {exc} "
                   "(please report it; PRESIDENT_DEBUG=1 shows the traceback)", err=True)
        raise SystemExit(3) from None
    finally:
        bar.clear()


def _side_by_side(engines: tuple[str, ...], json_path: Path | None, html_path: Path | None, **kwargs) -> None:
    """Several engines: each one's first screen, then one clause x engine table (text, --json, --html)."""
    from ..conform.matrix import matrix, matrix_html, matrix_text
    runs = [_run_or_exit(engine, engine, root=project_here(), **kwargs) for engine in engines]
    for engine, run in zip(engines, runs):
        echo(run.summary() + "\n")
        _say_stop(run, engine)
    table = matrix(runs)
    echo(matrix_text(table))
    try:
        write_outputs({"--json": (json_path, json.dumps(table, indent=2, ensure_ascii=False) + "\n" if json_path else ""),
                       "--html": (html_path, matrix_html(table) if html_path else "")})
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    code = max(run.exit_code for run in runs)
    if code:
        raise SystemExit(code)
