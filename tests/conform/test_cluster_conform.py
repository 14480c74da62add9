"""`president conform --cluster`: scenarios and lock-step games on a Dask LocalCluster give the JSON
report of `--jobs 1`, timings apart; a scheduler that is not there is one line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

distributed = pytest.importorskip("distributed")

from president.cli.main import main  # noqa: E402
from president.conform.jobs import cluster_batch  # noqa: E402

pytestmark = pytest.mark.slow  # conform on a Dask LocalCluster

MUTANT = Path(__file__).resolve().parents[1] / "mutants" / "mutant.py"
TIMINGS = ("seconds", "cpu_seconds", "steps_per_s", "jobs")



def _untimed(data):
    """The report without its timings (and the number of jobs, which says how it was run)."""
    if isinstance(data, dict):
        return {k: _untimed(v) for k, v in data.items() if k not in TIMINGS}
    if isinstance(data, list):
        return [_untimed(v) for v in data]
    return data


def _report(tmp_path, name: str, *args: str, code: int = 0) -> dict:
    path = tmp_path / f"{name}.json"
    res = CliRunner().invoke(main, ["conform", "--games", "10", "--seed", "3", "--shrink", "0", "--json", str(path),
                                    *args])
    assert res.exit_code == code, res.output
    return json.loads(path.read_text())


def test_cluster_json_equals_jobs_1(cluster, tmp_path):
    on_cluster = _report(tmp_path, "cluster", "--cluster", cluster.scheduler_address)
    local = _report(tmp_path, "local")
    assert on_cluster["lockstep"]["games"] == 10 and on_cluster["scenario_results"]
    assert _untimed(on_cluster) == _untimed(local)


def test_a_wrong_engine_gives_the_same_deviations_on_the_cluster(cluster, tmp_path):
    engine = f"{sys.executable} {MUTANT} pass-not-final"  # this command line runs on every worker
    args = ("--engine", engine, "-k", "flow.*")
    on_cluster = _report(tmp_path, "cluster", *args, "--cluster", cluster.scheduler_address, code=1)
    assert on_cluster["deviations"] and on_cluster["lockstep"]["divergent"]
    assert _untimed(on_cluster) == _untimed(_report(tmp_path, "local", *args, code=1))


def test_batches_keep_every_worker_busy_and_stay_bounded():
    assert cluster_batch(10, 2) == 2 and cluster_batch(100_000, 2) == 100 and cluster_batch(1, 64) == 1
    assert cluster_batch(10, 2, least=20) == 20 and cluster_batch(1000, 2, least=20) == 100


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    res = CliRunner().invoke(main, ["conform", "--games", "2", "-k", "flow.*", "--cluster", "tcp://127.0.0.1:1",
                                    "--connect-timeout", "1"])
    assert res.exit_code == 1 and "cannot reach the Dask scheduler" in res.output
    assert res.output.strip().count("\n") == 0, res.output
