"""Saved conformance reports for the `president report` tests: real runs of a few games, each made
once per test process (the reference engine, an in-tree engine with house rules, a mutant)."""
from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[2]
ENGINES = {
    "reference": f"{sys.executable} -m president engine",
    "house": f"{sys.executable} {ROOT / 'tests' / 'engines' / 'pyres.py'} house",
    "mutant": f"{sys.executable} {ROOT / 'tests' / 'mutants' / 'mutant.py'} ties-allowed",
}
GAMES = ("--games", "3", "--shrink", "2")


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def president(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "president", *map(str, args)], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=600)


def report(*args: Any) -> Result:
    """`president report ARGS` in this process: exit code, stdout and stderr apart."""
    from president.cli.main import main

    return CliRunner().invoke(main, ["report", *map(str, args)])


@dataclass
class Saved:
    path: Path
    stdout: str  # what the run printed
    code: int

    def data(self) -> dict[str, Any]:
        return json.loads(self.path.read_text(encoding="utf-8"))

    def copy(self, folder: Path, name: str, change=None) -> Path:  # type: ignore[no-untyped-def]
        """The report written again under `folder/name`, after `change(data)` if given."""
        data = self.data()
        if change is not None:
            change(data)
        out = folder / name
        out.write_text(json.dumps(data), encoding="utf-8")
        return out


@cache
def saved(name: str) -> Saved:
    folder = Path(tempfile.mkdtemp(prefix="president-reports-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / f"{name}.json"
    run = president("conform", "--engine", ENGINES[name], *GAMES, "--json", path)
    assert run.returncode in (0, 1) and path.is_file(), run.stderr
    return Saved(path, run.stdout, run.returncode)
