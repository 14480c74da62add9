"""Gettext catalogs read straight from the .po files, and the translators built on them.

No .mo file is compiled or shipped: `read_po` loads a catalog in memory and `Translator`
answers gettext-style lookups from it, recording every message it could not translate
instead of silently falling back to English (a build refuses on any such miss).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from ..errors import PresidentError, Problem
from ..textsafe import UNSAFE, inert

from ..resources import CATALOG_LANGS, LANGS, SOURCE_LANG  # noqa: F401  (re-exported: the i18n package's names)
PSEUDO_LANG = "xx"
DOMAIN = "rules"


def babel_plural_forms(lang: str) -> str:
    """The Plural-Forms of `lang` from the pinned Babel's data (the header `pybabel init` writes).

    For integers it agrees with CLDR's plural categories (`Locale.plural_form`), which
    tests/i18n/test_i18n_plurals.py checks for every language."""
    from babel.messages.plurals import get_plural
    return get_plural(lang).plural_forms


#: Written explicitly in every catalog header (and checked), never left to tool defaults.
PLURAL_FORMS: dict[str, str] = {lang: babel_plural_forms(lang) for lang in LANGS}
PLURAL_FORMS[PSEUDO_LANG] = PLURAL_FORMS["en"]

Key = tuple[str | None, str]  # (msgctxt, msgid)


class BuildError(PresidentError):
    """Rendering is impossible; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


#: A catalog larger than this is refused while it is read (the largest is about 150 KB).
MAX_CATALOG_BYTES = 4_000_000


def confined(path: Path, root: Path) -> Path:
    """`path` if it resolves inside the project `root`; BuildError naming the symlink that leads
    out of it otherwise (nothing outside the project is read or written)."""
    from ..resources import escape_of
    out = escape_of(path, root)
    if out is not None:
        link, target = out
        raise BuildError([outside_problem(link, target)])
    return path


def outside_problem(link: Path, target: Path) -> Problem:
    return Problem(str(link), None, "", f"leads out of the project (a symlink to {target}); refused, "
                   "nothing read or written there", "replace the symlink with the file or folder itself")


def po_path(root: Path, lang: str, domain: str = DOMAIN) -> Path:
    """locales/<lang>/LC_MESSAGES/<domain>.po; BuildError if it leads out of the project."""
    return confined(root / "locales" / lang / "LC_MESSAGES" / f"{domain}.po", root)


def pot_path(root: Path, domain: str = DOMAIN) -> Path:
    """locales/<domain>.pot; BuildError if it leads out of the project."""
    return confined(root / "locales" / f"{domain}.pot", root)


def read_catalog_bytes(path: Path) -> bytes:
    """A catalog's bytes: a regular file of its own within MAX_CATALOG_BYTES (a FIFO, a device or a
    file with several hard links is refused without being read, as a symlink out of the project
    is). OSError otherwise (FileNotFoundError if there is none; HardLinked, SpecialFile)."""
    from ..resources import read_regular
    return read_regular(path, MAX_CATALOG_BYTES, own=True)


#: Characters a catalog may not hold (they would reach the sheets, the features and the terminal raw):
#: C0 but tab and newline, DEL and C1 (ESC starts terminal commands), the bidi embeddings and
#: overrides (U+202A..U+202E reorder the text around them: "Trojan Source"), the line and paragraph
#: separators (a line break to some readers, not to others) and the BOM: what every printer escapes
#: (`textsafe.UNSAFE`). The bidi isolates and marks stay: right-to-left translations need them.
CONTROL = UNSAFE


#: The control characters Babel reads from an escape of the .po syntax, and that escape.
_ESCAPED = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v", "\r": "\\r"}


def _fields(msg: Message) -> list[tuple[str, str]]:
    """(what, text) of each part of an entry a reader or a build takes in: the translation, the
    msgctxt, the msgid and msgid_plural, or the header (the entry of msgid "")."""
    strings = msg.string if isinstance(msg.string, (list, tuple)) else (msg.string,)
    ids = msg.id if isinstance(msg.id, (list, tuple)) else (msg.id,)
    if not msg.id:
        return [("header", s) for s in strings if s]
    return ([("translation", s) for s in strings if s] + [("msgctxt", msg.context or "")]
            + [("msgid_plural" if i else "msgid", s) for i, s in enumerate(ids) if s])


def control_problems(path: Path, data: bytes, catalog: Catalog, lang: str) -> list[Problem]:
    """A problem for every entry holding a CONTROL character (in its translation, msgctxt, msgid or
    the header, as Babel reads them: `\\a` is BEL), at the line that holds it; then for every other
    line holding one as written (a comment, an obsolete `#~` entry, a header field Babel drops)."""
    lines = data.decode("utf-8", "replace").split("\n")
    out: list[Problem] = []

    def problem(line: int, whose: str, found: list[str]) -> None:
        shown = ", ".join(repr(ch)[1:-1] for ch in found)
        out.append(Problem(str(path), line, "", f"{lang}: {whose} holds the control character(s) {shown}, which "
                           "would reach the sheets and the terminal raw",
                           "remove them: a catalog is plain text (tab and newline are the only control "
                           "characters allowed; a bidi override has no place in it)"))

    for msg in catalog:
        for what, text in _fields(msg):
            found = sorted(set(CONTROL.findall(text)))
            if not found:
                continue
            start = max((msg.lineno or 1) - (4 if what == "msgctxt" else 1), 0) if msg.id else 0
            line = next((n for n in range(start, len(lines))
                         if any(ch in lines[n] or _ESCAPED.get(ch, "\0\0") in lines[n] for ch in found)), start) + 1
            msgid = msg.id[0] if isinstance(msg.id, (list, tuple)) else msg.id
            problem(line, "the header" if what == "header" else f"the {what} of {inert(msgid[:60], strict=True)!r}",
                    found)
            break
    reported = {p.line for p in out}
    for n, text in enumerate(lines, 1):
        found = sorted(set(CONTROL.findall(text)))
        if found and n not in reported:
            problem(n, "a comment" if text.lstrip().startswith("#") else f"line {n}", found)
    return out


def parse_plural_forms(header: str) -> tuple[int, str]:
    """`nplurals=N; plural=EXPR;` -> (N, EXPR); PluralFormsError (a ValueError) unless EXPR is a
    plain C expression of n (president.i18n.plurals)."""
    from .plurals import parse_header
    return parse_header(header)


def plural_function(header: str) -> Callable[[int], int]:
    """The form of each n under a Plural-Forms header, checked first (president.i18n.plurals):
    PluralFormsError (a ValueError) for anything but a plain C expression of n."""
    from .plurals import compiled
    return compiled(header)


def checked_plural_function(path: Path, header: str) -> Callable[[int], int]:
    """plural_function of a catalog's header; BuildError at the header's line if it is refused."""
    from .plurals import PluralFormsError
    from .strict import plural_forms_error
    try:
        return plural_function(header)
    except PluralFormsError:
        line = next((n for n, text in enumerate(read_catalog_bytes(path).decode("utf-8", "replace").split("\n"), 1)
                     if text.startswith('"Plural-Forms:')), None)
        raise BuildError([Problem(str(path), line, "", f"Plural-Forms {header[:100]!r}: {plural_forms_error(header)}",
                                  "write the Plural-Forms of the language (`president i18n update` writes it)")]) from None


def load_catalog(path: Path, lang: str, formats: bool = True) -> Catalog:
    """Read a .po file; a file that cannot be parsed raises BuildError with its location.

    The file is first read strictly (president.i18n.strict): whatever `msgfmt --check` refuses
    (syntax errors, duplicate messages, placeholder mismatches) is refused here, with its line.
    `formats=False` leaves placeholder mismatches to the caller (`president check` lists them
    in more detail).
    """
    import io
    from .strict import po_problems
    from ..resources import HardLinked
    try:
        data = read_catalog_bytes(path)
        problems = po_problems(path, data, formats=formats)
        if problems:
            raise BuildError(problems)
        catalog = read_po(io.BytesIO(data), locale=lang, abort_invalid=True)
        problems = control_problems(path, data, catalog, lang)
        if problems:
            raise BuildError(problems)
        return catalog
    except BuildError:
        raise
    except FileNotFoundError:
        raise BuildError([Problem(str(path), None, "", f"no catalog for {lang!r}",
                                  "run `president i18n update` to create it")]) from None
    except HardLinked as exc:
        raise BuildError([Problem(str(path), None, "", str(exc.strerror),
                                  "make it a file of its own: copy it, remove the link, rename the copy")]) from None
    except OSError as exc:
        raise BuildError([Problem(str(path), None, "", f"cannot read the catalog: {exc.strerror or exc}",
                                  "make it a regular, readable .po file")]) from None
    except Exception as exc:  # babel raises PoFileError or ValueError with a line number inside
        line = getattr(exc, "lineno", None)
        raise BuildError([Problem(str(path), line, "", f"cannot parse the catalog: {exc}",
                                  "fix the .po syntax")]) from None


def raw_header(path: Path) -> dict[str, str]:
    """The header entry (msgid "") exactly as written in the file: Babel would fill in defaults."""
    try:
        text = read_catalog_bytes(path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    m = re.search(r'^msgid ""\nmsgstr ((?:".*"\n?)+)', text, re.M)
    if not m:
        return {}
    body = "".join(re.findall(r'"(.*)"', m.group(1))).replace('\\n', "\n").replace('\\"', '"')
    return {k.strip().lower(): v.strip() for k, _, v in
            (line.partition(":") for line in body.split("\n") if ":" in line)}


def raw_plural_forms(path: Path) -> str | None:
    return raw_header(path).get("plural-forms")


def translations_of(catalog: Catalog) -> dict[Key, str | tuple[str, ...]]:
    """Usable translations: not fuzzy, not empty (any empty plural form makes it unusable)."""
    out: dict[Key, str | tuple[str, ...]] = {}
    for msg in catalog:
        if not msg.id or msg.fuzzy:
            continue
        key = (msg.context, msg.id[0] if isinstance(msg.id, (list, tuple)) else msg.id)
        if isinstance(msg.string, (list, tuple)):
            if all(msg.string):
                out[key] = tuple(msg.string)
        elif msg.string:
            out[key] = msg.string
    return out


@dataclass
class Lookup:
    """One message looked up while rendering (kept for extraction and for error reports)."""

    context: str | None
    msgid: str
    plural: str | None = None
    dynamic: bool = False
    origin: str = ""


@dataclass
class Translator:
    """gettext-like lookups for one language; misses are recorded, never hidden.

    `messages` None means the source language: every msgid is its own translation.
    """

    lang: str
    messages: dict[Key, str | tuple[str, ...]] | None
    plural: Callable[[int], int] = field(default=lambda n: int(n != 1))
    source: str = ""
    pseudo: bool = False
    missing: list[Lookup] = field(default_factory=list)
    used: list[Lookup] = field(default_factory=list)

    def _find(self, look: Lookup, n: int | None) -> str:
        self.used.append(look)
        if self.pseudo:
            base = look.msgid if n is None or n == 1 or look.plural is None else look.plural
            if self.lang in PSEUDO_LOCALES and not any(c.isalpha() for c in _PLACEHOLDER.sub("", base)):
                return base  # separators, card patterns, suit symbols: no words to pseudo-translate
            return PSEUDO_LOCALES.get(self.lang, pseudo_text)(base)
        if self.messages is None:
            if n is None or look.plural is None:
                return look.msgid
            return look.msgid if n == 1 else look.plural
        found = self.messages.get((look.context, look.msgid))
        if found is None or (n is not None) != isinstance(found, tuple):
            if all((m.context, m.msgid) != (look.context, look.msgid) for m in self.missing):
                self.missing.append(look)
            return look.msgid if n is None or n == 1 or look.plural is None else look.plural
        if isinstance(found, tuple):
            idx = self.plural(n or 0)
            return found[idx] if idx < len(found) else found[-1]
        return found

    # The four gettext entry points; keyword arguments fill %(name)s placeholders.
    def gettext(self, msgid: str, /, **values: Any) -> str:
        return _fill(self._find(Lookup(None, msgid), None), values)

    def pgettext(self, context: str, msgid: str, /, **values: Any) -> str:
        return _fill(self._find(Lookup(context, msgid), None), values)

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        return self._plural(Lookup(None, singular, plural), n, values)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **values: Any) -> str:
        return self._plural(Lookup(context, singular, plural), n, values)

    def _plural(self, look: Lookup, n: int, values: dict[str, Any]) -> str:
        """The plural form for `n`, filled. A form may leave out a placeholder only if it holds `n`
        itself (a form used for one number spells it: the Arabic dual); otherwise BuildError."""
        text = self._find(look, n)
        lost = [k for k in _PLACEHOLDER_NAME.findall(f"{look.msgid} {look.plural or ''}")
                if k != "num" and k in values and f"%({k})" not in text and values[k] != n]
        if lost:
            raise BuildError([Problem(self.source, None, "", f"{self.lang}: {look.msgid!r}: the form for {n} "
                                      f"leaves out {', '.join(f'%({k})s = {values[k]!r}' for k in dict.fromkeys(lost))}, "
                                      f"which is not {n}", "write the placeholder in that plural form")])
        return _fill(text, {"num": n, **values})

    def dynamic(self, context: str, msgid: str, origin: str, **values: Any) -> str:
        """A message whose msgid is chosen by code from spec values (not literal in a template)."""
        return _fill(self._find(Lookup(context, msgid, dynamic=True, origin=origin), None), values)

    def dynamic_plural(self, context: str, singular: str, plural: str, n: int, origin: str, **values: Any) -> str:
        """A plural message chosen by code (a counted phrase): `num` is `n` unless `values` spells it."""
        look = Lookup(context, singular, plural, dynamic=True, origin=origin)
        return _fill(self._find(look, n), {"num": n, **values})

    def declare(self, context: str, msgid: str, origin: str, plural: str | None = None) -> None:
        """Record a message another spec value would use, for extraction only (a miss is not recorded:
        the build of that spec asks for it)."""
        self.used.append(Lookup(context, msgid, plural, dynamic=True, origin=origin))


#: Bidi isolation marks around values written left to right (card codes, rank orders, numbers,
#: option settings): the layouts keep them (Markdown), turn them into <bdi dir="ltr"> (HTML) or
#: drop them (plain text, which must equal the published sheets).
LRI, PDI = "\u2066", "\u2069"
ISOLATES = re.compile("[\u2066\u2069]")


def isolate(value: Any) -> str:
    """`value` as a left-to-right isolate (idempotent)."""
    text = str(value)
    return text if text.startswith(LRI) and text.endswith(PDI) else f"{LRI}{text}{PDI}"


def strip_isolates(text: str) -> str:
    return ISOLATES.sub("", text)


#: A %-directive with a field width or a precision (`%(name)999999999s`): never in a message.
SIZED_DIRECTIVE = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(?:\*|\d|\.)")


def _fill(text: str, values: dict[str, Any]) -> str:
    """%-format `text`; int values filling a `%(name)s` or `%(name)d` placeholder are isolated
    (numbers: print binds an isolated number to its noun, president.i18n.linebreak), a `%(name)d`
    written as the `%(name)s` of its isolate. A width or precision is refused (the strict reading
    of the catalogs reports it with its line)."""
    if not values:
        return text
    sized = SIZED_DIRECTIVE.search(text.replace("%%", ""))
    if sized:
        raise BuildError([Problem("<translation>", None, "", f"{sized.group(0)!r}: a width or precision in "
                                  f"the message {text[:60]!r}", "write the placeholder without them, e.g. %(name)s")])
    numbers = [k for k, v in values.items() if isinstance(v, int) and not isinstance(v, bool)]
    for k in numbers:
        text = re.sub(rf"(?<!%)((?:%%)*)%\({re.escape(k)}\)d", rf"\1%({k})s", text)
    filled = {k: isolate(v) if k in numbers and f"%({k})s" in text else v for k, v in values.items()}
    return text % filled


# --- pseudo-locale ------------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþʠŕšţûṽŵẋýžÀßÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
_PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdif]|%%")
_PLACEHOLDER_NAME = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[sdif]")


def pseudo_text(msgid: str) -> str:
    """Accent every letter outside placeholders and bracket the result: `⟦Ŝéţûþ⟧`."""
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(msgid):
        parts.append(msgid[last:m.start()].translate(_ACCENTS))
        parts.append(m.group(0))
        last = m.end()
    parts.append(msgid[last:].translate(_ACCENTS))
    return PSEUDO_OPEN + "".join(parts) + PSEUDO_CLOSE


def _split_placeholders(msgid: str) -> list[tuple[bool, str]]:
    """[(is_placeholder, text), ...] covering `msgid`."""
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(msgid):
        parts.append((False, msgid[last:m.start()]))
        parts.append((True, m.group(0)))
        last = m.end()
    parts.append((False, msgid[last:]))
    return [p for p in parts if p[1]]


_PADDING = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty").split()


def pseudo_accented(msgid: str, expansion: float = 0.4) -> str:
    """Android's en-XA: accented letters, about 40% longer (padding words), in brackets:
    `[Ŝéţûþ one two]`. Placeholders are kept as they are."""
    body = "".join(t if ph else t.translate(_ACCENTS) for ph, t in _split_placeholders(msgid))
    visible = len(_PLACEHOLDER.sub("", msgid))
    pad: list[str] = []
    while visible and len(" ".join(pad)) + 1 < visible * expansion:
        pad.append(_PADDING[len(pad) % len(_PADDING)])
    return "[" + body + (" " + " ".join(pad) if pad else "") + "]"


RLM, RLO, PDF = "\u200f", "\u202e", "\u202c"


def pseudo_bidi(msgid: str) -> str:
    """Android's ar-XB: every word of the message forced right to left (RLO … PDF) and the
    message opened and closed by RLM, so the page runs right to left like Arabic. Placeholders
    are left alone: what fills them (card codes, rank orders) must be isolated by the layout."""
    out = []
    for ph, text in _split_placeholders(msgid):
        out.append(text if ph else re.sub(r"\S+", lambda m: f"{RLO}{m.group(0)}{PDF}", text))
    return RLM + "".join(out) + RLM


#: Pseudo-locales as Android ships them: `president build --pseudo` writes their sheets.
PSEUDO_LOCALES: dict[str, Callable[[str], str]] = {"en-XA": pseudo_accented, "ar-XB": pseudo_bidi}


def translator_for(root: Path, lang: str) -> Translator:
    """The translator of `lang` from the catalogs under `root` (source and pseudo need none)."""
    if lang == SOURCE_LANG:
        return Translator(lang, None, source="(source language)")
    if lang == PSEUDO_LANG or lang in PSEUDO_LOCALES:
        return Translator(lang, None, source="(pseudo-locale)", pseudo=True)
    path = po_path(root, lang)
    catalog = load_catalog(path, lang)
    header = raw_plural_forms(path) or PLURAL_FORMS[lang]
    return Translator(lang, translations_of(catalog), checked_plural_function(path, header), source=str(path))


def message_key(msg: Message) -> Key:
    return (msg.context, msg.id[0] if isinstance(msg.id, (list, tuple)) else msg.id)

