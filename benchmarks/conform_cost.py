"""Wall time, phase times and peak memory of a default `president conform` run (issue 30, "Cost").

    python benchmarks/conform_cost.py                       # many-ways at 200 and 1000 games
    python benchmarks/conform_cost.py -n 200 -n 1000 many-ways pyres-house tycoon
    python benchmarks/conform_cost.py --root /work/main --cap-mb 3000 many-ways

Each case runs `python -m president conform --engine CMD -n GAMES --json r.json` (fit and shrinking
on, the defaults otherwise) from `--root` (the checkout whose conform is measured; the engines come
from this checkout), in a process of its own, and reports: the exit code; the wall time; the CPU
seconds of conform and the engines (on a loaded machine the wall time says more about the load
than about the code: the CPU time says what the run costs); the phases from the JSON report
(scenarios: the sum of their `seconds`; `lockstep.seconds`; `fit.seconds`; shrinking: the sum of
the deviations' `shrink_seconds`; the rest of the run is the handshake, root causes and report);
the fit's share of the wall time; the peak RSS (the largest of conform and the engines it waited
for: `os.wait4`'s rusage); and the report's counts (deviations, divergent games, unfinished games),
to compare two versions on the same figures.

Exit 1 when, for a case run at several game counts, the peak memory at the largest exceeds 1.5x
the peak at the smallest, or any run's peak exceeds `--max-mb` (300 MB): memory must not grow with
`--games`. `--cap-mb` bounds the address space of each run (RLIMIT_AS, 4000 MB by default), so that
measuring an unbounded version cannot take the machine's memory (such a run ends in MemoryError:
exit "cap").
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: case -> the engine's command line (relative to this checkout)
CASES: dict[str, str] = {
    "many-ways": f"{sys.executable} {HERE / 'benchmarks' / 'many_ways.py'}",
    "many-ways-bulky": f"{sys.executable} {HERE / 'benchmarks' / 'many_ways.py'} --bulky",
    "pyres-house": f"{sys.executable} {HERE / 'tests' / 'engines' / 'pyres.py'} house",
    "tycoon": f"node {HERE / 'tests' / 'engines' / 'tycoon.js'}",
    "daifugo": f"node {HERE / 'tests' / 'engines' / 'daifugo.js'}",
    "reference": "",
}
DEFAULT = ["many-ways"]
GAMES = [200, 1000]
GROWTH = 1.5  # the peak at the most games over the peak at the fewest, at most
MAX_MB = 300.0


def run_case(name: str, root: Path, games: int, cap_mb: int, limit: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix=f"cost-{name}-") as tmp:
        report = Path(tmp) / "r.json"
        argv = [sys.executable, "-m", "president", "conform", "-n", str(games), "--json", str(report)]
        if CASES[name]:
            argv[4:4] = ["--engine", CASES[name]]

        def limits() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (cap_mb << 20, cap_mb << 20))

        env = {**os.environ, "PYTHONPATH": str(root)}
        start = time.monotonic()
        proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                preexec_fn=limits, start_new_session=True)
        try:
            _, err = proc.communicate(timeout=limit)
            code: object = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            _, err = proc.communicate()
            code = "timeout"
        wall = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # this process runs one case: its children only
        text = err.decode("utf-8", "replace")
        if "MemoryError" in text:
            code = "cap"
        row: dict[str, object] = {"case": name, "games": games, "exit": code, "wall": wall,
                                  "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,
                                  "load": os.getloadavg()[0]}
        if report.exists():
            r = json.loads(report.read_text())
            fit = (r.get("fit") or {}).get("seconds") or 0.0
            row.update(scenarios=sum(s.get("seconds") or 0.0 for s in r.get("scenario_results") or []),
                       lockstep=(r.get("lockstep") or {}).get("seconds") or 0.0, fit=fit,
                       shrink=sum(d.get("shrink_seconds") or 0.0 for d in r.get("deviations") or []),
                       fit_share=fit / wall if wall else 0.0, deviations=len(r.get("deviations") or []),
                       divergent=(r.get("lockstep") or {}).get("divergent"),
                       unfinished=len((r.get("lockstep") or {}).get("unfinished") or []),
                       clauses=sorted({d["clause"] for d in r.get("deviations") or []}))
        else:
            row["last"] = (text.strip().splitlines() or [""])[-1][:160]
        return row


def _fmt(row: dict[str, object]) -> str:
    def num(key: str, spec: str) -> str:
        value = row.get(key)
        return format(value, spec) if isinstance(value, (int, float)) else format("-", ">" + spec.split(".")[0])

    return (f"{row['case']:<16}{row['games']:>6}{row['exit']!s:>6}{num('wall', '8.1f')}{num('cpu', '8.1f')}"
            f"{num('scenarios', '8.1f')}{num('lockstep', '9.1f')}{num('fit', '7.1f')}{num('shrink', '8.1f')}"
            f"{num('fit_share', '7.0%')}{num('peak_mb', '9.0f')}{num('deviations', '6d')}{num('divergent', '6d')}"
            f"{num('unfinished', '6d')}{num('load', '6.1f')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help=f"cases to run (default: {', '.join(DEFAULT)}; known: {', '.join(CASES)})")
    parser.add_argument("-n", "--games", type=int, action="append", help=f"game counts (default: {GAMES})")
    parser.add_argument("--root", type=Path, default=HERE, help="checkout whose conform is measured")
    parser.add_argument("--cap-mb", type=int, default=4000, help="address-space cap of each run (MB)")
    parser.add_argument("--max-mb", type=float, default=MAX_MB, help="peak memory allowed for any run (MB)")
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds before a run is killed")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # internal: run one case, print its row
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_case(args.one[0], args.root.resolve(), int(args.one[1]), args.cap_mb, args.limit)))
        return 0
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(CASES)}")
    counts = sorted(set(args.games or GAMES))
    print(f"conform of {args.root}, capped at {args.cap_mb} MB, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"{'case':<16}{'games':>6}{'exit':>6}{'wall s':>8}{'cpu s':>8}{'scen s':>8}{'lockst s':>9}{'fit s':>7}"
          f"{'shrink s':>8}{'fit %':>7}{'peak MB':>9}{'devs':>6}{'div':>6}{'unfin':>6}{'load':>6}")
    failed = []
    rows: list[dict[str, object]] = []
    for name in args.cases or DEFAULT:
        peaks: dict[int, float] = {}
        for games in counts:  # each run in a process of its own: RUSAGE_CHILDREN is that run's alone
            cmd = [sys.executable, __file__, "--one", name, str(games), "--root", str(args.root),
                   "--cap-mb", str(args.cap_mb), "--limit", str(args.limit)]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{name} at {games} games: the benchmark failed: {shlex.quote(out.stderr[-300:])}")
                failed.append(f"{name} at {games}: no measure")
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append(row)
            print(_fmt(row), flush=True)
            if row.get("last"):
                print(f"  {row['last']}")
            peak = float(row["peak_mb"])  # type: ignore[arg-type]
            peaks[games] = peak if row["exit"] not in ("cap", "timeout") else float(args.cap_mb)
            if peaks[games] > args.max_mb:
                failed.append(f"{name} at {games} games: peak {peaks[games]:.0f} MB > {args.max_mb:.0f} MB")
        if len(peaks) > 1:
            low, high = min(peaks), max(peaks)
            if peaks[high] > GROWTH * peaks[low]:
                failed.append(f"{name}: peak {peaks[high]:.0f} MB at {high} games > {GROWTH}x {peaks[low]:.0f} MB "
                              f"at {low} games")
    for why in failed:
        print(f"FAIL {why}")
    if os.environ.get("COST_JSON"):
        Path(os.environ["COST_JSON"]).write_text(json.dumps(rows, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
