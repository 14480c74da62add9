"""`president check` reports a rule clause whose scenarios do not reach every table size."""
from __future__ import annotations

import pytest
import yaml

from president.project.check import CHECKS
from president.project.sizes_check import check_table_sizes, size_problems
from president.resources import default_spec_path
from president.spec import default_spec, parse_spec

#: a 3-player series whose exchange an added seat would change: it moves to no other size
PLANTED = {
    "id": "exchange.planted",
    "section": "special",
    "title": "A planted clause whose only example does not move to another table size",
    "examples": [{
        "name": "the president gets the best cards",
        "hands": [["5C"], ["3C", "4C"], ["6C"]],
        "deals": 2,
        "steps": [{"seat": 0, "play": ["5C"]}, {"seat": 1, "pass": True}, {"seat": 2, "play": ["6C"]},
                  {"deal": [["3H", "4H"], ["AC", "AS", "AD", "2C", "5H"], ["7H"]],
                   "expect": {"hands": [["3H", "4H", "AS", "2C"], ["5H", "AC", "AD"], ["7H"]]}}],
    }],
}


def _spec(edit):
    data = yaml.safe_load(default_spec_path().read_text(encoding="utf-8"))
    edit(data)
    return parse_spec(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "spec/president.yaml")


def test_the_shipped_spec_reaches_every_size_or_says_why():
    assert check_table_sizes in CHECKS
    assert size_problems(default_spec()) == []


@pytest.mark.slow
def test_a_planted_example_that_moves_nowhere_is_reported_at_its_clause():
    spec = _spec(lambda d: d["clauses"].append(PLANTED))
    problems = size_problems(spec)
    assert len(problems) == 1, [str(p) for p in problems]
    p = problems[0]
    planted = next(c for c in spec.clauses if c.id == "exchange.planted")
    assert (p.file, p.line, p.path) == ("spec/president.yaml", planted.line, "clauses.exchange.planted")
    assert "reach 3 of 3..6 players, not 4, 5, 6" in p.message
    assert str(p).startswith(f"spec/president.yaml:{planted.line}: ")


@pytest.mark.slow
def test_uncovered_sizes_with_a_reason_silence_it_and_a_stale_entry_is_reported():
    def silenced(d):
        d["clauses"].append(PLANTED)
        d["uncovered_sizes"]["exchange.planted"] = {"sizes": [4, 5, 6], "why": "added seats would take places"}
    assert size_problems(_spec(silenced)) == []

    def stale(d):
        d["uncovered_sizes"]["deal.end"] = {"sizes": [5], "why": "no reason"}
    problems = size_problems(_spec(stale))
    assert [(p.path, "lists 5" in p.message) for p in problems] == [("clauses.deal.end.uncovered_sizes", True)]


@pytest.mark.slow
def test_a_moved_example_covers_its_clause():
    # the same clause with an example that moves (no series): no problem
    movable = dict(PLANTED, examples=[{"name": "a single is played", "hands": [["5C", "3C"], ["7C"], ["6C"]],
                                       "steps": [{"seat": 0, "play": ["5C"], "expect": {"to_act": 1}}]}])
    assert size_problems(_spec(lambda d: d["clauses"].append(movable))) == []
