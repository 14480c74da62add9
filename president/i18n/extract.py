"""Message extraction and catalog maintenance (what `pybabel extract/update` and
`president i18n extract|update|stats` do).

Messages come from two places:
- literal gettext calls in president/templates/*.j2 (Babel's `jinja2` extractor);
- messages whose msgid the spec decides (game name, section and title names, suit names,
  counted phrases such as "their two best cards"): `extract_spec` renders the sheet for the
  spec and yields every such lookup. babel.cfg maps spec/*.yaml to it, so plain
  `pybabel extract -F babel.cfg` sees them too.

Files are written without POT-Creation-Date / PO-Revision-Date, so they are reproducible.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import extract as babel_extract

from ..spec import Spec, decode_spec, parse_spec, read_spec_bytes
from .catalogs import (CATALOG_LANGS, DOMAIN, PLURAL_FORMS, SOURCE_LANG, Key, Translator, load_catalog, message_key,
                       po_path)
from .pofile import REVISION_DATE, po_bytes  # noqa: F401 (REVISION_DATE: re-exported)
from .context import NOTE_WIDTH
from .render import CONTENT_TEMPLATE, JINJA_EXTENSIONS, NUMBER_WORDS_SUFFIX, TEMPLATES_DIR, build_sheet

TEMPLATE_OPTIONS = {"extensions": ",".join(JINJA_EXTENSIONS), "trim_blocks": "true",
                    "lstrip_blocks": "true"}


def dynamic_lookups(spec: Spec) -> Translator:
    """Render the sheet in the source language and return the translator that recorded it."""
    tr = Translator(SOURCE_LANG, None)
    build_sheet(spec, tr)
    return tr


def _yaml_line(text: str, key: str) -> int:
    m = re.search(rf"^[ \t]*-?[ \t]*{re.escape(key)}[ \t]*:", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def spec_messages(spec: Spec, text: str) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """(line, msgctxt, msgid, comments) of every message whose msgid the spec decides; the msgid
    of a plural message is (singular, plural)."""
    seen = set()
    for look in dynamic_lookups(spec).used:
        if not look.dynamic or (look.context, look.msgid) in seen:
            continue
        seen.add((look.context, look.msgid))
        notes = [f"from the spec ({look.origin})"]
        if look.context and look.context.endswith(NUMBER_WORDS_SUFFIX):
            phrase = look.context[:-len(NUMBER_WORDS_SUFFIX)]
            notes += textwrap.wrap(f"fills %(num)s of msgctxt '{phrase}': write the number as it stands in "
                                   "that phrase (its case and gender)", NOTE_WIDTH, break_long_words=False,
                                   break_on_hyphens=False)
        yield (_yaml_line(text, look.origin.split(".")[-1]), look.context,
               (look.msgid, look.plural) if look.plural else look.msgid, notes)


def extract_spec(fileobj: BinaryIO, keywords: Any, comment_tags: Any,
                 options: dict[str, Any]) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extraction method for the spec (babel.cfg: `spec = president.i18n.extract:extract_spec`),
    with the notes `president i18n extract` writes."""
    text = fileobj.read().decode("utf-8")
    spec = parse_spec(text, getattr(fileobj, "name", "<spec>"))
    root, _ = _project(fileobj, options)
    notes = _note_maker(spec, root)
    for line, context, msgid, comments in spec_messages(spec, text):
        texts = list(msgid) if isinstance(msgid, tuple) else [msgid]
        yield (line, "npgettext" if isinstance(msgid, tuple) else "pgettext", (context, *texts),
               [*comments, *notes((context, texts[0]), texts)])


def _project(fileobj: Any, options: dict[str, Any]) -> tuple[Path, Path]:
    """(project root, spec) of a file pybabel extracts: the project around the file (option `spec` overrides)."""
    from ..resources import find_project_root
    here = Path(getattr(fileobj, "name", "") or ".").resolve()
    root = find_project_root(here.parent) or Path.cwd()
    return root, Path(options["spec"]) if options.get("spec") else root / "spec" / "president.yaml"


def _note_maker(spec: Spec, root: Path) -> Any:
    from .context import card_forms, note_maker
    return note_maker(spec, TEMPLATES_DIR / CONTENT_TEMPLATE, card_forms(spec, _translators(root)))


def _key_texts(funcname: str, messages: Any) -> tuple[Key, list[str]] | None:
    msgs = list(messages) if isinstance(messages, (list, tuple)) else [messages]
    context, texts = (msgs[0], msgs[1:]) if funcname in ("pgettext", "npgettext") else (None, msgs)
    texts = [t for t in texts if isinstance(t, str)]
    return ((context, texts[0]), texts) if texts else None


def extract_templates(fileobj: BinaryIO, keywords: Any, comment_tags: Any,
                      options: dict[str, Any]) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extraction method for president/templates/*.j2 (babel.cfg): Jinja2's extractor, plus
    the notes `president i18n extract` writes (rule clauses, placeholders)."""
    from jinja2.ext import babel_extract as jinja_extract
    root, spec_path = _project(fileobj, options)
    spec = parse_spec(spec_path.read_text(encoding="utf-8"), str(spec_path))
    notes = _note_maker(spec, root)
    jinja_options = {**TEMPLATE_OPTIONS, **{k: v for k, v in options.items() if k != "spec"}}
    for lineno, funcname, messages, comments in jinja_extract(fileobj, keywords, comment_tags, jinja_options):
        found = _key_texts(funcname, messages)
        yield lineno, funcname, messages, [*comments, *(notes(*found) if found else [])]


def _translators(root: Path) -> dict[str, Translator]:
    """The translator of every catalog that parses, for the %(card)s note. Placeholder problems
    are not refused here (`check` reports them once, at their line); a catalog that does not
    parse is left out."""
    from .catalogs import BuildError, checked_plural_function, raw_plural_forms, translations_of
    out = {}
    for lang in CATALOG_LANGS:
        path = po_path(root, lang)
        try:
            catalog = load_catalog(path, lang, formats=False)
        except BuildError:
            continue
        header = raw_plural_forms(path) or PLURAL_FORMS[lang]
        out[lang] = Translator(lang, translations_of(catalog), checked_plural_function(path, header), source=str(path))
    return out


def template_files() -> list[Path]:
    return sorted(TEMPLATES_DIR.glob("*.j2"))


def extract_template(root: Path, spec_path: Path, spec: Spec | None = None) -> Catalog:
    """The message template (rules.pot) for the templates and the spec at `spec_path`."""
    cat = _catalog(None)
    # Templates are referenced as president/templates/<name> wherever the package is installed,
    # so that the .pot does not depend on the install location.
    pkg_root = TEMPLATES_DIR.parent.parent

    def rel(p: Path, bases: tuple[Path, ...], fallback: str | None = None) -> str:
        for base in bases:
            try:
                return p.resolve().relative_to(base.resolve()).as_posix()
            except ValueError:
                continue
        return fallback or p.name

    for path in template_files():
        with path.open("rb") as fh:
            for lineno, msg, comments, context in babel_extract("jinja2.ext:babel_extract", fh,
                                                                options=TEMPLATE_OPTIONS):
                cat.add(msg, locations=[(rel(path, (pkg_root,)), lineno)], auto_comments=comments, context=context)
    text = decode_spec(read_spec_bytes(spec_path), str(spec_path))
    spec = spec or parse_spec(text, str(spec_path))
    for lineno, context, msgid, comments in spec_messages(spec, text):
        # a spec outside the project (--spec elsewhere) is referenced where the project keeps its own
        cat.add(msgid, locations=[(rel(spec_path, (root, pkg_root), "spec/president.yaml"), lineno)], auto_comments=comments, context=context)
    from .context import annotate, card_forms  # clause ids and placeholder notes for translators
    annotate(cat, spec, TEMPLATES_DIR / CONTENT_TEMPLATE, card_forms(spec, _translators(root)))
    return cat


def serialize(catalog: Catalog) -> bytes:
    """.po/.pot bytes, reproducible (no creation date, a fixed revision date), written as
    GNU gettext writes them (president.i18n.pofile), so that `msgmerge -U` changes nothing."""
    return po_bytes(catalog)


HEADER_COMMENT = ("# Messages of the President rule sheets (CardVerse variant).\n"
                  "# Source language: English. Generated by `president i18n extract|update`;\n"
                  "# edit only msgstr lines and translator comments.")
HEADER_COMMENTS = {"steps": ("# Step phrases, titles and report words of the President conformance scenarios.\n"
                             "# Source language: English. Generated by `president i18n extract|update`;\n"
                             "# edit only msgstr lines and translator comments; keep every {field:Type}.")}


def _catalog(lang: str | None, domain: str = DOMAIN) -> Catalog:
    """A catalog of `lang`, or (None) the template, whose language is the source language."""
    cat = Catalog(locale=lang or SOURCE_LANG, domain=domain, project="president", version=domain, fuzzy=False,
                  msgid_bugs_address="https://cardverse.example/president/issues",
                  last_translator="CardVerse translators", charset="utf-8",
                  language_team=f"{lang or SOURCE_LANG} <translators@cardverse.example>")
    cat.header_comment = HEADER_COMMENTS.get(domain, HEADER_COMMENT)
    return cat


def new_catalog(lang: str, domain: str = DOMAIN) -> Catalog:
    cat = _catalog(lang, domain)
    set_plural_forms(cat, lang)
    return cat


def set_plural_forms(cat: Catalog, lang: str) -> None:
    headers = [(k, v) for k, v in cat.mime_headers if k.lower() != "plural-forms"]
    cat.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS[lang])]


def updated_catalogs(root: Path, template: Catalog, langs: tuple[str, ...] = CATALOG_LANGS,
                     fuzzy_matching: bool = True) -> dict[str, bytes]:
    """Each catalog merged with `template` (as `pybabel update`), Plural-Forms written explicitly."""
    out = {}
    for lang in langs:
        path = po_path(root, lang)
        cat = load_catalog(path, lang) if path.is_file() else new_catalog(lang)
        merge_template(cat, template, fuzzy_matching)
        set_plural_forms(cat, lang)
        out[lang] = serialize(cat)
    return out


def merge_template(cat: Catalog, template: Catalog, fuzzy_matching: bool = True) -> None:
    """Merge `template` into `cat` as `pybabel update` does, so that an edit and its revert
    leave the catalog exactly as it was:

    - a message the template no longer uses is kept as an obsolete `#~` entry, also when its
      translation was offered (fuzzy) to a new, similar message: no msgid is ever rewritten
      in place;
    - an obsolete entry the template uses again comes back as it was (not fuzzy);
    - obsolete entries with no usable translation (empty, or only a fuzzy guess) are dropped.
    """
    wanted = {message_key(m) for m in template if m.id}
    for key, msg in list(cat.obsolete.items()):
        if message_key(msg) in wanted and msg.id not in cat:
            del cat.obsolete[key]
            cat[msg.id] = msg
    before = [m.clone() for m in cat if m.id]
    cat.update(template, no_fuzzy_matching=not fuzzy_matching, update_header_comment=False)
    kept = {message_key(m) for m in cat.obsolete.values()}
    for msg in before:
        if message_key(msg) not in wanted and message_key(msg) not in kept:
            # Babel types obsolete's keys as str | tuple[str, str], but keys it by any message id
            # (a plural's is a tuple of forms; Catalog.update does so too)
            cat.obsolete[(msg.id, msg.context) if msg.context else msg.id] = msg  # type: ignore[index]
    for key, msg in list(cat.obsolete.items()):
        usable = all(msg.string) if isinstance(msg.string, (list, tuple)) else bool(msg.string)
        if msg.fuzzy or not usable:
            del cat.obsolete[key]


def catalog_stats(root: Path, domain: str = DOMAIN) -> list[tuple[str, int, int, int, int, int]]:
    """(lang, total, translated, fuzzy, untranslated, unreviewed) for every catalog of `domain`.

    Unreviewed: marked `#. unreviewed` (steps) or `# unreviewed` (rules) for native review."""
    rows = []
    for lang in CATALOG_LANGS:
        cat = load_catalog(po_path(root, lang, domain), lang)
        msgs = [m for m in cat if m.id]
        fuzzy = sum(1 for m in msgs if m.fuzzy)
        done = sum(1 for m in msgs if not m.fuzzy and (all(m.string) if isinstance(m.string, (list, tuple))
                                                      else bool(m.string)))
        unreviewed = sum(1 for m in msgs if "unreviewed" in (c.strip() for c in (*m.auto_comments, *m.user_comments)))
        rows.append((lang, len(msgs), done, fuzzy, len(msgs) - done - fuzzy, unreviewed))
    return rows


def template_bytes(root: Path, spec_path: Path) -> bytes:
    return serialize(extract_template(root, spec_path))

