import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from president.arena.bench import bench_engine
from president.cli.main import main
from president.resources import find_project_root, packaged_root, project_root


@pytest.mark.slow
def test_bench_engine_reports_rates():
    result = bench_engine(20, players=4, seed=1)
    assert result["games"] == 20 and result["steps"] > 20 * 13
    assert result["games_per_s"] > 0 and result["steps_per_s"] > 0
    assert bench_engine(20, players=4, seed=1)["steps"] == result["steps"]  # same seed, same games


@pytest.mark.slow
def test_bench_cli_json():
    out = CliRunner().invoke(main, ["bench", "--games", "10", "--json", "-"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"games_per_s", "steps_per_s"} <= set(data)


def test_project_root_is_found_upward(tmp_path: Path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "president.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "locales").mkdir()
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    assert find_project_root(deep) == tmp_path.resolve()
    assert project_root(tmp_path / "a") == (tmp_path / "a").resolve()  # an explicit root wins


def test_outside_a_project_falls_back_to_the_packaged_copies(tmp_path: Path, monkeypatch):
    from president.cli.util import project_here

    monkeypatch.chdir(tmp_path)
    assert find_project_root(tmp_path) is None
    assert project_here() == packaged_root()  # the command line's default outside any project
    assert project_root() == packaged_root()  # the library never looks at the current folder
    assert (packaged_root() / "spec" / "president.yaml").is_file()
