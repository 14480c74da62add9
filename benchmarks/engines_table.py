"""The diagnosis, wall time and peak memory of a default `president conform` on every in-tree engine.

    python benchmarks/engines_table.py [--games N] [--only SUBSTRING] [--keep DIR] [--timeout S]
    # default: every engine of tests/engines/expected.json plus `president engine`, default games

Runs `president conform --engine CMD --json REPORT` (nothing else: the run an engine author makes)
against each engine, one at a time, from the repository root. Wall time is the run's; peak memory
is the largest resident set of the run or any process it waited for (the engine, a worker), from
`os.wait4` of that run alone. Prints a markdown table: engine | expected clauses | reported |
fitted | followed / not followable (reason) | toolkit errors | wall | peak memory. In `reported`, a
clause that is neither an expected clause nor one of its `or` is marked `!`, `×2` counts the
deviations filed under one clause; an expected cause that
no reported clause covers is listed as `missing`.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT / "tests" / "engines" / "expected.json"
REFERENCE = {"command": "president engine", "clauses": [], "deviations": [], "fitted": {}, "partly_by": []}


def argv_of(command: str) -> list[str]:
    words = shlex.split(command)
    if words[:2] == ["president", "engine"]:
        return [sys.executable, "-m", "president", "engine", *words[2:]]
    program = {"python": sys.executable, "node": shutil.which("node") or "node"}.get(words[0], words[0])
    return [program, *(str(ROOT / w) if w.startswith("tests/") else w for w in words[1:])]


def measure(entry: dict[str, Any], games: int | None, report: Path, timeout: float) -> dict[str, Any]:
    """Run one default conform; its exit code, wall seconds, peak RSS in MB and the JSON report."""
    cmd = [sys.executable, "-m", "president", "conform", "--engine", shlex.join(argv_of(entry["command"])),
           "--json", str(report)]
    if games is not None:
        cmd += ["--games", str(games)]
    t0 = time.perf_counter()
    with open(report.with_suffix(".txt"), "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: keep Popen from waiting again
    wall = time.perf_counter() - t0
    data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    # Linux reports ru_maxrss in KiB: the largest of the run and of every process it waited for
    return {"exit": proc.returncode, "wall": wall, "peak_mb": usage.ru_maxrss / 1024, "data": data}


def _variant_text(variant: Any) -> str:
    if isinstance(variant, dict):
        variant = variant.items()
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in variant) if variant else ""


def row(entry: dict[str, Any], run: dict[str, Any]) -> list[str]:
    data = run["data"]
    expected = ", ".join(entry["clauses"]) or "none"
    if data is None:
        return [f"`{entry['command']}`", expected, f"no report (exit {run['exit']})", "", "", "", f"{run['wall']:.1f} s",
                f"{run['peak_mb']:.0f} MB"]
    allowed = {c for d in entry["deviations"] for c in (d["clause"], *d["or"])}
    named = [d["clause"] for d in data.get("deviations", [])]
    counts = collections.Counter(named)  # a clause twice: two deviations (mechanisms) under it
    shown = [c + (f" ×{counts[c]}" if counts[c] > 1 else "") + ("" if c in allowed else " !") for c in counts]
    missing, unmatched = [], list(named)  # each expected cause needs a deviation of its own
    for dev in sorted(entry["deviations"], key=lambda d: len(d["or"])):
        match = next((c for c in unmatched if c in {dev["clause"], *dev["or"]}), None)
        if match is None:
            missing.append(dev["clause"])
        else:
            unmatched.remove(match)
    reported = ", ".join(shown) or "none"
    if missing:
        reported += f"; missing: {', '.join(missing)}"
    fit = data.get("fit") or {}
    fitted = _variant_text(fit.get("variant")) or "none"
    partly = [j.get("variant", "") for j in fit.get("partly_explained", [])]
    if partly:
        fitted += f"; partly: {'; '.join(partly)}"
    lockstep = data.get("lockstep") or {}
    unfinished = lockstep.get("unfinished") or []
    reasons = collections.Counter(_reason(u.get("why", "")) for u in unfinished)
    games = lockstep.get("games", 0)
    followed = f"{games - len(unfinished)}/{games}"
    if reasons:
        followed += " / " + ", ".join(f"{n} {why}" for why, n in reasons.most_common(3))
    errors = len(data.get("toolkit_errors") or []) + len(fit.get("toolkit_errors") or [])
    return [f"`{entry['command']}`", expected, reported, fitted, followed, str(errors),
            f"{run['wall']:.1f} s", f"{run['peak_mb']:.0f} MB"]


def _reason(why: str) -> str:
    """`not followable: position.passed: seat 2 is to act: it cannot have passed: pass.final` -> its clause."""
    found = re.findall(r"[a-z]+(?:\.[a-z0-9-]+)+", why)
    return f"not followable ({found[-1]})" if found else why[:60]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=None, help="lock-step games (default: conform's own)")
    parser.add_argument("--only", default=None, help="only the engines whose command contains this")
    parser.add_argument("--keep", type=Path, default=None, help="keep each report (JSON and text) in this folder")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before a run is stopped")
    args = parser.parse_args(argv)
    entries = [REFERENCE, *json.loads(EXPECTED.read_text(encoding="utf-8"))["engines"]]
    if args.only:
        entries = [e for e in entries if args.only in e["command"]]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="engines_table."))
    folder.mkdir(parents=True, exist_ok=True)
    header = ["engine", "expected clauses", "reported", "fitted", "followed / not followable (reason)",
              "toolkit errors", "wall", "peak memory"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for i, entry in enumerate(entries):
        if entry["command"].startswith("node") and shutil.which("node") is None:
            continue
        run = measure(entry, args.games, folder / f"{i:02d}.json", args.timeout)
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row(entry, run)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
