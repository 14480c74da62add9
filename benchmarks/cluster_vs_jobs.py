"""Wall time of a tournament on a Dask LocalCluster against `--jobs`, and the same results.

    python benchmarks/cluster_vs_jobs.py [GAMES] [SEATS] [WORKERS]
    # default: 2000 deals of medium,easy,easy,easy on a 2-worker LocalCluster, against --jobs 2

Starts the LocalCluster (not counted in the wall time), runs `president tournament --cluster
ADDRESS`, then `president tournament --jobs WORKERS` with the same seed, and checks that the two
JSON results agree on every outcome figure (decision times differ from run to run).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import LocalCluster

OUTCOMES = ("mean_points", "ci95", "president_rate", "last_rate")


def run(args: list[str], out: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "president", "tournament", *args, "--json", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seats = sys.argv[2] if len(sys.argv) > 2 else "medium,easy,easy,easy"
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    base = ["--seats", seats, "--games", str(games), "--seed", "1"]
    tmp = Path(tempfile.mkdtemp())
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        t_cluster = run(base + ["--cluster", cluster.scheduler_address], tmp / "cluster.json")
    t_jobs = run(base + ["--jobs", str(workers)], tmp / "jobs.json")
    a, b = (json.loads((tmp / f).read_text()) for f in ("cluster.json", "jobs.json"))
    same = all(a[k] == b[k] for k in OUTCOMES)
    print(json.dumps({"games": games, "seats": seats, "workers": workers, "cluster_s": round(t_cluster, 1),
                      "jobs_s": round(t_jobs, 1), "identical_outcomes": same,
                      "president_rate": a["president_rate"],
                      "president_ci95": a["president_ci95"],
                      "mean_points": a["mean_points"], "points_ci95": a["ci95"],
                      "decision_ms_p50_jobs": b["decision_ms_p50"], "decision_ms_p99_jobs": b["decision_ms_p99"]},
                     indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
