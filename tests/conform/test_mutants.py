"""The suite's strength: the scenarios alone (`conform --games 0`) reject every mutant engine."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from president.protocol.client import SubprocessClient
from president.conform.runner import handshake, run_scenarios
from president.spec import default_spec

MUTANT = Path(__file__).resolve().parent.parent / "mutants" / "mutant.py"
sys.path.insert(0, str(MUTANT.parent))
from mutant import MUTANTS  # noqa: E402


def _outcomes(name: str) -> dict[str, int]:
    client = SubprocessClient([sys.executable, str(MUTANT), name], timeout=10)
    try:
        options = handshake(client).get("options") or {}
        results = run_scenarios(client, default_spec(), options=options)
    finally:
        client.close()
    return {o: sum(r.outcome == o for r in results) for o in ("pass", "fail", "blocked", "error", "protocol", "skip")}


@pytest.fixture(scope="module")
def mutant_results() -> dict[str, dict[str, int]]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(MUTANTS, pool.map(_outcomes, MUTANTS)))


def test_at_least_twelve_mutants():
    assert len(MUTANTS) >= 12


@pytest.mark.slow
def test_scenarios_kill_every_mutant(mutant_results, record_property):
    # a scenario failing on another clause's rule (blocked) is a kill too: the engine is wrong
    killed = {m for m, o in mutant_results.items() if o["fail"] or o["blocked"] or o["error"]}
    score = len(killed) / len(MUTANTS)
    # printed after the run by tests/conftest.py (user properties reach the controller under xdist too)
    record_property("president_summary", f"mutation score: {len(killed)}/{len(MUTANTS)} = {score:.0%} "
                    + " ".join(f"{m}:{o['fail']}f{o['blocked']}b" for m, o in mutant_results.items()))
    assert set(MUTANTS) - killed == set(), "mutants the scenarios let through"


@pytest.mark.slow
def test_mutants_fail_rather_than_error(mutant_results):
    # a wrong rule is a wrong answer (fail), not a protocol error
    assert all(o["error"] == o["protocol"] == 0 for o in mutant_results.values()), mutant_results
