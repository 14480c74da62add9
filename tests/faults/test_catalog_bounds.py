"""Catalog and spec bounds (issue 27): a translation holding a control character (ESC starts a
terminal command) is refused by build and check with its file, line and the character escaped; a
hard-linked catalog is refused without being read, like a symlink out of the project; a clause
title over the schema's bound is refused, and `check` prints no line over 500 characters.
Run as the user would: `python -m president` in a copy of the project."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from i18n_support import edit_spec

from .support import president

SECRET = "TOP-SECRET-LINE do not print me"


def _first_translation(catalog: Path) -> tuple[int, str]:
    """(line, text) of the first msgstr after the header."""
    lines = catalog.read_text(encoding="utf-8").split("\n")
    header = lines.index('msgid ""')
    n = next(i for i in range(header + 2, len(lines)) if lines[i].startswith('msgstr "') and lines[i] != 'msgstr ""')
    return n + 1, lines[n]


def _spoil(catalog: Path, inserted: str) -> int:
    """Put `inserted` at the start of the first translation; its line."""
    line, text = _first_translation(catalog)
    lines = catalog.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = text.replace('msgstr "', 'msgstr "' + inserted, 1)
    catalog.write_text("\n".join(lines), encoding="utf-8")
    return line


def _one_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    found = [ln for ln in result.stderr.splitlines() if all(w in ln for w in words)]
    assert len(found) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return found[0]


@pytest.mark.parametrize("domain, inserted, shown", [
    ("rules", "\x1b[H\x1b[J", r"\x1b"),          # cursor home, clear the screen
    ("steps", "\x1b]8;;http://x.example\x07", r"\x07"),  # a terminal hyperlink
    ("rules", "\x08\x9bH", r"\x08, \x9b"),           # backspace, and CSI as one C1 character
])
@pytest.mark.parametrize("command", ["build", "check"])
@pytest.mark.slow
def test_a_control_character_in_a_translation_is_refused(project, domain, inserted, shown, command):
    catalog = project / "locales" / "ru" / "LC_MESSAGES" / f"{domain}.po"
    line = _spoil(catalog, inserted)
    sheets = {p: p.read_bytes() for p in sorted((project / "rules").iterdir())}
    result = president(project, command)
    assert result.returncode == 1, result.stderr
    _one_line(result, f"{domain}.po:{line}:", shown, "control character")
    assert "\x1b" not in result.stderr + result.stdout and "\x07" not in result.stderr + result.stdout
    assert {p: p.read_bytes() for p in sorted((project / "rules").iterdir())} == sheets
    assert not any(b"\x1b" in p.read_bytes() for p in (project / "features").rglob("*.feature"))


@pytest.mark.slow
def test_tab_and_newline_are_allowed(project):
    """The two control characters a translation may hold: the catalog check sees nothing wrong."""
    catalog = project / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    _spoil(catalog, "\\t")
    result = president(project, "check")
    assert "control character" not in result.stderr, result.stderr


@pytest.mark.parametrize("command", ["build", "check"])
@pytest.mark.slow
def test_a_hard_linked_catalog_is_refused_unread(project, tmp_path, command):
    secret = tmp_path / "passwd"
    secret.write_text(f"root:x:0:0:{SECRET}:/root:/bin/sh\n", encoding="utf-8")
    catalog = project / "locales" / "ru" / "LC_MESSAGES" / "rules.po"
    catalog.unlink()
    os.link(secret, catalog)
    result = president(project, command)
    assert result.returncode == 1
    assert SECRET not in result.stdout + result.stderr
    _one_line(result, "ru/LC_MESSAGES/rules.po", "hard links")


@pytest.mark.slow
def test_a_hard_linked_template_is_refused_unread(project, tmp_path):
    pot = project / "locales" / "extra.pot"
    secret = tmp_path / "secret.pot"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    os.link(secret, pot)
    result = president(project, "check")
    assert result.returncode == 1
    assert SECRET not in result.stderr
    _one_line(result, "extra.pot", "hard links")


@pytest.mark.slow
def test_a_huge_clause_title_is_refused_in_short_lines(project):
    def huge(data) -> None:
        data["clauses"][0]["title"] = "T" * 1_000_000
    edit_spec(project, huge)
    for command in ("check", "build"):
        result = president(project, command)
        assert result.returncode == 1
        assert max(len(ln) for ln in result.stderr.splitlines()) <= 500
        line = _one_line(result, "clauses[0].title", "is too long")
        assert re.search(r"1,000,\d{3} characters, cut", line), line


def test_the_schema_bounds_every_text():
    """Every string of the schema has a maxLength, unless its pattern bounds it (no * or +)."""
    schema = yaml.safe_load((Path(__file__).resolve().parents[2] / "spec" / "schema.json").read_text(encoding="utf-8"))
    unbounded = []

    def walk(node, where: str) -> None:
        if isinstance(node, dict):
            types = node.get("type")
            if (types == "string" or isinstance(types, list) and "string" in types) and "maxLength" not in node:
                if "pattern" not in node or "*" in node["pattern"] or "+" in node["pattern"]:
                    unbounded.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")
    walk(schema, "")
    assert unbounded == []
