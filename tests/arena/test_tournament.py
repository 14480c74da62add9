"""`president tournament`: identical results for any --jobs, seat rotation, JSON fields."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from president.cli.main import main
from president.arena.tournament import play_game, run_games, tournament

FIELDS = ("mean_points", "president_rate", "last_rate", "decision_ms_p50", "decision_ms_p99")


def _outcomes(results):
    return [(r.points, r.places) for r in results]


def test_results_do_not_depend_on_jobs():
    one = run_games(["medium", "easy", "easy"], games=24, deals=2, seed=3, jobs=1)
    two = run_games(["medium", "easy", "easy"], games=24, deals=2, seed=3, jobs=2)
    assert _outcomes(one) == _outcomes(two)


def test_seats_rotate_between_games():
    a = play_game(["easy", "medium", "easy", "easy"], 1, 0, 0)
    b = play_game(["easy", "medium", "easy", "easy"], 1, 0, 0)
    assert (a.points, a.places) == (b.points, b.places)  # a game is determined by (seed, game)
    # the same entry sits at another seat in the next game: with all-easy tables, only the deal
    # and the rotation differ, so entry e of game 1 plays the seat entry e+1 played in game 0
    g0 = play_game(["easy"] * 4, 1, 0, 0)
    assert sorted(g0.points) == [1, 2, 3, 4]


@pytest.mark.slow
def test_summary_fields_and_ranges():
    r = tournament(["medium", "easy", "easy", "easy"], games=40, seed=2)
    for key in FIELDS:
        assert len(r[key]) == 4
    assert abs(sum(r["president_rate"]) - 1) < 1e-9 and abs(sum(r["last_rate"]) - 1) < 1e-9
    assert abs(sum(r["mean_points"]) - 10) < 1e-9  # 4+3+2+1 per deal
    for rate, half in zip(r["president_rate"], r["president_ci95"]):  # the Wald interval of 40 deals
        assert half == round(1.96 * (rate * (1 - rate) / 40) ** 0.5, 4)


def test_cli_writes_json(tmp_path):
    out = tmp_path / "t.json"
    res = CliRunner().invoke(main, ["tournament", "--seats", "easy,medium,easy", "--games", "9", "--deals", "2",
                                    "--seed", "4", "--jobs", "2", "--json", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["seats"] == ["easy", "medium", "easy"] and data["games"] == 9 and data["deals"] == 2
    for key in FIELDS:
        assert len(data[key]) == 3
    assert "mean points" in res.output


def test_cli_refuses_unknown_levels():
    res = CliRunner().invoke(main, ["tournament", "--seats", "easy,expert,easy", "--games", "1"])
    assert res.exit_code != 0 and "expert" in res.output


def test_ladder_plays_mixed_seatings_and_rates_the_levels(tmp_path):
    from president.arena.ladder import ladder_seating, rate, seatings

    table = seatings(["easy", "medium", "hard"], 4)
    assert len(table) == 12 and all(len(set(s)) > 1 for s in table)
    seat = ladder_seating(["easy", "medium"], 4)
    results = run_games(seat, games=36, seed=1)
    assert [len(r.points) for r in results] == [4] * 36
    stats = rate(seat, results)
    assert [s.level for s in stats] == ["easy", "medium"]
    assert sum(s.deals for s in stats) == 36 * 4
    assert sum(s.presidents for s in stats) == 36  # one President per deal
    assert all(s.sigma < 25 / 3 for s in stats)  # the games made the ratings surer
    assert len(stats[0].curve) > 0 and stats[0].curve[-1][0] <= 36


@pytest.mark.slow
def test_cli_ladder_prints_ratings_and_writes_a_plot(tmp_path):
    out, svg = tmp_path / "l.json", tmp_path / "l.svg"
    res = CliRunner().invoke(main, ["tournament", "--ladder", "easy,medium", "--games", "24", "--seed", "3",
                                    "--json", str(out), "--plot", str(svg)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert [r["level"] for r in data["levels"]] == ["easy", "medium"]
    assert {"mu", "sigma", "president_rate", "president_ci95"} <= set(data["levels"][0])
    assert "rating" in res.output and "President" in res.output
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    bad = CliRunner().invoke(main, ["tournament", "--ladder", "easy", "--games", "2"])
    assert bad.exit_code == 2 and "two different levels" in bad.output
    both = CliRunner().invoke(main, ["tournament", "--ladder", "easy,medium", "--seats", "easy,easy,easy", "-n", "1"])
    assert both.exit_code == 2
