"""`president conform`: check an engine against the spec's scenarios and in lock-step games."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .errors import PresidentError


def conform_run(engine: str | None = None, games: int = 200, seed: int = 0, patterns: tuple[str, ...] = (),
                timeout: float = 5.0, spec_path: Path | None = None, in_process: bool = False,
                lang: str = "en", shrink: float = 8.0) -> "Run":
    """Run the scenarios (and `games` lock-step games) against `engine`; diagnose; return the run."""
    from .conform.client import InProcessClient, open_client
    from .conform.lockstep import run_lockstep
    from .conform.report import Run
    from .conform.runner import handshake, run_scenarios
    from .conform.verdict import diagnose_run, protocol_notes
    from .engine import Ruleset
    from .spec import default_spec, load_spec

    spec = load_spec(spec_path) if spec_path else default_spec()
    client = InProcessClient() if in_process else open_client(engine, timeout)
    try:
        hello = handshake(client)
        options = hello.get("options") or {}
        ai_run = bool(options.get("ai"))
        if lang == "en":
            results = run_scenarios(client, spec, patterns, options, ai=ai_run)
        else:  # the scenarios as read back from features/<lang>/ (president.i18n.report)
            from .i18n.report import run_localized
            from .conform.runner import is_ai_result
            results = [r for r in run_localized(client, spec, lang, patterns, options) if ai_run or not is_ai_result(r)]
        declared = {k for k, v in options.items() if k not in ("players", "deals", "seed", "ai")}
        lock = run_lockstep(spec, client, games, seed, options=options, declared=declared) if games > 0 else None
        deviations = diagnose_run(results, lock, options, Ruleset.from_spec(spec), client, shrink)
    finally:
        client.close()
    return Run(spec, results, lock, hello, getattr(client, "label", engine or "reference"), deviations,
               protocol_notes(results, lock), ai_run)


@click.command()
@click.option("--engine", "engine", metavar="CMD", help="Engine command speaking protocol v1 (default: the reference).")
@click.option("--games", default=200, show_default=True, help="Random lock-step games; 0 runs the scenarios alone.")
@click.option("--seed", default=0, show_default=True, help="Seed of the lock-step games.")
@click.option("-k", "patterns", multiple=True, metavar="PATTERN",
              help="Only scenarios whose id (clause-id/slug) contains or glob-matches PATTERN; repeatable.")
@click.option("--timeout", default=5.0, show_default=True, help="Seconds to wait for each reply.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON report.")
@click.option("--cucumber-json", type=click.Path(dir_okay=False, path_type=Path), help="Write a Cucumber JSON report.")
@click.option("--lang", type=click.Choice(["en", "ar", "el", "ru", "hy", "hi"]), default="en", show_default=True,
              help="Run the scenarios of features/<LANG>/ and write the text report in LANG (JSON keys stay English).")
@click.option("--report-lang", default="en", show_default=True, help="Language of the --html rule sheet.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the rule sheet with each line marked pass or fail.")
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False, path_type=Path), help="Spec file.")
@click.option("--shrink", default=8.0, show_default=True, metavar="SECONDS",
              help="Time budget to shrink each deviation to a minimal scenario; 0 turns shrinking off.")
@click.option("-v", "--verbose", is_flag=True, help="List every clause, also those without scenarios.")
def conform(engine: str | None, games: int, seed: int, patterns: tuple[str, ...], timeout: float, junit: Path | None,
            json_path: Path | None, cucumber_json: Path | None, report_lang: str, html_path: Path | None,
            spec_path: Path | None, verbose: bool, lang: str, shrink: float) -> None:
    """Check an engine against every scenario of the spec, then in lock-step with the reference.

    Exit 0 only when nothing failed and nothing errored. See docs/conformance.md.
    """
    from .conform import report
    from .conform.runner import HandshakeError

    try:
        run = conform_run(engine, games, seed, patterns, timeout, spec_path, lang=lang, shrink=shrink)
    except HandshakeError as exc:
        raise click.ClickException(f"handshake failed: {exc}") from None
    except PresidentError as exc:
        raise click.ClickException(str(exc)) from None
    if lang == "en":
        click.echo(report.summary_text(run, verbose))
    else:
        from .i18n.report import localized_summary
        click.echo(localized_summary(run.spec, run.results, run.lock, run.engine, lang, verbose))
    data = report.json_report(run)
    if json_path:
        json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if junit:
        junit.write_text(report.junit_xml(run), encoding="utf-8")
    if cucumber_json:
        cucumber_json.write_text(json.dumps(report.cucumber_json(run.spec, run.results), indent=2) + "\n",
                                 encoding="utf-8")
    if html_path:
        html_path.write_text(report.annotated_sheet_html(run, report_lang, *_sheet(run.spec, report_lang)),
                             encoding="utf-8")
    if run.failing:
        raise SystemExit(1)


def _sheet(spec, lang: str) -> tuple[list | None, str]:
    """The rendered rule sheet's lines in `lang` and its direction (clause titles if it cannot be rendered)."""
    try:
        from .i18n.render import render_lines, text_direction
    except ImportError:  # pragma: no cover - the renderer ships with the package
        return None, "ltr"
    try:
        return render_lines(spec, lang), text_direction(lang)
    except Exception:  # noqa: BLE001 - a missing catalog: the clause titles, left to right
        return None, "ltr"
