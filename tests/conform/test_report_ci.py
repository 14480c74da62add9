"""The CI recipes of docs/ci.md: the engine repository's job, run step by step, and the pre-commit hook."""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest
import yaml
from report_support import ENGINES, ROOT

from president.cli.main import main

DOC = ROOT / "docs" / "ci.md"


def _job() -> dict:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    (job,) = workflow["jobs"].values()
    return job


@pytest.fixture
def shim(tmp_path):
    """A `president` on PATH that runs this checkout (the recipe's install step is pip's business)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "president"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m president "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


def _run_job(job: dict, workdir, shim, engine: str) -> list[tuple[str, subprocess.CompletedProcess]]:
    """Every `run:` step of the job in order, as GitHub runs it (bash -e -o pipefail), until one fails.
    The install step is left out; steps meant for main run too (this run plays a push to main)."""
    env = {**os.environ, **{k: str(v) for k, v in job["env"].items()}, "ENGINE": engine, "GAMES": "3",
           "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    done = []
    for step in job["steps"]:
        if "run" not in step or step.get("name") == "Install the toolkit":
            continue
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]],
                              cwd=workdir, env=env, capture_output=True, text=True, timeout=600)
        done.append((step["name"], proc))
        if proc.returncode != 0:
            break
    return done


def test_the_recipe_has_the_steps_it_describes():
    job = _job()
    steps = {s.get("name", s.get("uses")): s for s in job["steps"]}
    assert "pip install" in steps["Install the toolkit"]["run"]
    assert "president conform" in steps["Run the conformance suite"]["run"]
    assert "president report diff" in steps["Gate on new deviations"]["run"]
    upload = steps["Upload the reports"]
    assert upload["uses"].startswith("actions/upload-artifact@")
    restore = steps["Restore the last saved report"]
    assert restore["with"]["path"] == steps["Save it"]["with"]["path"] == "saved/conformance.json"


@pytest.mark.slow
def test_the_recipe_runs_and_gates_on_a_new_deviation(tmp_path, shim):
    job = _job()
    work = tmp_path / "engine-repo"
    work.mkdir()
    uploads = next(s for s in job["steps"] if s.get("name") == "Upload the reports")["with"]["path"].split()
    first = _run_job(job, work, shim, ENGINES["reference"])  # no saved report yet: it becomes the first
    assert [p.returncode for _, p in first] == [0] * len(first), [(n, p.stderr) for n, p in first]
    assert "no saved report yet" in dict(first)["Gate on new deviations"].stdout
    assert all((work / f).is_file() for f in uploads) and (work / "saved" / "conformance.json").is_file()
    again = _run_job(job, work, shim, ENGINES["reference"])  # the same engine again: the gate passes
    assert all(p.returncode == 0 for _, p in again)
    assert "no deviation new, gone or changed" in dict(again)["Gate on new deviations"].stdout
    broken = _run_job(job, work, shim, ENGINES["mutant"])  # a regression: the gate fails the job
    name, proc = broken[-1]
    assert name == "Gate on new deviations" and proc.returncode == 1
    assert re.search(r"^NEW\s", proc.stdout, re.M)
    assert all((work / f).is_file() for f in uploads)


def test_the_pre_commit_hook():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    (hook,) = hooks
    assert {"id", "name", "entry", "language", "pass_filenames", "files"} <= set(hook)
    assert hook["id"] == "president-check" and hook["language"] == "python" and hook["pass_filenames"] is False
    program, command = hook["entry"].split()
    assert program == "president" and command in main.commands  # the toolkit's script, one of its commands
    files = re.compile(hook["files"])
    for path in ("locales/ru/LC_MESSAGES/rules.po", "locales/rules.pot", "spec/president.yaml", "spec/schema.json"):
        assert files.search(path), path
    for path in ("README.md", "rules/ru.txt", "president/cli/main.py", "tests/spec/president.yaml"):
        assert not files.search(path), path
    assert f"id: {hook['id']}" in DOC.read_text(encoding="utf-8")
