"""A strict reading of .po/.pot files: what `msgfmt --check` refuses, refused here with file and line.

Babel's `read_po(abort_invalid=True)` stops on some errors only; it accepts an unterminated
string, a keyword without a string (`msgstr ,`), duplicate messages and placeholders that
differ between msgid and msgstr. `po_problems` lexes the file itself, line by line, and reports:

- syntax: unknown keywords, strings that are not terminated or hold invalid escapes, text after
  a string, a keyword without its string, entries out of order (msgstr before msgid, msgstr[n]
  without msgid_plural, missing msgstr);
- duplicate message definitions (same msgctxt and msgid), with the line of the first one;
- `#, python-format` (and `c-format`) entries whose translations use other placeholders than
  the msgid (a plural form may drop the count, as gettext allows);
- a plural entry whose number of msgstr[n] forms differs from the header's nplurals.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problem

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(?=[\s\"]|$)\s*(.*)$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"\s*$')
_ESCAPE = re.compile(r"\\(.)")
_VALID_ESCAPES = set('ntr"\\abfv01234567x')
_PY_FORMAT = re.compile(r"%(?:\(([^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)", re.S)
_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")
HINT = "fix the .po syntax; `msgfmt --check` refuses it too"
NUMERIC_HINT = "write the character itself, and never a control character"


@dataclass
class _Entry:
    line: int
    flags: set[str] = field(default_factory=set)
    fields: dict[str, list[str]] = field(default_factory=dict)  # keyword -> string pieces
    order: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    piece_lines: dict[str, list[int]] = field(default_factory=dict)  # keyword -> line of each piece

    def text(self, key: str) -> str:
        return "".join(self.fields.get(key, []))


def _string(body: str) -> tuple[str | None, str]:
    """The unescaped-enough content of a C string literal, or (None, why)."""
    if not body.startswith('"'):
        return None, "a string in double quotes was expected"
    m = _STRING.match(body)
    if not m:
        if body.count('"') == 1 or body.rstrip().endswith("\\\""):
            return None, "the string is not terminated"
        return None, "unexpected text after the string (an unescaped \" inside it?)"
    for esc in _ESCAPE.finditer(m.group(1)):
        if esc.group(1) not in _VALID_ESCAPES:
            return None, f"invalid escape sequence \\{esc.group(1)}"
        if esc.group(1) in "x01234567":
            return None, _numeric_escape(m.group(1)[esc.start():])
    return m.group(1), ""


_NUMERIC = re.compile(r"\\(?:x([0-9A-Fa-f]+)|([0-7]{1,3}))")


def _numeric_escape(text: str) -> str:
    """Why a numeric escape (`\\x1b`, `\\033`) is refused: msgfmt reads it as one character, Babel
    (which builds the sheets) as the text itself, so the two would disagree; most of them are
    control characters (ESC) that must not reach a sheet or a terminal."""
    m = _NUMERIC.match(text)
    if m is None:
        return "a \\x escape without hex digits"
    code = int(m.group(1), 16) if m.group(1) is not None else int(m.group(2), 8)
    what = f"U+{code:04X}" if code > 0x10FFFF or not chr(code).isprintable() or code in (0x20,) else repr(chr(code))
    kind = "the control character " if code < 0x20 or 0x7F <= code < 0xA0 else ""
    return (f"the numeric escape {m.group(0)[:12]} ({kind}{what}): msgfmt reads it as one character, Babel "
            "(which builds the sheets) as the text itself")


def _placeholders(text: str, style: str) -> tuple[list[str], str]:
    """Sorted directives of a python-format/c-format string, or an error text."""
    out = []
    for m in _PY_FORMAT.finditer(text):
        name, conv = m.group(1), m.group(2)
        if conv == "%" and name is None:
            continue
        if conv not in "diouxXeEfFgGcrsa":
            return [], f"invalid {style} directive {m.group(0)!r}"
        out.append(f"%({name}){conv}" if name is not None else f"%{conv}")
    if text.rstrip().endswith("%") and not text.rstrip().endswith("%%"):
        return [], f"the {style} string ends with a lone %"
    return sorted(out), ""


def po_problems(path: Path | str, data: bytes | None = None, formats: bool = True) -> list[Problem]:
    """Every problem `msgfmt --check` would report on this catalog (as far as it is known here)."""
    path = Path(path)
    file = str(path)
    if data is None:
        data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data[:exc.start].count(b"\n") + 1
        return [Problem(file, bad_line, "", "the file is not valid UTF-8", "save it as UTF-8")]
    problems: list[Problem] = []
    entries: list[_Entry] = []
    cur: _Entry | None = None
    last: str | None = None  # the keyword a continuation string extends
    flags: set[str] = set()

    def bad(lineno: int, message: str) -> None:
        problems.append(Problem(file, lineno, "", message, NUMERIC_HINT if "numeric escape" in message else HINT))

    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            last = None
            continue
        if line.startswith("#"):
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            last = None
            continue
        if line.startswith('"'):
            if last is None or cur is None:
                bad(lineno, "a string continues no keyword")
                continue
            value, why = _string(line)
            if value is None:
                bad(lineno, why)
            else:
                cur.fields[last].append(value)
                cur.piece_lines.setdefault(last, []).append(lineno)
            continue
        m = _KEYWORD.match(line)
        if not m:
            bad(lineno, f"unknown keyword or garbage: {line[:60]!r}")
            last = None
            continue
        key, body = m.group(1), m.group(3)
        if key == "msgctxt" or (key == "msgid" and (cur is None or "msgid" in cur.fields
                                                    or "msgctxt" not in cur.fields)):
            cur = _Entry(lineno, flags)
            entries.append(cur)
            flags = set()
        if cur is None:
            bad(lineno, f"{key} before any msgid")
            cur = _Entry(lineno, flags)
            entries.append(cur)
        if key in cur.fields:
            bad(lineno, f"{key} given twice in one entry")
        cur.fields[key] = []
        cur.piece_lines[key] = []
        cur.order.append(key)
        cur.lines[key] = lineno
        last = key
        value, why = _string(body)
        if value is None:
            bad(lineno, f"{key}: {why}" if body else f"{key} is not followed by a string")
        else:
            cur.fields[key].append(value)
            cur.piece_lines[key].append(lineno)
    problems += _entry_problems(file, entries, formats)
    return sorted(problems, key=lambda p: p.line or 0)


def _entry_problems(file: str, entries: list[_Entry], formats: bool = True) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[tuple[str | None, str], int] = {}
    nplurals = None
    for e in entries:
        if e.text("msgid") == "" and "msgctxt" not in e.fields:
            m = _NPLURALS.search(e.text("msgstr").replace("\\n", "\n"))
            nplurals = int(m.group(1)) if m else None
            problems += _plural_forms_problems(file, e)
    for e in entries:
        keys = e.order
        if "msgid" not in e.fields:
            problems.append(Problem(file, e.line, "", "entry without msgid", HINT))
            continue
        plural = "msgid_plural" in e.fields
        forms = sorted(int(k[7:-1]) for k in keys if k.startswith("msgstr["))
        if plural:
            if "msgstr" in e.fields:
                problems.append(Problem(file, e.lines["msgstr"], "", "a plural entry needs msgstr[n], not msgstr", HINT))
            if not forms:
                problems.append(Problem(file, e.line, "", "msgid_plural without msgstr[0]", HINT))
            elif forms != list(range(len(forms))):
                problems.append(Problem(file, e.line, "", f"msgstr[n] forms are not numbered 0..n: {forms}", HINT))
            elif nplurals is not None and len(forms) != nplurals:
                problems.append(Problem(file, e.line, "", f"{len(forms)} plural forms, the header's Plural-Forms "
                                        f"says nplurals={nplurals}", "give one msgstr[n] per plural form"))
        elif forms:
            problems.append(Problem(file, e.lines[f"msgstr[{forms[0]}]"], "", "msgstr[n] without msgid_plural", HINT))
        elif "msgstr" not in e.fields:
            problems.append(Problem(file, e.line, "", "msgid without msgstr", HINT))
        key = (e.text("msgctxt") if "msgctxt" in e.fields else None, e.text("msgid"))
        if key in seen:
            problems.append(Problem(file, e.line, "", f"duplicate message definition of {key[1]!r} "
                                    f"(first defined on line {seen[key]})", "remove one of the two entries"))
        else:
            seen[key] = e.line
        if formats:
            problems += _format_problems(file, e, plural)
        if e.text("msgid"):
            problems += _layout_problems(file, e, plural)
    return problems


#: A %-directive with a field width or a precision, named or not: `%(name)999999999s`, `%.9d`.
_SIZED = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(?:\*|\d|\.)")
#: What a translation may not add to its message: a line break (a new Gherkin step, a Markdown
#: heading or list in the sheets), a carriage return, a form feed or a vertical tab.
_BREAKS = ("\\n", "\\r", "\\f", "\\v")


def _layout_problems(file: str, e: _Entry, plural: bool) -> list[Problem]:
    """Translations that would change the layout of what is rendered from them: a line break the
    msgid does not have (the same count of each, as `msgfmt --check` compares the first and last),
    and any width or precision in a format directive (`%(name)999999999s` writes a gigabyte)."""
    out: list[Problem] = []
    sources = [e.text("msgid")] + ([e.text("msgid_plural")] if plural else [])
    for k in [k for k in e.order if k.startswith("msg")]:
        text = e.text(k)
        sized = _SIZED.search(text.replace("%%", "\0\0"))
        if sized:
            whole = _PY_FORMAT.match(text, sized.start())
            out.append(Problem(file, e.lines[k], "", f"{k}: the format directive "
                               f"{(whole.group(0) if whole else sized.group(0))[:40]!r} has a width or precision",
                               "write the placeholder as the msgid does, e.g. %(name)s"))
        if not k.startswith("msgstr") or not text:
            continue
        broken = False
        for brk in _BREAKS:
            if all(text.count(brk) != src.count(brk) for src in sources):
                broken = True
                out.append(Problem(file, e.lines[k], "", f"{k} has {text.count(brk)} line break(s) {brk}, the msgid "
                                   f"{sources[0].count(brk)}", "a translation keeps the msgid's line breaks; write it "
                                   "on one line (a break would add a step or a heading where it is rendered)"))
                break
        if not broken and (text.startswith("\\n") != sources[0].startswith("\\n")
                           or text.endswith("\\n") != sources[0].endswith("\\n")):
            out.append(Problem(file, e.lines[k], "", f"{k} and msgid do not both begin and end alike with \\n", HINT))
    return out


_PLURAL_FORMS = re.compile(r"Plural-Forms:\s*(.*?)(?:\\n|$)", re.I)


def _plural_forms_problems(file: str, header: _Entry) -> list[Problem]:
    """The header's Plural-Forms: a plain C expression of n (president.i18n.plurals) that for every n in 0..1000 picks
    one of the nplurals forms (no division by zero, no form past the last)."""
    pieces, lines = header.fields.get("msgstr", []), header.piece_lines.get("msgstr", [])
    m = _PLURAL_FORMS.search("".join(pieces))
    if not m:
        return []
    why = plural_forms_error(m.group(1).strip().replace('\\"', '"'))
    if not why:
        return []
    line = next((ln for text, ln in zip(pieces, lines) if "plural-forms:" in text.lower()), header.line)
    return [Problem(file, line, "", f"Plural-Forms {m.group(1).strip()[:100]!r}: {why}",
                    "write the Plural-Forms of the language (`president i18n update` writes it)")]


def plural_forms_error(value: str) -> str:
    """What is wrong with a Plural-Forms value (`nplurals=N; plural=EXPR;`), or '': anything but a
    plain C expression of n is refused unread (president.i18n.plurals)."""
    from .plurals import plural_problem
    return plural_problem(value) or ""


def _format_problems(file: str, e: _Entry, plural: bool) -> list[Problem]:
    style = "python-format" if "python-format" in e.flags else "c-format" if "c-format" in e.flags else None
    if style is None:
        return []
    out: list[Problem] = []
    want, why = _placeholders(e.text("msgid"), style)
    if why:
        return [Problem(file, e.lines["msgid"], "", f"msgid: {why}", HINT)]
    want_plural = _placeholders(e.text("msgid_plural"), style)[0] if plural else want
    strings = [k for k in e.order if k.startswith("msgstr")]
    for k in strings:
        text = e.text(k)
        if not text:
            continue
        got, why = _placeholders(text, style)
        if why:
            out.append(Problem(file, e.lines[k], "", f"{k}: {why}", HINT))
            continue
        if plural:  # a form may leave out the count, never add or change a placeholder
            ok = set(got) <= set(want) | set(want_plural)
        else:
            ok = set(got) == set(want)
        if not ok:
            out.append(Problem(file, e.lines[k], "", f"{k} uses the placeholders {' '.join(got) or '(none)'}, "
                               f"the msgid {' '.join(want) or '(none)'} ({style})",
                               "use exactly the msgid's placeholders"))
    return out
