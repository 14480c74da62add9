"""`president tournament --cluster`: a Dask LocalCluster plays the same games as --jobs 1, shows
progress, and re-runs the games of a worker that dies."""
from __future__ import annotations

import json
import os
import signal

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")

from president.cli.main import main  # noqa: E402
from president.arena.cluster import ClusterError, run_games_cluster  # noqa: E402
from president.arena.tournament import run_games  # noqa: E402

LEVELS = ["medium", "easy", "easy", "easy"]



def _outcomes(results):
    return [(r.points, r.places) for r in results]


def test_cluster_results_equal_local_results(cluster):
    done = []
    got = run_games_cluster(LEVELS, 60, 2, 7, cluster.scheduler_address, progress=done.append)
    assert _outcomes(got) == _outcomes(run_games(LEVELS, 60, 2, 7, jobs=1))
    assert sum(done) == 60 and len(done) > 1  # progress as batches complete


def test_a_lost_workers_games_are_run_again(cluster):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def progress(k: int) -> None:
        if not killed:  # the first batch is in: kill a worker while the others are still queued or running
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    games = 400
    got = run_games_cluster(LEVELS, games, 1, 11, cluster.scheduler_address, progress=progress)
    assert killed
    assert _outcomes(got) == _outcomes(run_games(LEVELS, games, 1, 11, jobs=1))


def test_cli_cluster_matches_jobs(cluster, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["tournament", "--seats", ",".join(LEVELS), "--games", "40", "--seed", "2"]
    r1 = CliRunner().invoke(main, args + ["--cluster", cluster.scheduler_address, "--json", str(a)])
    r2 = CliRunner().invoke(main, args + ["--jobs", "2", "--json", str(b)])
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output + r2.output
    keys = ("mean_points", "ci95", "president_rate", "last_rate")
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    assert {k: ja[k] for k in keys} == {k: jb[k] for k in keys}


def test_unreachable_scheduler_is_a_one_line_error():
    with pytest.raises(ClusterError, match="cannot reach"):
        run_games_cluster(LEVELS, 4, 1, 0, "tcp://127.0.0.1:9", timeout=1)
    res = CliRunner().invoke(main, ["tournament", "--seats", ",".join(LEVELS), "-n", "2",
                                    "--cluster", "tcp://127.0.0.1:9", "--connect-timeout", "1"])
    assert res.exit_code == 1 and "cannot reach" in res.output


def _halve(batch: tuple[int, ...]) -> list[float]:
    if 13 in batch:
        raise ValueError("thirteen")
    return [n / 2 for n in batch]


def test_the_shared_helper_keeps_batch_order_and_names_a_failed_batch(cluster):
    from president.cluster import run_batches

    seen = []
    got = run_batches(cluster.scheduler_address, _halve,
                      lambda threads: [tuple(range(s, s + threads)) for s in range(0, 6 * threads, threads)],
                      lambda b: f"numbers {b[0]}-{b[-1]}", lambda b, r: seen.append(b))
    threads = len(got[0])
    assert threads == 2 and [x for r in got for x in r] == [n / 2 for n in range(6 * threads)]
    assert sorted(seen) == [tuple(range(s, s + threads)) for s in range(0, 6 * threads, threads)]
    with pytest.raises(ClusterError, match=r"numbers 12-15 failed on the cluster: ValueError: thirteen"):
        run_batches(cluster.scheduler_address, _halve, [(0, 1), (12, 13, 14, 15)], lambda b: f"numbers {b[0]}-{b[-1]}")
