"""Write a Babel catalog as GNU gettext writes it (`msgmerge`, `msgcat`), so that running
`msgmerge -U` on one of our catalogs changes nothing.

- Strings wrap at 79 columns where UAX #14 allows a break (president.i18n.linebreak), after
  each `\\n`, never inside an escape sequence nor just before a final `\\n`; a string that
  wraps, or holds a `\\n` before its end, starts with `msgid ""`. A word longer than the line
  stays whole.
- `#:` references wrap at 79 columns; `#,` flags put `fuzzy` first; a fuzzy message keeps its
  previous msgid as `#| msgctxt` / `#| msgid` / `#| msgid_plural` lines (what `msgmerge
  --previous` writes), so Poedit and Weblate can show what changed in the source.
- A `# | msgid` translator comment (what `pybabel update` makes of a `#| msgid` line: Babel
  reads previous strings as comments, python-babel/babel#206) is turned back into the previous
  string it was (`restore_previous`), or dropped on an entry that is no longer fuzzy, as
  msgmerge drops it; `president check` reports any left in a file.
- The header fields come in gettext's order, the charset is spelled `UTF-8`, there is no
  POT-Creation-Date and a fixed PO-Revision-Date (reproducible files).
"""
from __future__ import annotations

import re
from typing import Iterable, cast

from babel.messages.catalog import Catalog, Message

from .linebreak import char_width, possible_breaks

PAGE_WIDTH = 79
#: The PO-Revision-Date of every written file: a fixed value keeps the files reproducible and
#: `msgfmt --check` quiet (it warns when the field is missing); the real dates are in git.
REVISION_DATE = "1970-01-01 00:00+0000"
#: gettext's order of the header fields it knows (msgl-header.c); other fields follow.
HEADER_ORDER = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date", "PO-Revision-Date",
                "Last-Translator", "Language-Team", "Language", "MIME-Version", "Content-Type",
                "Content-Transfer-Encoding", "Plural-Forms")
_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v", "\\": "\\", '"': '"'}


def _escaped(portion: str) -> tuple[str, list[bool]]:
    """The portion as written between quotes, and where a break is forbidden (inside escapes)."""
    chars: list[str] = []
    forbid: list[bool] = []
    for ch in portion:
        if ch in _ESCAPES:
            chars += ["\\", _ESCAPES[ch]]
            forbid += [False, True]
        else:
            chars.append(ch)
            forbid.append(False)
    if portion.endswith("\n"):
        forbid[-2] = True  # never break just before the final \n
    return "".join(chars), forbid


def _width_breaks(text: str, forbid: list[bool], width: int, start: int) -> list[bool]:
    """Greedy line breaking (libunistring's u8_width_linebreaks): True where a line ends before text[i]."""
    possible = [b and not f for b, f in zip(possible_breaks(text), forbid)]
    out = [False] * len(text)
    last: int | None = None
    column, piece = start, 0
    for i, ch in enumerate(text):
        if possible[i]:
            if last is not None and column + piece > width:
                out[last] = True
                column = 0
            last = i
            column += piece
            piece = 0
        piece += char_width(ch)
    if last is not None and column + piece > width:
        out[last] = True
    return out


def _portions(value: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for i, ch in enumerate(value):
        if ch == "\n":
            parts.append(value[start:i + 1])
            start = i + 1
    if start < len(value) or not parts:
        parts.append(value[start:])
    return parts


def wrap(name: str, value: str, prefix: str = "") -> list[str]:
    """The lines of `name "value"` (name: msgid, msgstr[0], ...), each `prefix`ed (`#~ `, `#| `)."""
    lines: list[str] = []
    first = True
    portions = _portions(value)
    after_break = len(prefix) + 1
    width = PAGE_WIDTH - 1 - after_break
    for n, portion in enumerate(portions):
        text, forbid = _escaped(portion)

        def start_column(first_line: bool) -> int:
            return len(prefix) + (len(name) + 1 if first_line else 0) + 1 - after_break

        breaks = _width_breaks(text, forbid, width, start_column(first))
        if first and text and (n < len(portions) - 1 or start_column(True) > width or any(breaks)):
            lines.append(f'{prefix}{name} ""')
            first = False
            breaks = _width_breaks(text, forbid, width, start_column(False))
        pieces, last = [], 0
        for i, cut in enumerate(breaks):
            if cut:
                pieces.append(text[last:i])
                last = i
        pieces.append(text[last:])
        for k, piece in enumerate(pieces):
            head = f"{name} " if first and k == 0 else ""
            lines.append(f'{prefix}{head}"{piece}"')
        first = False
    return lines


def _references(locations: Iterable[tuple[str, int | None]]) -> list[str]:
    lines: list[str] = []
    line, column = "#:", 2
    seen = set()
    for filename, lineno in locations:
        ref = f"{filename}:{lineno}" if lineno else filename
        if ref in seen:
            continue
        seen.add(ref)
        if column > 2 and column + len(ref) + 1 > PAGE_WIDTH:
            lines.append(line)
            line, column = "#:", 2
        line += " " + ref
        column += len(ref) + 1
    if column > 2:
        lines.append(line)
    return lines


def _comment(mark: str, text: str) -> str:
    return f"#{mark} {text}" if text else f"#{mark}"


def _strings(msg: Message, num_plurals: int, prefix: str = "") -> list[str]:
    lines: list[str] = []
    if msg.context is not None:
        lines += wrap("msgctxt", msg.context, prefix)
    if isinstance(msg.id, (list, tuple)):
        lines += wrap("msgid", msg.id[0], prefix)
        lines += wrap("msgid_plural", msg.id[1], prefix)
        strings = list(msg.string) if isinstance(msg.string, (list, tuple)) else [msg.string or ""]
        for i in range(max(num_plurals, 1)):
            lines += wrap(f"msgstr[{i}]", strings[i] if i < len(strings) and strings[i] else "", prefix)
    else:
        lines += wrap("msgid", msg.id, prefix)
        lines += wrap("msgstr", cast(str, msg.string or ""), prefix)  # a singular message's string is a str
    return lines


#: gettext's order of the format languages (format.h): their flags follow `fuzzy` in this order.
FORMAT_ORDER = ("c objc python python-brace java java-printf csharp javascript scheme lisp elisp librep ruby "
                "sh awk lua object-pascal smalltalk qt qt-plural kde kde-kuit boost tcl perl perl-brace php "
                "gcc-internal gfc-internal ycp").split()


def _flag_rank(flag: str) -> tuple[int, str]:
    if flag == "fuzzy":
        return (-1, flag)
    name = flag.removeprefix("no-").removesuffix("-format")
    if flag.endswith("-format") and name in FORMAT_ORDER:
        return (FORMAT_ORDER.index(name), flag)
    return (len(FORMAT_ORDER), flag)


def _flags(msg: Message) -> list[str]:
    flags = sorted(msg.flags, key=_flag_rank)
    return ["#, " + ", ".join(flags)] if flags else []


#: A previous string read as a translator comment: `| msgid "..."` or its continuation `| "..."`.
PREVIOUS_COMMENT = re.compile(r'^\|\s*(msgctxt|msgid_plural|msgid)?\s*"((?:[^"\\]|\\.)*)"\s*$')
_UNESCAPES = {v: k for k, v in _ESCAPES.items()}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m.group(1), m.group(1)), text)


def restore_previous(msg: Message) -> int:
    """Turn `| msgid "…"` translator comments back into the message's previous strings (kept on a
    fuzzy entry only); the number of comment lines taken."""
    fields: dict[str, str] = {}
    kept: list[str] = []
    taken, last = 0, None
    for comment in msg.user_comments:
        m = PREVIOUS_COMMENT.match(comment)
        key = None if m is None else m.group(1) or last  # the keyword this comment's string extends
        if m is None or key is None:
            kept.append(comment)
            last = None
            continue
        last = key
        fields[last] = fields.get(last, "") + _unescape(m.group(2))
        taken += 1
    if not taken:
        return 0
    msg.user_comments = kept
    if msg.fuzzy and "msgid" in fields and not msg.previous_id:
        msg.previous_id = [fields["msgid"]] + ([fields["msgid_plural"]] if "msgid_plural" in fields else [])
        if "msgctxt" in fields:
            msg.previous_context = fields["msgctxt"]  # type: ignore[attr-defined]
    return taken


def _previous(msg: Message) -> list[str]:
    if not msg.fuzzy or not msg.previous_id:
        return []
    prev = list(msg.previous_id) if isinstance(msg.previous_id, (list, tuple)) else [msg.previous_id]
    lines: list[str] = []
    context = getattr(msg, "previous_context", None)
    if context:
        lines += wrap("msgctxt", context, "#| ")
    lines += wrap("msgid", prev[0], "#| ")
    if len(prev) > 1:
        lines += wrap("msgid_plural", prev[1], "#| ")
    return lines


def header_text(catalog: Catalog) -> str:
    fields = {k: v for k, v in catalog.mime_headers if k != "POT-Creation-Date"}
    fields["PO-Revision-Date"] = REVISION_DATE
    if "Content-Type" in fields:
        fields["Content-Type"] = "text/plain; charset=UTF-8"
    known = [k for k in HEADER_ORDER if k in fields]
    ordered = known + [k for k in fields if k not in HEADER_ORDER]
    return "".join(f"{k}: {fields[k]}\n" for k in ordered)


def po_lines(catalog: Catalog) -> list[str]:
    entries: list[list[str]] = []
    head: list[str] = [line for line in (catalog.header_comment or "").splitlines()]
    if catalog.fuzzy:
        head.append("#, fuzzy")
    entries.append([*head, 'msgid ""', *wrap("msgstr", header_text(catalog))])
    for msg in catalog:
        if not msg.id:
            continue
        restore_previous(msg)
        entries.append([*(_comment("", c) for c in msg.user_comments),
                        *(_comment(".", c) for c in msg.auto_comments),
                        *_references(msg.locations), *_flags(msg), *_previous(msg),
                        *_strings(msg, catalog.num_plurals)])
    for msg in catalog.obsolete.values():
        entries.append([*(_comment("", c) for c in msg.user_comments),
                        *(["#, fuzzy"] if msg.fuzzy else []), *_strings(msg, catalog.num_plurals, "#~ ")])
    return [line for i, entry in enumerate(entries) for line in ([""] if i else []) + entry]


def po_bytes(catalog: Catalog) -> bytes:
    """The catalog as gettext would write it (UTF-8, LF, a final newline)."""
    return ("\n".join(po_lines(catalog)) + "\n").encode("utf-8")
