"""benchmarks/hard_variants.py (hard's constants changed, for the work curve of issue 12) keeps
working: it plays with the changed constants, scales the work, and restores the constants after."""
from __future__ import annotations

import pytest

from president.ai import hard


@pytest.fixture(scope="module")
def variants(benchmark_module):
    return benchmark_module("hard_variants")


def test_work_factor_scales_the_search_and_the_constants_come_back(variants):
    before = {n: getattr(hard, n) for n in (*variants.WORK_CONSTANTS, "UCB_C")}
    r = variants.run(4, 1, 1, [("UCB_C", 0.3)], 0.1)
    assert r["constants"]["UCB_C"] == 0.3
    for name in variants.WORK_CONSTANTS:
        assert r["constants"][name] == max(1, round(before[name] * 0.1))
    assert {n: getattr(hard, n) for n in before} == before
    assert 0 <= r["president_rate"] <= 1 and 1 <= r["mean_points"] <= 4 and r["games"] == 4
    assert r["decision_ms_p50"] <= r["decision_ms_p99"]


def test_set_accepts_numeric_constants_only(variants):
    assert variants.parse_set("PRESIDENT_BONUS=10") == ("PRESIDENT_BONUS", 10.0)
    for bad in ("FOO=1", "search=1", "UCB_C=x", "MEMO_SIZE"):
        with pytest.raises(ValueError, match="--set"):
            variants.parse_set(bad)
