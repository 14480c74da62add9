"""Peak memory, wall time and report sizes of `president conform` against hostile engines (issues 27, 32).

    python benchmarks/hostile_engines.py                      # every case, -n 5, this checkout
    python benchmarks/hostile_engines.py -k setup.rank-order -n 1   # every case on three scenarios
    python benchmarks/hostile_engines.py --root /work/main -n 2 --cap-mb 3000 huge-refusal

Each case runs `python -m president conform --engine "python tests/faults/fake_engine.py MODE" -n N`
from `--root` (the checkout whose conform is measured; the fake engines come from this checkout),
writing --json, --junit, --cucumber-json and --html, and reports: the exit code, the peak RSS of the
run (the largest of conform and the engines it waited for: `os.wait4`'s rusage), the wall time, the
size of each report and of all four, the run's stop (the JSON's `stopped.kind`; `-` when it went to
its end; `none` when no JSON was written) and the deviations it found, how many engine processes
were left running, and the last line conform printed on stderr. A case's own `-k` or `-n` wins over
the command line's. `--cap-mb` bounds the address space of the run (RLIMIT_AS), so that measuring an unbounded
version cannot take the machine's memory.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FAKE = HERE / "tests" / "faults" / "fake_engine.py"

#: case -> (fake engine mode, its environment, conform's extra arguments)
CASES: dict[str, tuple[str, dict[str, str], tuple[str, ...]]] = {
    "huge-refusal": ("huge-refusal", {"FAKE_SIZE": "5000000"}, ()),
    "legal-flood": ("legal-flood", {"FAKE_COUNT": "20000"}, ()),
    "legal-dups": ("legal-dups", {}, ()),
    "drip": ("drip", {"FAKE_RATE": "200"}, ()),
    "stray": ("stray", {}, ()),
    "setsid-exit": ("setsid-exit", {}, ()),
    # within the protocol's bound: not a fault, so the run compares every reply and keeps it in its
    # traces (compactly: `conform.trace.Actions`)
    "legal-at-bound": ("legal-flood", {"FAKE_COUNT": "10000"}, ()),
    # issue 32: runs that stop still write every report, with the stop
    "hang": ("hang", {}, ("--timeout", "1")),
    "hang-in-lockstep": ("hang-at", {"FAKE_AT": "600"}, ("--timeout", "1", "-n", "20")),
    "crash-for-good": ("crash-for-good", {}, ()),
    "log-stdout": ("log-stdout", {}, ()),
    "budget": ("plain", {}, ("--budget", "5", "-n", "2000")),
    # one request answered twice (late: read as a later request's reply), never a deviation
    "twice-state-late": ("twice-at", {"FAKE_CMD": "state", "FAKE_AT": "1", "FAKE_LATE": "0.3"}, ("-k", "play.*")),
    "twice-refusal-late": ("twice-at", {"FAKE_CMD": "act", "FAKE_AT": "1", "FAKE_LATE": "0.3", "FAKE_REFUSE": "1"},
                           ("-k", "play.*")),
    "twice-hello": ("twice-at", {"FAKE_CMD": "hello", "FAKE_AT": "1"}, ()),
    # a huge text in other fields than a refusal's message
    **{f"huge-{where}": ("huge-field", {"FAKE_FIELD": where, "FAKE_SIZE": size}, ()) for where, size in (
        ("code", "1000000"), ("rule", "1000000"), ("distinct", "1000000"), ("hello-name", "5000000"),
        ("state-phase", "1000000"), ("action-type", "1000000"))},
}
#: Cases run when none is named.
DEFAULT = list(CASES)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _verdict(path: Path) -> tuple[str, object]:
    """The run's stop as its JSON report says (`-`: it went to its end; `none`: no JSON written), and
    how many deviations it found."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return "none", "-"
    stopped = data.get("stopped")
    return (stopped.get("kind", "?") if isinstance(stopped, dict) else "-"), len(data.get("deviations") or [])


def run_case(name: str, root: Path, games: int, cap_mb: int | None, limit: float,
             pattern: str | None = None) -> dict[str, object]:
    mode, env, extra = CASES[name]
    with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as tmp:
        out = Path(tmp)
        reports = {"json": out / "r.json", "junit": out / "r.xml", "cucumber": out / "r.cucumber.json",
                   "html": out / "r.html"}
        argv = [sys.executable, "-m", "president", "conform", "--engine", f"{sys.executable} {FAKE} {mode}",
                "-n", str(games), "--json", str(reports["json"]), "--junit", str(reports["junit"]),
                "--cucumber-json", str(reports["cucumber"]), "--html", str(reports["html"]),
                *(("-k", pattern) if pattern and "-k" not in extra else ()), *extra]
        pids = out / "pids"

        def limits() -> None:
            if cap_mb:
                resource.setrlimit(resource.RLIMIT_AS, (cap_mb << 20, cap_mb << 20))

        environ = {**os.environ, **env, "PYTHONPATH": str(root), "FAKE_PIDS": str(pids),
                   "FAKE_MARKER": str(out / "marker")}
        start = time.monotonic()
        proc = subprocess.Popen(argv, cwd=root, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                preexec_fn=limits, start_new_session=True)
        timed_out = False
        try:
            _, err = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
        seconds = time.monotonic() - start
        # the largest child so far: `main` runs each case in a process of its own, so this run's peak
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        time.sleep(0.5)
        left = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        orphans = [p for p in left if _alive(p)]
        for p in orphans:  # the benchmark leaves nothing behind either
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        lines = err.decode("utf-8", "replace").strip().splitlines()
        sizes = {k: (p.stat().st_size if p.exists() else None) for k, p in reports.items()}
        return {"case": name, "exit": "timeout" if timed_out else proc.returncode, "peak_mb": peak_kb / 1024,
                "seconds": seconds, **sizes, "all": sum(v or 0 for v in sizes.values()),
                **dict(zip(("stop", "devs"), _verdict(reports["json"]))),
                "orphans": len(orphans), "last": (lines[-1] if lines else "")[:160]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help=f"cases to run (default: {', '.join(DEFAULT)})")
    parser.add_argument("--root", type=Path, default=HERE, help="checkout whose conform is measured")
    parser.add_argument("-n", "--games", type=int, default=5)
    parser.add_argument("-k", dest="pattern", help="only the scenarios matching this -k pattern (all by default)")
    parser.add_argument("--cap-mb", type=int, default=None, help="address-space cap of each run (MB)")
    parser.add_argument("--limit", type=float, default=900.0, help="seconds before a run is killed")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one case, print its row
    args = parser.parse_args()
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(CASES)}")
    if args.one:
        row = run_case(args.one, args.root.resolve(), args.games, args.cap_mb, args.limit, args.pattern)
        print(json.dumps(row))
        return 0
    print(f"conform of {args.root}, -n {args.games}" + (f", -k {args.pattern}" if args.pattern else "")
          + (f", capped at {args.cap_mb} MB" if args.cap_mb else ""))
    print(f"{'case':<22}{'exit':>8}{'peak MB':>9}{'wall s':>8}{'json B':>10}{'junit B':>10}{'cucumber B':>11}"
          f"{'html B':>9}{'all B':>10}  {'stop':<10}{'devs':>5}{'orphans':>8}  last line on stderr")
    for name in args.cases or DEFAULT:  # each case in a process of its own: RUSAGE_CHILDREN is that case's peak only
        cmd = [sys.executable, __file__, "--one", name, "--root", str(args.root), "-n", str(args.games),
               "--limit", str(args.limit)] + (["--cap-mb", str(args.cap_mb)] if args.cap_mb else []) + (
            ["-k", args.pattern] if args.pattern else [])
        row = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
        print(f"{row['case']:<22}{row['exit']!s:>8}{row['peak_mb']:>9.0f}{row['seconds']:>8.1f}{row['json']!s:>10}"
              f"{row['junit']!s:>10}{row['cucumber']!s:>11}{row['html']!s:>9}{row['all']!s:>10}  {row['stop']:<10}"
              f"{row['devs']!s:>5}{row['orphans']:>8}  {row['last'][:100]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
