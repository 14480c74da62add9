"""`president conform --lang L`: the scenarios of language L run against an engine, reported in L.

The scenarios are read back from the language's feature text (`localized_scenarios`), so what
runs is what a reader of features/<lang>/ sees. The text report takes clause titles, scenario
titles, step phrases and outcome words from the `steps` catalog; engine messages stay as
the engine writes them. Machine-readable reports (--json,
--junit, --cucumber-json) keep English keys and the English scenario ids.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from ..spec import Spec
from ..i18n.features import localized_scenarios
from ..i18n.steps_catalog import StepLanguage, fill_names, step_language
from .runner import Outcome


def run_localized(client: Any, spec: Spec, lang: str, patterns: Iterable[str] = (),
                  options: dict[str, Any] | None = None, root: Path | None = None) -> list:
    """Like `president.conform.runner.run_scenarios`, with the scenarios of `lang`."""
    from .runner import run_scenario, select
    return [run_scenario(client, sc, options, spec=spec) for sc in select(localized_scenarios(spec, lang, root), patterns)]


def _step_text(steps: StepLanguage, sc: Any, result: Any) -> str:
    """The phrase (in the report's language) of the step where a scenario stopped."""
    for i, (_kind, _text, status) in enumerate(result.steps):
        if status == "failed" and sc is not None and i < len(sc.ops):
            return steps.render(sc.ops[i].key, sc.ops[i].kwargs)
    return result.step


def _scenario(spec: Spec, scenarios: dict[str, Any], sid: str) -> Any:
    """The scenario of a result id, moved to its table size for an id like `clause/slug@5p`."""
    base, _, size = sid.partition("@")
    sc = scenarios.get(base)
    if sc is None or not size:
        return sc
    from ..scenarios.sizes import sized
    return sized(spec, sc, int(size.rstrip("p"))).scenario


def localized_summary(spec: Spec, results: list, lock: Any, engine: str, lang: str, verbose: bool = False,
                      root: Path | None = None) -> str:
    from .runner import clause_outcomes, totals

    steps = step_language(root, lang)
    t = lambda ctx, msgid, **kw: fill_names(steps.text(ctx, msgid), **kw)  # noqa: E731
    word = lambda outcome: steps.text("outcome", outcome)  # noqa: E731
    iso = steps.isolate
    scenarios = {s.id: s for s in localized_scenarios(spec, lang, root)}
    out = [t("report", "Conformance of {engine} to {spec} {version}", engine=engine, spec=spec.id,
             version=spec.version)]
    for r in results:
        if r.outcome == Outcome.BLOCKED:  # never a deviation of its own clause: the root cause is named
            out.append(f"{word(r.outcome).upper()} {iso(r.id)} → {iso(r.blocked_by)}")
        if r.outcome in (Outcome.FAIL, Outcome.ERROR, Outcome.TOOLKIT):
            sc = _scenario(spec, scenarios, r.id)
            out.append(f"{word(r.outcome).upper()} {iso(r.id)} — {sc.name if sc else r.name}")
            out.append(f"  {_step_text(steps, sc, r)}")
            out.append(f"  {r.message}")
            if r.details:
                out.append("\n".join("  " + line for line in r.details.splitlines()))
    by_clause = clause_outcomes(spec, results)
    width = max(len(c) for c in by_clause) + 2
    out += ["", f"{t('report', 'clause'):<{width}}{t('report', 'scenario')}"]
    for clause in spec.clauses:
        mine = [r for r in results if r.clause == clause.id]
        if not mine and not verbose:
            continue
        ok = sum(r.outcome == Outcome.PASS for r in mine)
        by = sorted({r.blocked_by for r in mine if r.blocked_by}) if by_clause[clause.id] == "blocked" else []
        out.append(f"{iso(clause.id):<{width}}{word(by_clause[clause.id])} {iso(f'{ok}/{len(mine)}')}"
                   + (f" → {iso(', '.join(by))}" if by else "") + f" — {steps.clause_title(clause)}")
        reasons = sorted({x for r in mine for x in r.reasons})
        if reasons:
            out.append("  " + t("report", "engine refusals: {reasons}", reasons=iso(", ".join(reasons))))
    for r in results:
        if r.outcome == Outcome.SKIP:
            out.append(f"{word('skip')} {iso(r.id)}: {r.message}")
    total = totals(results)
    counts = {o: sum(v == o for v in by_clause.values()) for o in ("pass", "fail", "error", "skip", "none")}
    out += ["", t("report", "{passed} passed, {failed} failed, {errors} errors, {skipped} skipped", **total),
            t("report", "clauses: {passed} pass, {failed} fail, {errors} error, {skipped} skip, {none} without scenarios",
              passed=counts["pass"], failed=counts["fail"], errors=counts["error"], skipped=counts["skip"],
              none=counts["none"])]
    if lock is not None:
        out.append(t("report", "lock-step: {games} games, {steps} steps, {failed} divergent, {errors} errors",
                     games=lock.games, steps=lock.steps, failed=lock.failed, errors=lock.errors))
    return "\n".join(out)
