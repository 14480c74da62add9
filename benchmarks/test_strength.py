"""Slow strength check (about a minute on 2 cores): hard gains significantly over medium on paired
deals. Outside the suite (pytest's testpaths is tests/); run it with

    pytest benchmarks/test_strength.py -p no:cacheprovider

The targets themselves (President rates, mean points, decision times) are measured with
`president tournament`, see benchmarks/ai_strength.sh.
"""
from __future__ import annotations

import pytest

from president.arena.strength import paired_gain


@pytest.mark.slow
def test_hard_beats_medium_significantly():
    gain, half = paired_gain("hard", "medium", 150, seed=5, jobs=2)
    assert gain - half > 0, (gain, half)
