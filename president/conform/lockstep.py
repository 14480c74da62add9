"""Lock-step validation: random games played on the reference engine and the engine under test.

Each game is played in segments (`games.Game`): the reference plans a random stretch (legal + act
per step, the occasional illegal attempt, `deal` between deals), the requests are pipelined to the
engine and every reply is compared on the rule observables (`diagnose`): the legal set, the refusal
or acceptance, and the rule view of STATE. Fields the rules leave to the engine become protocol
notes. Games respect the engine's `hello.options` (table sizes, revolution values, series of
deals, seeded deals) and every game is played to `game_over`.

No masking: after a divergence the reference adopts the engine's own state and the game goes on,
so exchange, scoring and later deals are compared too. A seeded deal belongs to the engine: it is
compared by its observables (`deals`), unless the engine declares the spec's shuffle. An engine
STATE the rules cannot reach is a deviation of the clause it breaks; the game goes on from the
next STATE the reference can hold (`resynced`), or ends (`unfinished`, with the invariant broken)
when none comes; a toolkit bug in one game costs that game (`toolkit_errors`), never the run. Each
distinct deviation is counted once, with the games and steps where it showed; every game keeps
its whole `Trace`, spooled out of memory as the game comes in (`Merger`, `trace.TraceSpool`). Games are independent (each has its own seed): `jobs` splits them by number
over N engine processes and they are merged in game order, so the result does not depend on N.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..game.engine import Ruleset
from ..protocol.client import Client, ProtocolViolation, RunStopped, settled, strays
from ..spec import Spec
from ..cluster import DEFAULT_CONNECT_TIMEOUT
from .games import Game, Table, game_config, random_hands
from .baseline import Baseline
from .causes import places_of
from .jobs import lost_game, run_parallel
from .records import Divergence, GameRecord, LockstepResult, Showing
from .toolkit import Deadline, guard
from .trace import Trace

#: Lock-step games per cluster batch at least: a game takes ~30 ms against the reference, starting it ~0.3 s.
GAMES_PER_BATCH = 20

__all__ = ["Divergence", "GameRecord", "LockstepResult", "Showing", "game_config", "merge", "random_hands",
           "run_lockstep"]


def run_lockstep(spec: Spec, client: Client, games: int = 200, seed: int = 0,
                 options: dict[str, Any] | None = None, reference: Any = None,
                 declared: set[str] | None = None, progress: Callable[[int], None] | None = None,
                 jobs: int = 1, factory: Callable[[], Client] | None = None,
                 variant: dict[str, Any] | None = None, cluster: str | None = None,
                 connect_timeout: float = DEFAULT_CONNECT_TIMEOUT) -> LockstepResult:
    """Play `games` random games on the reference and the engine; compare every reply.

    `jobs` > 1 with a `factory` (one engine client per worker) plays them over that many forked
    workers, or on the Dask cluster whose scheduler is at `cluster` (`president.conform.jobs`);
    `variant`: options the reference plays besides each game's config (a fitted variant)."""
    here = (jobs <= 1 or factory is None) and cluster is None  # every game is played in this process
    table = Table(spec, Ruleset.from_spec(spec), dict(options or {}), set(declared or ()), dict(variant or {}),
                  deadline=Deadline.of(client), baseline=here and not variant)
    t0 = time.perf_counter()

    def work(engine: Client, number: int) -> GameRecord:
        game = Game(table, engine, number, seed * 1_000_003 + number)
        stray = strays(engine)
        with guard("game", f"game {number} (seed {game.rec.seed})", trace=game.rec.trace) as box:
            return unshifted(game.play(), engine, stray)
        game.rec.toolkit_error = box.failed  # a toolkit bug costs this game, not the run
        game.rec.fit_steps = None  # its trace ends where the bug was: the fit replays it
        game.rec.unfinished = f"toolkit error: {box.failed.error}"[:200] if box.failed else "toolkit error"
        engine.restart()  # the engine may be mid-game: start it afresh for the next one
        return game.rec

    merger = Merger(set(declared or ()))
    try:
        run_parallel(list(range(games)), work, client, jobs, factory, progress, cluster=cluster,
                     connect_timeout=connect_timeout, what="lock-step games", least=GAMES_PER_BATCH,
                     lost=lambda number, why: lost_game(number, seed * 1_000_003 + number, why), sink=merger.add)
    except RunStopped as exc:  # the games handed on before the stop, then those done ahead of their turn
        for rec in exc.partial or []:
            merger.add(rec)
        exc.partial, exc.lock = None, merger.result
        raise
    result = merger.result
    result.jobs = jobs if factory is not None else 1
    result.seconds = time.perf_counter() - t0
    return result


def unshifted(rec: GameRecord, engine: Client, stray: int) -> GameRecord:
    """The game, or (when a line that answered no request came while it was played: a second reply,
    which may have been taken for a later request's) an engine error with no verdict and no trace.
    A game that diverged waits for such a line a moment first (`settle`)."""
    try:
        if any(d.kind != "error" for d in rec.divergences):
            settled(engine)
    except ProtocolViolation:
        engine.restart()
    if strays(engine) <= stray:
        return rec
    why = "a line on stdout answered no request during this game (a second reply?): no verdict on its replies"
    return GameRecord(rec.number, rec.seed, Trace(f"game {rec.number}"), requests=rec.requests, unfinished=why,
                      divergences=[Divergence(rec.number, rec.seed, 0, {}, f"ProtocolFault: {why}", kind="error",
                                              clause="protocol")])


#: Divergences a run's result lists whole (then only the first of each clause): the counts are over all.
KEEP_DIVERGENCES = 200


def merge(records: list[GameRecord], declared: set[str]) -> LockstepResult:
    """The run's result from its games, in game order (`Merger`)."""
    merger = Merger(declared)
    for rec in records:
        merger.add(rec)
    return merger.result


class Merger:
    """The run's result, built game by game in game order as the games come in: deviations keyed
    by clause and what breaks, each with the games and steps where it showed and a few replayable
    samples. What it keeps does not grow with the games but by a few numbers per game: each trace
    goes to the result's spool (`trace.TraceSpool`), the divergences are listed up to
    `KEEP_DIVERGENCES` (counted all the same), and only the samples and each deviation's first
    divergence keep their evidence."""

    def __init__(self, declared: set[str]):
        self.declared = declared
        self.result = LockstepResult(baseline=Baseline(places_of))
        self.clauses: set[str] = set()

    def add(self, rec: GameRecord) -> None:
        result = self.result
        result.games += 1
        result.steps += rec.steps
        result.requests += rec.requests
        if rec.fit_steps is not None:  # the fit's baseline of this game, while its trace is at hand
            reach = rec.compared_to if rec.compared_to is not None else len(rec.trace.steps) - 1
            result.baseline.add(len(result.traces), rec.trace, rec.fit_steps, reach)  # numbered as the traces
            rec.fit_steps = None
        result.traces.append(rec.trace)
        for kind, (count, example) in rec.notes.items():
            seen = result.notes.setdefault(kind, [0, example])
            seen[0] += count
        if rec.unfinished:
            result.unfinished.append((rec.number, rec.unfinished))
        if rec.toolkit_error is not None:
            result.toolkit_errors.append(rec.toolkit_error)
        result.resynced += [(rec.number, why) for why in rec.resynced]
        keep: set[int] = set()  # the divergences whose evidence is kept
        for div in rec.divergences:
            result.diverged_games.add(rec.number)
            if len(result.divergences) < KEEP_DIVERGENCES or div.clause not in self.clauses:
                result.divergences.append(div)
                self.clauses.add(div.clause)
            if div.kind == "error":
                result.error_count += 1
            if div.kind == "error" or div.evidence is None:
                continue  # an engine error or a malformed reply: counted in `errors`, not as a divergent game
            result.divergent_games.add(rec.number)  # a declared variant is judged by the fit (`verdict`)
            key = (div.clause, div.mechanism)  # one mechanism, one deviation
            dev = result.deviations.get(key)
            if dev is None:
                dev = result.deviations[key] = Showing(div.clause, div, mech=key[1])
                keep.add(id(div))
            else:
                dev.steps += 1
            dev.games.add(div.game)
            if div.replayable and len(dev.samples) < 8 and not any(d.game == div.game for d in dev.samples):
                dev.samples.append(div)
                keep.add(id(div))
        for div in rec.divergences:
            if id(div) not in keep:
                div.evidence = None  # its game's requests and both replies: only the samples need them
