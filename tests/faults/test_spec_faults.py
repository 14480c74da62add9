"""Bombs, absurd specs and what check refuses (issue 21): each refused by `build` and `check`
alike, before anything is written, in one line per problem with its file and line; never a
traceback, a crash of a check, or a hang. Run as the user would: `python -m president` in a copy
of the project."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from .support import president

ROOT = Path(__file__).resolve().parents[2]


def _no_crash(result: subprocess.CompletedProcess[str]) -> None:
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "crashed" not in text and "internal error" not in text, text


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for folder in ("rules", "features")
            for p in sorted((root / folder).rglob("*")) if p.is_file()}


def _refused_by_build_and_check(root: Path, pattern: str) -> str:
    """build refuses (nothing written) and check reports the same problem; returns build's stderr."""
    before = _snapshot(root)
    build = president(root, "build")
    assert build.returncode == 1, build.stderr
    assert "nothing written" in build.stderr
    assert re.search(pattern, build.stderr), build.stderr
    assert _snapshot(root) == before
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    check = president(root, "check")
    assert check.returncode == 1
    assert re.search(pattern, check.stderr), check.stderr
    _no_crash(build)
    _no_crash(check)
    return build.stderr


RU = Path("locales") / "ru" / "LC_MESSAGES" / "rules.po"
RU_STEPS = Path("locales") / "ru" / "LC_MESSAGES" / "steps.po"


# --- catalogs: what check or msgfmt --check refuses, build refuses --------------------------------

@pytest.mark.slow
def test_format_width_bomb_is_refused_at_once(project):
    _edit(project / RU, 'msgstr "Версия %(name)s"', 'msgstr "Версия %(name)999999999s"')
    err = _refused_by_build_and_check(project, r"rules\.po:\d+: msgstr: the format directive '%\(name\)999999999s' "
                                               r"has a width or precision")
    assert not list((project / "rules").glob("*.tmp"))
    assert all(p.stat().st_size < 100_000 for p in (project / "rules").iterdir()), err


@pytest.mark.slow
def test_format_width_bomb_without_the_python_format_flag(project):
    text = (project / RU).read_text(encoding="utf-8").replace("#, python-format\n", "")
    (project / RU).write_text(text.replace('msgstr "Версия %(name)s"', 'msgstr "Версия %(name).99999999s"', 1),
                              encoding="utf-8")
    _refused_by_build_and_check(project, r"rules\.po:\d+: msgstr: the format directive .* width or precision")


@pytest.mark.slow
def test_a_heading_appended_to_a_translation(project):
    _edit(project / RU, 'msgstr "Версия %(name)s"', 'msgstr "Версия %(name)s\\n\\n# heading\\n"')
    _refused_by_build_and_check(project, r"rules\.po:\d+: msgstr has 3 line break\(s\)")


@pytest.mark.slow
def test_a_step_injected_through_a_steps_translation(project):
    path = project / RU_STEPS
    text = path.read_text(encoding="utf-8")
    m = re.search(r'msgstr "(у игрока \{seat:d\} нет карт)"', text)
    assert m, "the ru steps catalog changed: pick another message"
    path.write_text(text.replace(m.group(0), f'msgstr "{m.group(1)}\\n    Тогда игра окончена"', 1), encoding="utf-8")
    _refused_by_build_and_check(project, r"steps\.po:\d+: msgstr has 1 line break")


@pytest.mark.slow
def test_an_untranslated_clause_title_is_not_shipped_in_english(project):
    path = project / RU_STEPS
    text = path.read_text(encoding="utf-8")
    m = re.search(r'msgctxt "clause"\nmsgid "([^"]+)"\nmsgstr "[^"]+"', text)
    assert m
    path.write_text(text.replace(m.group(0), f'msgctxt "clause"\nmsgid "{m.group(1)}"\nmsgstr ""', 1), encoding="utf-8")
    before = _snapshot(project)
    build = president(project, "build")
    assert build.returncode == 1 and "no translation for" in build.stderr and m.group(1) in build.stderr
    assert _snapshot(project) == before
    check = president(project, "check")
    assert check.returncode == 1 and "untranslated" in check.stderr


@pytest.mark.parametrize("forms, why", [
    ("nplurals=3; plural=n%0;", "divides by zero for n = 0"),
    ("nplurals=3; plural=(n==1 ? 0 : 5);", "picks form 5 for n = 0, but nplurals=3"),
    ("nplurals=3; plural=n ? ;", "does not parse"),
    ("nplurals=x; plural=0;", "not of the form"),
])
@pytest.mark.slow
def test_a_bad_plural_forms_is_a_problem_with_its_line(project, forms, why):
    path = project / RU
    text = path.read_text(encoding="utf-8")
    start = text.index('"Plural-Forms:')
    end = text.index('\\n"\n', start) + 4
    line = text[:start].count("\n") + 1
    path.write_text(text[:start] + f'"Plural-Forms: {forms}\\n"\n' + text[end:], encoding="utf-8")
    _refused_by_build_and_check(project, rf"rules\.po:{line}: Plural-Forms .*{re.escape(why)}")


# --- the spec --------------------------------------------------------------------------------

SPEC = Path("spec") / "president.yaml"


@pytest.mark.slow
def test_duplicate_yaml_key_names_both_lines(project):
    _edit(project / SPEC, "variant: CardVerse\n", "variant: CardVerse\nvariant: Other\n")
    text = (project / SPEC).read_text(encoding="utf-8").splitlines()
    first = text.index("variant: CardVerse") + 1
    result = president(project, "check")
    assert result.returncode == 1
    assert f"spec/president.yaml:{first + 1}: duplicate key 'variant' (first on line {first})" in result.stderr
    _no_crash(result)


def test_two_titles_for_one_place(project):
    _edit(project / SPEC, "{place: 2, id: vice-president", "{place: 1, id: vice-president")
    result = president(project, "build")
    assert result.returncode == 1 and "place 1 already has a title" in result.stderr, result.stderr


@pytest.mark.slow
def test_deals_default_zero(project):
    _edit(project / SPEC, "deals: {type: int, default: 1, min: 1,", "deals: {type: int, default: 0, min: 0,")
    result = president(project, "check")
    assert result.returncode == 1
    assert "a game has at least 1 deal" in result.stderr and "default 0 is outside 1..1000" in result.stderr


@pytest.mark.parametrize("cards, message", [
    (8, "8 is greater than the maximum of 4"),
    (30, "30 is greater than the maximum of 4"),
])
def test_exchange_cards_beyond_the_bound(project, cards, message):
    _edit(project / SPEC, "{giver: -1, receiver: 1, cards: 2, min_players: 3}",
          f"{{giver: -1, receiver: 1, cards: {cards}, min_players: 3}}")
    result = president(project, "engine", "--spec", str(project / SPEC))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_exchange_whose_legal_list_would_be_too_long(project):
    """Within the schema's bound, but with 2 players and 4 cards the hand could reach 27 + 4 cards:
    C(31, 4) = 31,465 choices, over the 10,000 that `legal` ever lists."""
    _edit(project / SPEC, "players: {min: 3, max: 6}", "players: {min: 2, max: 6}")
    _edit(project / SPEC, "{giver: -1, receiver: 1, cards: 2, min_players: 3}",
          "{giver: -1, receiver: 1, cards: 4, min_players: 2}")
    result = president(project, "engine", "--spec", str(project / SPEC))
    assert result.returncode == 1
    assert "over the 10,000 legal actions" in result.stderr, result.stderr


def test_a_latin1_spec_is_named_with_the_offset(tmp_path):
    spec = tmp_path / "latin.yaml"
    spec.write_bytes("game: Président\n".encode("latin-1"))
    result = president(ROOT, "engine", "--spec", str(spec))
    assert result.returncode == 1
    assert f"{spec}:1: not valid UTF-8: byte 0xe9 at byte offset 8" in result.stderr, result.stderr
    _no_crash(result)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_spec_dev_zero_is_refused_without_reading(tmp_path):
    result = president(ROOT, "build", "--spec", "/dev/zero", "--out", str(tmp_path / "out"), timeout=120)
    assert result.returncode == 1 and "a character device, not a regular file" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_fifo_spec_is_refused_at_once(tmp_path):
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    result = president(ROOT, "check", "--spec", str(fifo), timeout=120)  # a hang raises TimeoutExpired
    assert result.returncode == 1 and "a FIFO (named pipe), not a regular file" in result.stderr


def test_a_huge_spec_is_refused_while_reading(tmp_path):
    spec = tmp_path / "huge.yaml"
    with spec.open("wb") as fh:
        fh.truncate(3_000_000_000)  # sparse: 3 GB that would take long to read in full
    result = president(ROOT, "engine", "--spec", str(spec), timeout=120)
    assert result.returncode == 1 and "over the limit of 2,000,000 bytes" in result.stderr
