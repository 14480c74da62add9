"""Render the rule sheet of a spec in one language and one format.

`president/templates/sheet.j2` holds the content: every sentence is a gettext message, and
every rule line names the spec clauses it states. It fills a `Sheet` (a list of blocks).
`rules.txt.j2`, `rules.md.j2` and `rules.html.j2` only lay the blocks out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from jinja2 import FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape
from jinja2.sandbox import SandboxedEnvironment

from ..errors import Problem
from ..spec import Spec
from .fonts import css_stack, script_of
from .catalogs import LANGS, LRI, PDI, BuildError, Translator, isolate, strip_isolates, translator_for

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
CONTENT_TEMPLATE = "sheet.j2"
FORMATS: tuple[str, ...] = ("txt", "md", "html")
#: A rendered sheet larger than this is refused (the largest is about 10 KB).
MAX_SHEET_BYTES = 1_000_000
JINJA_EXTENSIONS = ("jinja2.ext.i18n", "jinja2.ext.do")

#: English number words: the msgids of counted phrases use them, chosen from spec values.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")
#: msgctxt of a counted phrase's number in words: "<the phrase's msgctxt>: the number in words".
NUMBER_WORDS_SUFFIX = ": the number in words"
#: Suit letters of the spec -> the symbol used as msgid of the suit-name message.
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def number_word(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


@lru_cache(maxsize=None)
def schema_range(field: str) -> tuple[int, int]:
    """(minimum, maximum) of an integer of spec/schema.json, e.g. "exchange/cards" (items of a list
    are looked through)."""
    import json
    from ..resources import schema_path
    node = json.loads(schema_path().read_text(encoding="utf-8"))
    for part in field.split("/"):
        while "items" in node and "properties" not in node:
            node = node["items"]
        node = node["properties"][part]
    return node["minimum"], node["maximum"]


# --- the sheet model ----------------------------------------------------------------------

@dataclass
class Line:
    text: str
    rules: tuple[str, ...] = ()


@dataclass
class Block:
    """kind: title | para | heading | ol | ul. Lists hold their lines in `lines`."""

    kind: str
    section: str
    lines: list[Line] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.lines[0].text if self.lines else ""


class Sheet:
    """What sheet.j2 fills, through `{% do sheet.<method>(...) %}`."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.section_id = ""

    def title(self, text: str) -> str:
        self.blocks.append(Block("title", "", [Line(text)]))
        return ""

    def section(self, section_id: str, heading: str | None = None) -> str:
        self.section_id = section_id
        if heading is not None:
            self.blocks.append(Block("heading", section_id, [Line(heading)]))
        return ""

    def para(self, text: str, *rules: str) -> str:
        self.blocks.append(Block("para", self.section_id, [Line(text, rules)]))
        return ""

    def ol(self) -> str:
        self.blocks.append(Block("ol", self.section_id))
        return ""

    def ul(self) -> str:
        self.blocks.append(Block("ul", self.section_id))
        return ""

    def item(self, text: str, *rules: str) -> str:
        if not self.blocks or self.blocks[-1].kind not in ("ol", "ul"):
            raise BuildError([Problem(CONTENT_TEMPLATE, None, "", "item outside a list",
                                      "call sheet.ol() or sheet.ul() first")])
        self.blocks[-1].lines.append(Line(text, rules))
        return ""


class Phrases:
    """Messages whose msgid is chosen by code from spec values (names, counted phrases).

    Each goes through `Translator.dynamic`, so extraction can list exactly what a spec needs.
    """

    def __init__(self, spec: Spec, tr: Translator):
        self.spec = spec
        self.tr = tr
        self.problems: list[Problem] = []

    def game(self) -> str:
        return self.tr.dynamic("game name", self.spec.game, "game")

    def section(self, section_id: str) -> str:
        for s in self.spec.sections:
            if s.id == section_id:
                return self.tr.dynamic("section", s.title, "sections")
        return self.unsupported(f"the templates need a section {section_id!r}; declare it under sections")

    def title(self, place: int) -> str:
        for t in self.spec.titles:
            if t.place == place:
                return self.tr.dynamic("title", t.name, "titles")
        return self.unsupported(f"the templates need a title for place {place}; declare it under titles")

    def suit(self, letter: str) -> str:
        return self.tr.dynamic("suit", SUIT_SYMBOLS.get(letter, letter), "deck")

    def count(self, context: str, n: int, one: str, singular: str, plural: str, field: str) -> str:
        """A counted phrase as a plural message: `one` when n == 1, else `singular`/`plural` with
        %(num)s filled by the number in words (msgctxt '<context>: the number in words'; the
        English word is the msgid). Every value `field` of spec/schema.json allows is declared for
        extraction, so the catalogs carry the phrase and its words for every spec."""
        origin = field.split("/")[0]
        low, high = schema_range(field)
        if low <= 1:
            self.tr.declare(context, one, origin)
        self.tr.declare(context, singular, origin, plural)
        for k in range(max(low, 2), high + 1):
            if number_word(k) != str(k):
                self.tr.declare(context + NUMBER_WORDS_SUFFIX, number_word(k), origin)
        if n == 1:
            return self.tr.dynamic(context, one, origin)
        word = number_word(n)
        num: int | str = n if word == str(n) else self.tr.dynamic(context + NUMBER_WORDS_SUFFIX, word, origin)
        return self.tr.dynamic_plural(context, singular, plural, n, origin, num=num)

    def counted(self, context: str, n: int, one: str, other: str, origin: str = "") -> str:
        """The phrase for count `n`: `one` when n == 1, else `other` with {n} as an English word."""
        msgid = one if n == 1 else other.replace("{n}", number_word(n))
        return self.tr.dynamic(context, msgid, origin or context)

    def unsupported(self, message: str) -> str:
        self.problems.append(Problem(self.spec.path or "<spec>", None, "", message,
                                     f"extend president/templates/{CONTENT_TEMPLATE} and the catalogs"))
        return ""


# --- environment ---------------------------------------------------------------------------

def _md_escape(text: Any) -> str:
    if isinstance(text, Markup):  # already escaped (with its isolation spans)
        return str(text)
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", str(text))


@lru_cache(maxsize=1)
def environment() -> SandboxedEnvironment:
    """The sandboxed environment; HTML templates autoescape, translations are plain str."""
    env = SandboxedEnvironment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        extensions=list(JINJA_EXTENSIONS),
        autoescape=lambda name: bool(name) and name.endswith(".html.j2"),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=False)
    env.filters["md"] = _md_escape
    env.filters["iso"] = isolate
    return env


def _install(tr: Translator) -> dict[str, Any]:
    """gettext callables for one render (passed in the context, so renders never share state)."""
    return {"_": tr.gettext, "gettext": tr.gettext, "ngettext": tr.ngettext,
            "pgettext": tr.pgettext, "npgettext": tr.npgettext}


def build_sheet(spec: Spec, tr: Translator) -> Sheet:
    """Run sheet.j2 for `spec` with translator `tr`; raises BuildError on unsupported specs."""
    sheet = Sheet()
    ph = Phrases(spec, tr)
    tmpl = environment().get_template(CONTENT_TEMPLATE)
    tmpl.render(spec=spec, sheet=sheet, ph=ph, **_install(tr))
    if ph.problems:
        raise BuildError(ph.problems)
    return sheet


#: Pseudo-locales (Android's en-XA and ar-XB): not Babel locales, their direction is declared here.
PSEUDO_DIRECTIONS = {"en-XA": "ltr", "ar-XB": "rtl", "xx": "ltr"}
#: Scripts with no italic faces: a browser would only slant the glyphs (fake italics).
NO_ITALIC_SCRIPTS = frozenset({"Arab", "Armn", "Deva", "Hebr", "Thaa", "Syrc", "Beng", "Guru", "Gujr",
                               "Taml", "Telu", "Knda", "Mlym", "Thai", "Hans", "Hant", "Jpan", "Kore"})


def text_direction(lang: str) -> str:
    if lang in PSEUDO_DIRECTIONS:
        return PSEUDO_DIRECTIONS[lang]
    try:
        return "rtl" if Locale.parse(lang).character_order == "right-to-left" else "ltr"
    except Exception:  # not a Babel locale
        return "ltr"


def has_italics(lang: str) -> bool:
    return script_of(lang) not in NO_ITALIC_SCRIPTS


def no_italic_langs(langs: tuple[str, ...] = LANGS) -> list[str]:
    return [lg for lg in langs if not has_italics(lg)]


def _html_text(text: str, isolated: bool, lang: str = "", values: bool = True) -> Markup:
    """Escaped text; isolates become <bdi dir="ltr"> (not `isolated`, on a left-to-right page:
    <span class="value">, which does not wrap either; neither with `values` off, the isolation
    bug demo); numbers bound to their nouns, short words to the next one
    (president.i18n.linebreak.keep_values_whole)."""
    from .linebreak import keep_values_whole
    out = str(escape(text))
    if isolated:
        out = out.replace(LRI, '<bdi dir="ltr">').replace(PDI, "</bdi>")
    elif values:
        out = out.replace(LRI, '<span class="value">').replace(PDI, "</span>")
    else:
        return Markup(strip_isolates(out))
    return Markup(keep_values_whole(out, lang))


def _md_text(text: str, isolated: bool) -> Markup:
    """Escaped Markdown; isolates become <span dir="ltr"> (an element with `dir` is a bidi isolate
    in HTML), so the file holds no invisible bidi controls that code hosts warn about."""
    out = _md_escape(text)
    if not isolated:
        return Markup(strip_isolates(out))
    return Markup(out.replace(LRI, '<span dir="ltr">').replace(PDI, "</span>"))


def _shown(sheet_blocks: list[Block], show: Any) -> list[Block]:
    return [Block(b.kind, b.section, [Line(show(ln.text), ln.rules) for ln in b.lines]) for b in sheet_blocks]


def layout(sheet: Sheet, spec: Spec, lang: str, fmt: str, isolation: bool = True) -> str:
    """Lay a filled sheet out in `fmt`. The .txt has no trailing newline, .md and .html one.

    Values written left to right (card codes, rank orders, numbers, settings) carry isolation
    marks from the fill: right-to-left pages keep them (<bdi dir="ltr"> in HTML, U+2066..U+2069
    in Markdown); plain text and left-to-right pages drop them. `isolation=False` drops them
    everywhere (to show what goes wrong without them, e.g. in the ar-XB pseudo-locale).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    direction = text_direction(lang)
    keep = isolation and direction == "rtl" and fmt != "txt"
    if fmt == "html":
        blocks = _shown(sheet.blocks, lambda t: _html_text(t, keep, lang, isolation))
    elif fmt == "md":
        blocks = _shown(sheet.blocks, lambda t: _md_text(t, keep))
    else:
        blocks = _shown(sheet.blocks, (lambda t: t) if keep else strip_isolates)
    tmpl = environment().get_template(f"rules.{fmt}.j2")
    out = tmpl.render(blocks=blocks, spec=spec, lang=lang, dir=direction, italics=has_italics(lang),
                      no_italic_langs=no_italic_langs(), font_stack=css_stack(lang))
    out = out.strip("\n")
    return out if fmt == "txt" else out + "\n"


def missing_problems(trs: list[Translator]) -> list[Problem]:
    problems = []
    for tr in trs:
        for look in tr.missing:
            ctx = f" (msgctxt {look.context!r})" if look.context else ""
            problems.append(Problem(tr.source, None, "", f"{tr.lang}: no translation for {look.msgid!r}{ctx}",
                                    "add it to the catalog: `president i18n update`, then translate it"))
    return problems


def render_sheet(spec: Spec, lang: str, fmt: str = "txt", root: Path | None = None,
                 translator: Translator | None = None) -> str:
    """The rule sheet of `spec` in `lang` and `fmt`, using the catalogs under `root`.

    Raises BuildError listing every missing translation (nothing falls back to English).
    """
    from ..resources import project_root
    tr = translator or translator_for(project_root(root), lang)
    sheet = build_sheet(spec, tr)
    if tr.missing:
        raise BuildError(missing_problems([tr]))
    return layout(sheet, spec, lang, fmt)


def render_blocks(spec: Spec, lang: str, root: Path | None = None) -> list[Block]:
    from ..resources import project_root
    tr = translator_for(project_root(root), lang)
    sheet = build_sheet(spec, tr)
    if tr.missing:
        raise BuildError(missing_problems([tr]))
    return sheet.blocks


def render_lines(spec: Spec, lang: str, root: Path | None = None) -> list[tuple[tuple[str, ...], str]]:
    """Every line of the sheet in `lang`, in order, with the clause ids it states.

    Titles, headings and lines stating no clause carry an empty tuple. The text is exactly
    the line of rules/<lang>.txt without its list marker ("1. ", "• ").
    """
    return [(line.rules, strip_isolates(line.text)) for block in render_blocks(spec, lang, root)
            for line in block.lines]


def render_all(spec: Spec, root: Path, langs: tuple[str, ...] = LANGS) -> dict[str, str]:
    """{"rules/<lang>.<fmt>": text} for every language and format; BuildError lists every miss."""
    out: dict[str, str] = {}
    trs, problems = [], []
    sheets = {}
    for lang in langs:
        try:
            tr = translator_for(root, lang)
        except BuildError as exc:
            problems.extend(exc.problems)
            continue
        sheets[lang] = build_sheet(spec, tr)
        trs.append(tr)
    problems.extend(missing_problems(trs))
    if problems:
        raise BuildError(problems)
    for lang, sheet in sheets.items():
        for fmt in FORMATS:
            out[f"rules/{lang}.{fmt}"] = text = layout(sheet, spec, lang, fmt)
            if len(text) > MAX_SHEET_BYTES // 4 and len(text.encode("utf-8")) > MAX_SHEET_BYTES:
                problems.append(Problem(f"rules/{lang}.{fmt}", None, "", f"the sheet would be "
                                        f"{len(text.encode('utf-8')):,} bytes, over the limit of {MAX_SHEET_BYTES:,}",
                                        f"look for a runaway message in the {lang} catalog"))
    if problems:
        raise BuildError(problems)
    return out


def render_pseudo(spec: Spec, isolation: bool = True) -> dict[str, str]:
    """{"<locale>.<fmt>": text} for the pseudo-locales (en-XA lengthened, ar-XB right to left).

    `isolation=False` drops the bidi isolation of card codes and rank orders, to see in ar-XB
    what a right-to-left language would suffer without it."""
    from .catalogs import PSEUDO_LOCALES
    out = {}
    for lang in PSEUDO_LOCALES:
        sheet = build_sheet(spec, translator_for(Path("."), lang))
        for fmt in FORMATS:
            out[f"{lang}.{fmt}"] = layout(sheet, spec, lang, fmt, isolation=isolation)
    return out
