"""The conformance run as a library call: `president.conform.run(engine, ...) -> Run`.

    import president.conform
    run = president.conform.run(["node", "engine.js"], games=50)
    assert run.ok, run.summary()

`run` plays the spec's scenarios and `games` random lock-step games against the engine, fits its
variant, diagnoses one deviation per root cause and shrinks each to a minimal scenario. It reads no
file of the current folder: the spec (a `Spec`, or a path) and the project root (where
`features/<lang>/` and the catalogs live, for `lang` other than English) come in as arguments,
the packaged copies otherwise. `president conform` calls it and adds the parsing and the printing.

A bug of the toolkit inside one item (a scenario; a lock-step game, a fit candidate or a shrink
where those guard themselves) costs that item only; one outside any item (the lock-step phase or
the diagnosis as a whole) costs that phase: the run still returns, with the error in
`Run.toolkit_errors` (exit code 3 for the command line).
"""
from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ..errors import PresidentError
from ..spec import Spec, load_spec
from .report import Run
from .runner import HandshakeError
from .stopped import DIAGNOSIS_AFTER_STOP, Stop
from .toolkit import ToolkitError, guard

Progress = Callable[[str, int, int], None]
Engine = str | Sequence[str] | None

__all__ = ["NoScenario", "Run", "ToolkitError", "clause_titles", "run", "sheet_lines"]


def _quiet(what: str, done: int, total: int) -> None:
    pass


class NoScenario(PresidentError):
    """The patterns (`-k`) matched no scenario: a typo must not give a green run."""

    def __init__(self, patterns: tuple[str, ...], scenarios: list):
        example = scenarios[0].id if scenarios else "clause-id/slug"
        super().__init__(f"no scenario matches -k {' -k '.join(patterns)} (ids look like {example}; "
                         "a pattern matches a part of the id or globs it, e.g. -k 'play.*')")


def clause_titles(lang: str, root: Path | None = None) -> Callable[[Any], str]:
    """The title of a spec clause in `lang` (the `steps` catalog under `root` translates them, from the
    spec's numbers; English is the spec's own)."""
    if lang == "en":
        return lambda clause: clause.title
    from ..i18n.steps_catalog import step_language
    from ..resources import packaged_root
    try:
        steps = step_language(root or packaged_root(), lang)
    except Exception:  # noqa: BLE001 - a pseudo-locale or a missing catalog: the spec's own titles
        return lambda clause: clause.title
    return steps.clause_title


def sheet_lines(spec: Spec, lang: str, root: Path | None = None) -> tuple[list | None, str]:
    """The rendered rule sheet's lines in `lang` and its direction (None: clause titles, when it
    cannot be rendered), for `report.annotated_sheet_html`."""
    from ..resources import packaged_root
    try:
        from ..i18n.render import render_lines, text_direction
    except ImportError:  # pragma: no cover - the renderer ships with the package
        return None, "ltr"
    try:
        return render_lines(spec, lang, root or packaged_root()), text_direction(lang)
    except Exception:  # noqa: BLE001 - a missing catalog: the clause titles, left to right
        return None, "ltr"


def _spec(spec: Spec | str | Path | None) -> Spec:
    if isinstance(spec, Spec):
        return spec
    if spec is None:
        from ..resources import packaged_root
        spec = packaged_root() / "spec" / "president.yaml"
    return load_spec(spec)


class _Offline:
    """The engine as the diagnosis sees it once the run has stopped: no request is sent (no
    shrinking), and the fit has `DIAGNOSIS_AFTER_STOP` seconds of its own."""

    label = "stopped"

    def __init__(self) -> None:
        self.deadline = time.monotonic() + DIAGNOSIS_AFTER_STOP


def _diagnose(results: list, lock: Any, options: dict, rules: Any, client: Any, shrink: float,
              titles: Callable[[str], str], errors: list[ToolkitError],
              stop: Stop | None) -> tuple[Any, Any, Stop | None]:
    """Deviations and the fitted variant; after a stop (or once the budget runs out in here), from
    what was learnt, without the engine. Returns them with the stop, if any."""
    from ..protocol.client import RunStopped
    from .verdict import diagnose_fit

    if stop is None:
        try:
            with guard("diagnosis", "fit, deviations and shrinking", errors):
                deviations, fitted = diagnose_fit(results, lock, options, rules, client, shrink, titles)
                return deviations, fitted, None
            return None, None, None  # a toolkit error cost the diagnosis
        except RunStopped as exc:  # the budget ran out while diagnosing: diagnosed again, offline
            stop = Stop.of(exc, "diagnosis")
    try:
        with guard("diagnosis", "fit and deviations of what was learnt before the stop", errors):
            deviations, fitted = diagnose_fit(results, lock, options, rules, _Offline(), 0, titles)  # type: ignore[arg-type]
            return deviations, fitted, stop
    except RunStopped:  # even that took too long: the verdicts of the scenarios and games alone
        pass
    return None, None, stop


def run(engine: Engine = None, *, spec: Spec | str | Path | None = None, games: int = 200, seed: int = 0,
        jobs: int = 1, budget: float | None = None, patterns: Sequence[str] = (), timeout: float = 5.0,
        hung_after: int = 3, shrink: float = 8.0, lang: str = "en", root: Path | None = None,
        in_process: bool = False, progress: Progress = _quiet, cluster: str | None = None,
        connect_timeout: float = 10.0) -> Run:
    """Check `engine` (a command line, as one string or a list of words; None: the reference as a
    subprocess, or in this process with `in_process`) against `spec`; return the `Run`.

    `games` lock-step games (0: the scenarios alone) with `seed`, over `jobs` engine processes
    (the results do not depend on it); `budget` seconds for the whole run; `patterns` select
    scenarios by id (a pattern matching none raises `NoScenario` before the engine starts);
    `timeout` seconds per reply; `hung_after` requests in a row without a reply stop the run;
    `shrink` seconds per deviation for its minimal scenario (0: none); `lang` runs the scenarios of
    `root`/features/<lang>/ and titles the clauses in that language; `cluster` runs the scenarios
    and games on the Dask cluster whose scheduler it names, as `jobs` would (the engine command
    must run on every worker). A worker lost twice costs its items: toolkit errors.

    A run that has to stop (engine hung, crashing, breaking the protocol, its hello failing, budget
    spent) still returns: `Run.stopped` says why and where (`stopped.Stop`), and the results are
    those reached before the stop. Raises `EngineStartError` (the engine cannot be started at all)."""
    from ..game.engine import Ruleset
    from ..protocol.client import Client, InProcessClient, RunStopped, open_client
    from ..scenarios.model import build_scenarios
    from .diagnose import SchemaSampler
    from .jobs import lost_scenario, run_parallel, worker_errors
    from .lockstep import merge, run_lockstep
    from .runner import handshake, is_ai, run_scenario, select
    from .verdict import protocol_notes

    the_spec = _spec(spec)
    patterns = tuple(patterns)
    command = shlex.join(engine) if engine is not None and not isinstance(engine, str) else engine
    if patterns and not select(build_scenarios(the_spec), patterns):
        raise NoScenario(patterns, build_scenarios(the_spec))

    def factory() -> Client:
        return InProcessClient() if in_process else open_client(command, timeout, hung_after, budget)

    errors: list[ToolkitError] = []  # outside any item: a phase of the run
    client = factory()
    lock = deviations = fitted = None
    results: list = []
    hello: dict | None = None
    ai_run = True
    stop: Stop | None = None
    try:
        try:
            hello = handshake(client)
        except HandshakeError as exc:
            stop = Stop.of(exc, "handshake", kind="handshake", request={"number": 1, "cmd": "hello"})
        options = (hello or {}).get("options") or {}
        ai_run = bool(options.get("ai"))
        declared = {k for k, v in options.items() if k not in ("players", "deals", "seed", "ai")}
        if stop is None:
            try:
                if lang == "en":
                    validate = SchemaSampler()
                    chosen = [sc for sc in select(build_scenarios(the_spec), patterns) if ai_run or not is_ai(sc)]
                    results = run_parallel(chosen, lambda engine, sc: run_scenario(engine, sc, options, validate,
                                                                                   the_spec),
                                           client, jobs, factory, lambda n: progress("scenarios", n, len(chosen)),
                                           cluster=cluster, connect_timeout=connect_timeout, lost=lost_scenario,
                                           what="scenarios", least=60)
                else:  # the scenarios as read back from features/<lang>/ (president.conform.localized)
                    from ..resources import packaged_root
                    from .localized import run_localized
                    from .runner import is_ai_result
                    chosen = []
                    results = [r for r in run_localized(client, the_spec, lang, patterns, options,
                                                        root or packaged_root()) if ai_run or not is_ai_result(r)]
            except RunStopped as exc:  # the scenarios run before the stop keep their verdicts
                results = list(exc.partial or [])
                at = chosen[exc.item].id if exc.item is not None and exc.item < len(chosen) else None
                stop = Stop.of(exc, "scenarios", f"scenario {at}" if at else None)
        if stop is None and games > 0:
            t0 = time.perf_counter()
            try:
                with guard("lockstep", f"{games} games, seed {seed}", errors):
                    lock = run_lockstep(the_spec, client, games, seed, options=options, declared=declared,
                                        progress=lambda g: progress("lock-step games", g, games), jobs=jobs,
                                        factory=factory, cluster=cluster, connect_timeout=connect_timeout)
            except RunStopped as exc:  # the games played before the stop keep their verdicts
                lock = exc.lock if exc.lock is not None else merge(list(exc.partial or []), declared)
                lock.jobs, lock.seconds = (jobs if cluster is None else 1), time.perf_counter() - t0
                stop = Stop.of(exc, "lock-step", f"game {exc.item}" if exc.item is not None else None)
        progress("diagnosis", 0, 0)
        if results or lock is not None:
            deviations, fitted, stop = _diagnose(results, lock, options, Ruleset.from_spec(the_spec), client,
                                                 shrink, clause_titles(lang, root), errors, stop)
    finally:
        client.close()
    label = client.label or command or "reference"
    out = Run(the_spec, results, lock, hello, label, deviations or [], protocol_notes(results, lock), ai_run, fitted)
    out.stopped = stop
    out.faults = list(client.fault_report())
    out.worker_errors = worker_errors(results, lock)  # items a lost worker took with it: no verdict on them
    out.toolkit_errors = ([r.toolkit_error for r in results if r.toolkit_error is not None]
                          + (list(lock.toolkit_errors) if lock is not None else []) + errors
                          + [ToolkitError("worker", lost.split(":")[0], lost, "") for lost in out.worker_errors])
    return out
