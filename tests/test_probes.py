"""The probes of issue 13, one test each: a one-line error (what, where, what to do), exit 2 for usage
errors and 1 for problems found, never a traceback."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from i18n_support import ROOT, copy_project
from president.cli.main import main


def run(*args: str, code: int) -> str:
    result = CliRunner().invoke(main, list(args))
    text = result.output
    assert result.exit_code == code, text
    assert "Traceback" not in text and not isinstance(result.exception, (AssertionError, TypeError, KeyError))
    return text


@pytest.mark.parametrize("args,code,wanted", [
    (("conform", "--engine", "/nonexistent/engine", "--games", "0"), 2, "cannot start the engine"),
    (("conform", "--timeout", "nan"), 2, "'nan' is not a number of seconds"),
    (("conform", "--timeout", "-1"), 2, "not a number of seconds"),
    (("conform", "--games", "-1"), 2, "-1 is not in the range x>=0"),
    (("conform", "--games", "0", "-k", "no-such-scenario"), 2, "no scenario matches -k no-such-scenario"),
    (("conform", "--report-lang", "zz"), 2, "'zz' is not one of"),
    (("conform", "--hung-after", "0"), 2, "--hung-after"),
    (("conform", "--json", "/nonexistent/folder/r.json"), 2, "does not exist"),
    (("bench", "--players", "7", "--games", "1"), 2, "the game needs 3 to 6"),
    (("bench", "--games", "0"), 2, "--games"),
    (("tournament", "--seats", "medium,easy,easy,easy", "-k", "2", "--games", "1"), 2, "No such option '-k'"),
    (("tournament", "--seats", "medium,easy,wizard", "--games", "1"), 2, "unknown level(s) 'wizard'"),
])
def test_usage_errors(args, code, wanted):
    assert wanted in run(*args, code=code)


def test_help_lists_every_command_in_full():
    text = run("--help", code=0)
    for command in ("bench", "build", "check", "conform", "engine", "i18n", "tournament"):
        assert f"  {command} " in text
    assert "…" not in text and "..." not in text.split("Commands:")[1]


def test_every_option_has_help():
    import click
    for name, command in main.commands.items():
        commands = command.commands.values() if isinstance(command, click.Group) else [command]
        for cmd in commands:
            for param in cmd.params:
                if isinstance(param, click.Option):
                    assert param.help, f"{name} {cmd.name} {param.opts}"


def test_seats_help_lists_the_levels():
    assert "Levels: easy, medium, hard" in " ".join(run("tournament", "--help", code=0).split())


def test_build_outside_a_project_refuses_to_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "s.yaml"
    shutil.copy(ROOT / "spec" / "president.yaml", spec)
    text = run("build", "--spec", str(spec), code=2)
    assert "--out" in text and list(tmp_path.iterdir()) == [spec]


@pytest.mark.slow
def test_build_into_a_blocked_folder_writes_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "features").write_text("a file where a folder should be")
    text = run("build", "--out", str(out), code=1)
    assert "features is a file, not a folder" in text and "nothing written" in text
    assert sorted(p.name for p in out.iterdir()) == ["features"]


def test_build_summary_names_rules_and_features(tmp_path):
    text = run("build", "--out", str(tmp_path / "o"), code=0)
    assert "sheets in" in text and "features in" in text


@pytest.mark.parametrize("damage", ["missing", "broken"])
def test_a_missing_or_broken_template_is_one_line(tmp_path, monkeypatch, damage):
    import president.i18n.render as render
    templates = tmp_path / "templates"
    shutil.copytree(render.TEMPLATES_DIR, templates)
    sheet = templates / "sheet.j2"
    if damage == "missing":
        sheet.unlink()
    else:
        sheet.write_text(sheet.read_text(encoding="utf-8").replace("{%", "{% bogus", 1), encoding="utf-8")
    monkeypatch.setattr(render, "TEMPLATES_DIR", templates)
    render.environment.cache_clear()
    try:
        text = run("build", "--out", str(tmp_path / "o"), code=1)
    finally:
        render.environment.cache_clear()
    assert "sheet.j2" in text and ("missing" in text if damage == "missing" else "unknown tag 'bogus'" in text)
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_check_of_an_identical_spec_elsewhere_has_no_drift(tmp_path):
    spec = tmp_path / "president.yaml"
    shutil.copy(ROOT / "spec" / "president.yaml", spec)
    project = copy_project(tmp_path / "p")
    result = CliRunner().invoke(main, ["check", "--root", str(project), "--spec", str(spec)])
    assert "drift" not in result.output and "rules.pot" not in result.output, result.output


def _alias_bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 40)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("command", [("build", "--out", "OUT"), pytest.param(("check",), marks=pytest.mark.slow),
                                     ("conform", "--games", "0")])
def test_a_yaml_alias_bomb_fails_fast(tmp_path, command):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_alias_bomb())
    args = [a.replace("OUT", str(tmp_path / "o")) for a in command]
    text = run(*args, "--spec", str(bomb), code=1)  # at once: unbounded, it ran 70 s into a MemoryError
    assert "expands to more than" in text and "aliases" in text


@pytest.mark.slow
def test_an_oversized_spec_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * 3_000_000 + "\n")
    assert "over the limit" in run("check", "--spec", str(big), code=1)


@pytest.mark.parametrize("bad_line,wanted", [("players", 16), ("players: {min: 3, max: 6", 16)])
@pytest.mark.slow
def test_yaml_errors_are_reported_on_their_own_line(tmp_path, bad_line, wanted):
    lines = (ROOT / "spec" / "president.yaml").read_text(encoding="utf-8").split("\n")
    assert lines[15] == "players: {min: 3, max: 6}"
    lines[15] = bad_line
    spec = tmp_path / "s.yaml"
    spec.write_text("\n".join(lines), encoding="utf-8")
    assert f"s.yaml:{wanted}: " in run("check", "--spec", str(spec), code=1)


@pytest.mark.slow
def test_the_engine_survives_any_nesting_depth():
    lines = "[" * 100_000 + "\n" + '{"a":' * 5000 + "1" + "}" * 5000 + '\n{"cmd":"hello"}\n'
    out = subprocess.run([sys.executable, "-m", "president", "engine"], input=lines, capture_output=True,
                         text=True, timeout=60)
    replies = out.stdout.splitlines()
    assert len(replies) == 3 and '"bad_json"' in replies[0] and '"bad_json"' in replies[1]
    assert '"protocol":1' in replies[2] and "Traceback" not in out.stderr
