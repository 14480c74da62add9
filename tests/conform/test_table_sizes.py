"""Every table size: an engine that plays only some sizes still runs the rule scenarios.

The reference engine served by tests/mutants/declared.py declares only the given sizes (and refuses
the others); the runner moves each example to a size it declares (president.scenarios.sizes).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from president.conform.runner import handshake, run_scenarios
from president.protocol.client import SubprocessClient
from president.scenarios.model import Op, build_scenarios, missing_requirement
from president.scenarios.sizes import native_players, sized
from president.spec import default_spec

DECLARED = Path(__file__).resolve().parent.parent / "mutants" / "declared.py"


def _run(players: str, mutant: str | None = None):
    client = SubprocessClient([sys.executable, str(DECLARED), players] + ([mutant] if mutant else []), timeout=10)
    try:
        options = handshake(client).get("options") or {}
        return options, run_scenarios(client, default_spec(), options=options)
    finally:
        client.close()


def _eligible(options):
    """Rule scenarios that need no option the engine leaves undeclared (the table size apart)."""
    return [sc for sc in build_scenarios(default_spec()) if sc.section != "ai"
            and missing_requirement(options, tuple(r for r in sc.requires if r[0] != "players")) is None]


@pytest.mark.parametrize("players", ["4,5,6", "5"])
def test_an_engine_of_some_sizes_runs_most_rule_scenarios_and_the_reference_passes_them(players, record_property):
    options, results = _run(players)
    assert options["players"] == [int(p) for p in players.split(",")]
    eligible = {sc.id for sc in _eligible(options)}
    rule = [r for r in results if r.section != "ai"]
    ran = [r for r in rule if r.outcome != "skip" and r.id.split("@")[0] in eligible]
    assert len(rule) == len(eligible) == 91
    record_property("president_summary", f"declared players [{players}]: {len(ran)}/{len(eligible)} rule scenarios run")
    assert len(ran) >= 0.85 * len(eligible), [(r.id, r.message) for r in rule if r.outcome == "skip"]
    assert [r.id for r in ran if r.outcome != "pass"] == []
    declared = set(options["players"])
    for r in ran:  # a moved scenario keeps its id, with the size it ran at
        base, _, size = r.id.partition("@")
        assert not size or (size.endswith("p") and int(size[:-1]) in declared), r.id
    assert len({r.id.split("@")[0] for r in rule}) == len(rule)  # one scenario per example
    # a skipped example says why it did not move
    assert all("lacks" in r.message and "(" in r.message for r in rule if r.outcome == "skip")


@pytest.mark.parametrize("mutant", ["ties-allowed", "pass-not-final", "scoring-off-by-one"])
@pytest.mark.slow
def test_a_mutant_playing_only_five_players_still_fails(mutant):
    _options, results = _run("5", mutant)
    wrong = [r for r in results if r.outcome in ("fail", "blocked")]
    assert wrong, f"mutant {mutant} passes every scenario at 5 players"
    assert all("@5p" in r.id for r in wrong)  # caught by examples moved from 3 or 4 players
    assert all(r.outcome != "error" for r in results)


# --- the moved scenario states the example's expectations on the example's seats ---------------
def _project(op: Op, shift: int, n0: int) -> Op:
    """A moved expectation seen on the example's own seats (seat s + shift back to s)."""
    a = op.kwargs
    own = lambda seats: [s - shift for s in seats if 0 <= s - shift < n0]  # noqa: E731
    if op.key in ("to-act", "hand", "hand-empty", "trick"):
        return Op.of(op.key, **{**a, "seat": a["seat"] - shift})
    if op.key in ("passed", "nobody-passed"):
        seats = own(a.get("seats", ()))
        return Op.of("passed", seats=seats) if seats else Op.of("nobody-passed")
    if op.key in ("finished", "nobody-finished"):
        seats = own(a.get("seats", ()))
        return Op.of("finished", seats=seats) if seats else Op.of("nobody-finished")
    if op.key == "scores":
        return Op.of("scores", scores=list(a["scores"])[shift:shift + n0])
    if op.key == "hand-sizes":
        return Op.of("hand-sizes", sizes=list(a["sizes"])[shift:shift + n0])
    return op


def _moved():
    spec = default_spec()
    for sc in build_scenarios(spec):
        for n in range(native_players(sc) + 1, spec.players.max + 1):
            found = sized(spec, sc, n)
            if found.scenario is not None:
                yield sc, found


def test_moved_scenarios_keep_the_examples_expectations_on_its_seats():
    moved = list(_moved())
    assert len(moved) > 150  # (example, size) pairs
    ways = {found.how for _sc, found in moved}
    assert ways == {"pass", "out", "late", "hands"}
    for sc, found in moved:
        n0, k = native_players(sc), found.players - native_players(sc)
        shift = k if found.how == "out" else 0
        then = [op for op in sc.ops if op.kind == "then"]
        moved_then = [_project(op, shift, n0) for op in found.scenario.ops if op.kind == "then"]
        assert moved_then == [_project(op, 0, n0) for op in then], found.scenario.id
        # the example's own actions all happen, in order, by the same seats
        acts = [(op.key, op.kwargs.get("seat"), op.kwargs.get("cards")) for op in sc.ops if op.kind == "when"]
        mine = [(op.key, op.kwargs.get("seat") - shift if "seat" in op.kwargs else None, op.kwargs.get("cards"))
                for op in found.scenario.ops if op.kind == "when"]
        it = iter(mine)
        assert all(any(a == b for b in it) for a in acts), found.scenario.id
        assert found.scenario.id == f"{sc.id}@{found.players}p" and found.scenario.clause == sc.clause


def test_what_is_never_moved_says_why():
    spec = default_spec()
    by_id = {sc.id: sc for sc in build_scenarios(spec)}
    assert "seeded" in sized(spec, by_id["setup.dealing/three-players-seat-0-gets-the-extra-card"], 5).why_not
    assert "AI" in sized(spec, by_id["ai.easy/easy-follows-with-the-lowest-card-that-beats-the-trick"], 5).why_not
    # a series whose exchange would involve an added seat: the reference shows other hands
    best = sized(spec, by_id["exchange.best/a-2-is-best-then-among-aces-the-higher-suit"], 5)
    assert best.scenario is None and "hand" in best.why_not


@pytest.mark.slow
def test_the_translated_scenarios_move_alike():
    sys.path.insert(0, str(DECLARED.parent))
    from declared import DeclaredSession

    from president.conform.localized import localized_summary, run_localized
    from president.protocol.client import InProcessClient

    client = InProcessClient(lambda: DeclaredSession([5], "declared-5"))
    options = handshake(client)["options"]
    english = [(r.id, r.outcome) for r in run_scenarios(client, default_spec(), options=options)]
    russian = run_localized(client, default_spec(), "ru", options=options)
    assert [(r.id, r.outcome) for r in russian] == english
    assert sum("@5p" in r.id and r.outcome == "pass" for r in russian) >= 70
    passed = sum(r.outcome == "pass" for r in russian)
    assert f"{passed}" in localized_summary(default_spec(), russian, None, "declared-5", "ru").splitlines()[-2]
