"""`president conform`: check an engine against the spec's scenarios and in lock-step games."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from .util import ProgressLine, Seconds, check_output, echo, write_output
from ..errors import PresidentError

if TYPE_CHECKING:
    from ..conform.report import Run


LANGS = ("en", "ar", "el", "ru", "hy", "hi")
Progress = Callable[[str, int, int], None]


def report_langs() -> tuple[str, ...]:
    """The languages a rule sheet can be written in: president.i18n's, and its pseudo-locales."""
    from ..i18n import catalogs
    pseudo = (catalogs.PSEUDO_LANG, *getattr(catalogs, "PSEUDO_LOCALES", {}))
    return tuple(dict.fromkeys((*catalogs.LANGS, *pseudo)))


def _quiet(what: str, done: int, total: int) -> None:
    pass


class NoScenario(PresidentError):
    """-k matched no scenario: a typo must not give a green run."""

    def __init__(self, patterns: tuple[str, ...], scenarios: list):
        example = scenarios[0].id if scenarios else "clause-id/slug"
        super().__init__(f"no scenario matches -k {' -k '.join(patterns)} (ids look like {example}; "
                         "a pattern matches a part of the id or globs it, e.g. -k 'play.*')")


def clause_titles(lang: str) -> Callable[[str], str]:
    """A clause title in `lang` (the `steps` catalog translates them; English is the spec's own)."""
    if lang == "en":
        return lambda title: title
    from ..i18n.steps_catalog import step_language
    try:
        steps = step_language(None, lang)
    except Exception:  # noqa: BLE001 - a pseudo-locale or a missing catalog: the spec's own titles
        return lambda title: title
    return lambda title: steps.text("clause", title)


def _retitled(run: "Run", lang: str) -> "Run":
    """The run with its deviations titled in `lang` (the --html sheet's language)."""
    translate = clause_titles(lang)
    titles = {c.id: translate(c.title) for c in run.spec.clauses}
    for d in run.deviations:
        d.title = titles.get(d.clause, d.title)
    return run


def conform_run(engine: str | None = None, games: int = 200, seed: int = 0, patterns: tuple[str, ...] = (),
                timeout: float = 5.0, spec_path: Path | None = None, in_process: bool = False,
                lang: str = "en", shrink: float = 8.0, hung_after: int = 3, budget: float | None = None,
                progress: Progress = _quiet, jobs: int = 1) -> "Run":
    """Run the scenarios (and `games` lock-step games) against `engine`; diagnose; return the run.

    `jobs` > 1 runs scenarios and lock-step games over that many engine processes (the results do
    not depend on it). A -k that matches no scenario raises NoScenario before the engine starts."""
    from ..protocol.client import Client, InProcessClient, open_client
    from ..conform.lockstep import run_lockstep
    from ..conform.report import Run
    from ..conform.runner import handshake, is_ai, run_scenario, select
    from ..conform.verdict import diagnose_fit, protocol_notes
    from ..conform.diagnose import SchemaSampler
    from ..conform.jobs import run_parallel
    from ..game.engine import Ruleset
    from ..scenarios.model import build_scenarios
    from ..spec import default_spec, load_spec

    spec = load_spec(spec_path) if spec_path else default_spec()
    if patterns and not select(build_scenarios(spec), patterns):
        raise NoScenario(patterns, build_scenarios(spec))
    def factory() -> Client:
        return InProcessClient() if in_process else open_client(engine, timeout, hung_after, budget)

    client = factory()
    try:
        hello = handshake(client)
        options = hello.get("options") or {}
        ai_run = bool(options.get("ai"))
        if lang == "en":
            validate = SchemaSampler()
            chosen = [sc for sc in select(build_scenarios(spec), patterns) if ai_run or not is_ai(sc)]
            results = run_parallel(chosen, lambda engine, sc: run_scenario(engine, sc, options, validate, spec), client,
                                   jobs, factory, lambda n: progress("scenarios", n, len(chosen)))
        else:  # the scenarios as read back from features/<lang>/ (president.conform.localized)
            from ..conform.localized import run_localized
            from ..conform.runner import is_ai_result
            results = [r for r in run_localized(client, spec, lang, patterns, options) if ai_run or not is_ai_result(r)]
        declared = {k for k, v in options.items() if k not in ("players", "deals", "seed", "ai")}
        lock = run_lockstep(spec, client, games, seed, options=options, declared=declared,
                            progress=lambda g: progress("lock-step games", g, games), jobs=jobs,
                            factory=factory) if games > 0 else None
        progress("diagnosis", 0, 0)
        deviations, fitted = diagnose_fit(results, lock, options, Ruleset.from_spec(spec), client, shrink,
                                          clause_titles(lang))
    finally:
        client.close()
    run = Run(spec, results, lock, hello, getattr(client, "label", engine or "reference"), deviations,
              protocol_notes(results, lock), ai_run, fitted)
    run.faults = client.fault_report() if hasattr(client, "fault_report") else []  # type: ignore[attr-defined]
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
@click.option("-v", "--verbose", is_flag=True, help="List every clause, also those without scenarios.")
def conform(engines: tuple[str, ...], games: int, seed: int, patterns: tuple[str, ...], timeout: float, hung_after: int,
            budget: float | None, junit: Path | None, json_path: Path | None, cucumber_json: Path | None,
            report_lang: str, html_path: Path | None, spec_path: Path | None, verbose: bool, lang: str,
            shrink: float, jobs: int) -> None:
    """Check an engine against every scenario of the spec, then in lock-step with the reference.

    Exit 0 only when nothing failed and nothing errored, 1 when something did or the run had to
    stop (engine hung, --budget spent), 2 on a usage error. See docs/conformance.md.
    """
    from ..conform import report

    if shrink != shrink:  # nan
        raise click.BadParameter("'nan' is not a number of seconds", param_hint="--shrink")
    outputs = {"--junit": junit, "--json": json_path, "--cucumber-json": cucumber_json, "--html": html_path}
    for option, path in outputs.items():
        check_output(path, option)
    if len(engines) > 1:
        if junit or cucumber_json:
            raise click.UsageError("--junit and --cucumber-json report one engine; with several --engine, "
                                   "use --json and --html (one clause x engine table)")
        _side_by_side(engines, json_path, html_path, games=games, seed=seed, patterns=patterns, timeout=timeout,
                      spec_path=spec_path, lang=lang, shrink=shrink, hung_after=hung_after, budget=budget, jobs=jobs)
        return
    run = _run_or_exit(engines[0] if engines else None, games=games, seed=seed, patterns=patterns, timeout=timeout,
                       spec_path=spec_path, lang=lang, shrink=shrink, hung_after=hung_after, budget=budget, jobs=jobs)
    faults = getattr(run, "faults", [])
    for fault in faults:
        echo(f"protocol fault: {fault}", err=True)
    if lang == "en":
        echo(report.summary_text(run, verbose))
    else:
        from ..conform.localized import localized_summary
        echo(localized_summary(run.spec, run.results, run.lock, run.engine, lang, verbose))
        if run.deviations or run.fit is not None:  # clause titles in LANG, the rest in English (ids, options, Gherkin)
            echo("\n".join([""] + report.first_screen(run)[1:-1] + [""] + report.deviation_lines(run)))
    data = report.json_report(run)
    data["protocol_faults"] = list(faults)
    texts = {
        "--json": lambda: json.dumps(data, indent=2, ensure_ascii=False) + "\n",
        "--junit": lambda: report.junit_xml(run),
        "--cucumber-json": lambda: json.dumps(report.cucumber_json(run.spec, run.results), indent=2) + "\n",
        "--html": lambda: report.annotated_sheet_html(_retitled(run, report_lang), report_lang,
                                                      *_sheet(run.spec, report_lang)),
    }
    try:
        for option, path in outputs.items():
            if path is not None:
                write_output(path, texts[option](), option)
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    if run.failing or faults:
        raise SystemExit(1)


def _run_or_exit(engine: str | None, name: str = "the engine", **kwargs) -> "Run":
    """`conform_run`, its failures turned into one-line click errors (`name` says which engine)."""
    from ..protocol.client import EngineStartError
    from ..conform.runner import HandshakeError

    bar = ProgressLine()
    try:
        return conform_run(engine, progress=bar.update, **kwargs)
    except NoScenario as exc:
        raise click.UsageError(str(exc)) from None
    except EngineStartError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    except HandshakeError as exc:
        raise click.ClickException(f"handshake with {name} failed: {exc} (see docs/protocol.md, hello)") from None
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        bar.clear()


def _side_by_side(engines: tuple[str, ...], json_path: Path | None, html_path: Path | None, **kwargs) -> None:
    """Several engines: each one's first screen, then one clause x engine table (text, --json, --html)."""
    from ..conform import report
    from ..conform.matrix import matrix, matrix_html, matrix_text

    runs = [_run_or_exit(engine, engine, **kwargs) for engine in engines]
    for run in runs:
        echo("\n".join(report.first_screen(run)) + "\n")
    table = matrix(runs)
    echo(matrix_text(table))
    try:
        if json_path is not None:
            write_output(json_path, json.dumps(table, indent=2, ensure_ascii=False) + "\n", "--json")
        if html_path is not None:
            write_output(html_path, matrix_html(table), "--html")
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    if any(run.failing for run in runs):
        raise SystemExit(1)


def _sheet(spec, lang: str) -> tuple[list | None, str]:
    """The rendered rule sheet's lines in `lang` and its direction (clause titles if it cannot be rendered)."""
    try:
        from ..i18n.render import render_lines, text_direction
    except ImportError:  # pragma: no cover - the renderer ships with the package
        return None, "ltr"
    try:
        return render_lines(spec, lang), text_direction(lang)
    except Exception:  # noqa: BLE001 - a missing catalog: the clause titles, left to right
        return None, "ltr"
