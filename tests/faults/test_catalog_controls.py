"""Control characters in a catalog, in the forms round 4 did not try (issue 32): a bidi override or
embedding, a line or paragraph separator, a BOM in a translation; a control character in a msgctxt,
in the header, in a translator comment or an obsolete entry; a numeric escape in the .po string
syntax (`\\x1b`, `\\033`: msgfmt reads ESC, Babel the text itself); U+0085 (NEL) and escapes Babel
does read (`\\a`, `\\b`). Each is refused by build and check with its file and line, the character
shown as an escape; the bidi isolates right-to-left catalogs need are kept.
In-process (the library's render calls) on a copy of the project; check through the command line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from president.i18n.features import translated_features
from president.project.build import read_spec

from .support import catalog_refusal, president

RULES = Path("locales") / "ru" / "LC_MESSAGES" / "rules.po"
STEPS = Path("locales") / "ar" / "LC_MESSAGES" / "steps.po"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\ufeff]")


def _entry(text: str) -> tuple[int, int]:
    """(index of the first translated entry's msgid line, index of its msgstr line) in the catalog's lines."""
    lines = text.split("\n")
    header = lines.index('msgid ""')
    msgstr = next(i for i in range(header + 2, len(lines)) if lines[i].startswith('msgstr "') and lines[i] != 'msgstr ""')
    msgid = max(i for i in range(msgstr) if lines[i].startswith("msgid "))
    return msgid, msgstr


def _planted(path: Path, where: str, payload: str) -> int:
    """Write `payload` (as it stands: a raw character, or an escape in the .po syntax) at `where`; its line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    msgid, msgstr = _entry("\n".join(lines))
    if where == "msgstr":
        lines[msgstr] = lines[msgstr].replace('msgstr "', 'msgstr "' + payload, 1)
        at = msgstr
    elif where == "msgctxt":
        at = msgid - 1 if lines[msgid - 1].startswith("msgctxt") else msgid
        if at == msgid:
            lines.insert(at, f'msgctxt "x{payload}"')
        else:
            lines[at] = lines[at].replace('msgctxt "', 'msgctxt "' + payload, 1)
    elif where == "header":
        at = next(i for i, ln in enumerate(lines) if ln.startswith('"Last-Translator:'))
        lines[at] = f'"Last-Translator: {payload} <x@example.org>\\n"'
    elif where == "comment":
        lines.insert(msgid - 1 if lines[msgid - 1].startswith("msgctxt") else msgid, f"# a translator's note {payload}")
        at = next(i for i, ln in enumerate(lines) if ln.startswith("# a translator's note"))
    elif where == "obsolete":
        lines += [f'#~ msgid "gone {payload}"', '#~ msgstr "ушло"', ""]
        at = len(lines) - 3
    else:
        raise AssertionError(where)
    path.write_text("\n".join(lines), encoding="utf-8")
    return at + 1


FORMS = [  # (where, payload as written in the file, shown in the problem)
    ("msgstr", "\u202e", r"\u202e"),             # RLO: "Trojan Source"
    ("msgstr", "\u202a\u202c", r"\u202a"),       # LRE ... PDF
    ("msgstr", "\u2028", r"\u2028"),             # line separator
    ("msgstr", "\u2029", r"\u2029"),             # paragraph separator
    ("msgstr", "\ufeff", r"\ufeff"),             # a BOM inside the text
    ("msgstr", "\u0085", r"\x85"),               # NEL
    ("msgstr", "\\a", r"\x07"),                  # an escape Babel reads: BEL
    ("msgstr", "\\b", r"\x08"),
    ("msgstr", "\\x1b[2J", r"\x1b"),             # numeric escapes: msgfmt reads ESC, Babel the text
    ("msgstr", "\\033[2J", r"\033"),
    ("msgstr", "\\x9b", r"\x9b"),
    ("msgstr", "\\0", r"\0"),
    ("msgstr", "\\x41", r"\x41"),                # even a printable one: the two readers disagree
    ("msgctxt", "\x1b[2J", r"\x1b"),
    ("msgctxt", "\u202e", r"\u202e"),
    ("header", "\x1b]0;owned\x07", r"\x1b"),
    ("header", "\u202e", r"\u202e"),
    ("comment", "\x1b[2J", r"\x1b"),
    ("obsolete", "\u202e", r"\u202e"),
]


@pytest.mark.slow
@pytest.mark.parametrize("catalog", [RULES, STEPS], ids=["rules", "steps"])
@pytest.mark.parametrize("where, payload, shown", FORMS, ids=[f"{w}-{s}" for w, _, s in FORMS])
def test_a_control_character_in_any_form_is_refused_at_its_line(project, catalog, where, payload, shown):
    line = _planted(project / catalog, where, payload)
    problems = catalog_refusal(project, catalog).problems
    mine = [p for p in problems if p.line == line and shown in p.message]
    assert mine, (line, [str(p) for p in problems])
    assert all(not RAW.search(str(p)) for p in problems)


def test_the_bidi_isolates_of_a_right_to_left_catalog_are_kept(project):
    """What the refusals must not catch: the Arabic steps catalog's isolates (U+2066..U+2069)."""
    text = (project / STEPS).read_text(encoding="utf-8")
    assert "\u2066" in text and "\u2069" in text
    spec = read_spec(project / "spec" / "president.yaml")
    assert translated_features(spec, project, ("ar",))


@pytest.mark.slow
@pytest.mark.parametrize("where, payload, shown", [FORMS[0], FORMS[8], FORMS[15]], ids=["rlo", "numeric", "header"])
def test_check_refuses_each_form_in_one_line(project, where, payload, shown):
    line = _planted(project / RULES, where, payload)
    result = president(project, "check")
    assert result.returncode == 1, result.stderr
    found = [ln for ln in result.stderr.splitlines() if f"rules.po:{line}:" in ln and shown in ln]
    assert len(found) == 1, result.stderr
    assert not RAW.search(result.stdout + result.stderr) and "Traceback" not in result.stderr
