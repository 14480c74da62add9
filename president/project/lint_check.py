"""`president check`: the wording checks of president/i18n/lint.py over the rules and steps catalogs,
each problem at the catalog line of the message."""
from __future__ import annotations

import re
from typing import Callable

from babel.messages.catalog import Catalog, Message

from ..errors import Problem
from ..i18n import lint
from ..i18n.catalogs import (CATALOG_LANGS, DOMAIN, PLURAL_FORMS, message_key, parse_plural_forms, po_path,
                             raw_plural_forms, read_catalog_bytes)
from ..i18n.render import CONTENT_TEMPLATE, text_direction
from ..i18n.steps_catalog import DOMAIN as STEPS, is_unreviewed
from .check import CheckContext, _catalogs, _key_text, _translated, register_check

DOMAINS = (DOMAIN, STEPS)


def _messages(ctx: CheckContext, domain: str) -> dict[str, tuple[str, Catalog]]:
    cats, _ = _catalogs(ctx, domain)  # parse problems are reported by the catalog checks
    return {lang: (ctx.rel(po_path(ctx.project.root, lang, domain)), cat) for lang, cat in cats.items()}


def _live(cat: Catalog) -> list[Message]:
    return [m for m in cat if m.id and not m.fuzzy and _translated(m)]


def _problem(file: str, lang: str, msg: Message, what: str, hint: str) -> Problem:
    return Problem(file, msg.lineno, "", f"{lang}: {_key_text(message_key(msg))}: {what}", hint)


@register_check
def check_same_plurals(ctx: CheckContext) -> list[Problem]:
    """All plural forms identical where the language distinguishes them (Weblate same-plurals)."""
    out = []
    for domain in DOMAINS:
        for lang, (file, cat) in _messages(ctx, domain).items():
            header = raw_plural_forms(po_path(ctx.project.root, lang, domain)) or PLURAL_FORMS[lang]
            try:
                nplurals = parse_plural_forms(header)[0]
            except (ValueError, SyntaxError):
                continue  # reported by the Plural-Forms check
            for msg in _live(cat):
                what = lint.same_plurals(msg, nplurals)
                if what:
                    out.append(_problem(file, lang, msg, what, "write each form as the language says it, or, if "
                                        f"the forms are right, mark the entry `#, {lint.IGNORE_SAME_PLURALS}`"))
    return out


@register_check
def check_cross_domain(ctx: CheckContext) -> list[Problem]:
    """One English sentence (a sheet line and a clause title) translated differently in rules.po and steps.po."""
    rules, steps = _messages(ctx, DOMAIN), _messages(ctx, STEPS)
    out = []
    for lang, (file, cat) in steps.items():
        if lang not in rules:
            continue
        rules_file, rules_cat = rules[lang]
        for msg, other in lint.cross_domain(_live(rules_cat), _live(cat)):
            out.append(_problem(file, lang, msg, f"translated otherwise than the same sentence at {rules_file}:"
                                f"{other.lineno} ({other.string!r})",
                                "write one translation for both (the sheet's, if it is published)"))
    return out


@register_check
def check_sentence_end(ctx: CheckContext) -> list[Problem]:
    """Sentence-final punctuation against the published sheet's convention (hi "।", hy "։")."""
    rules = _messages(ctx, DOMAIN)
    out = []
    for lang, (_, rules_cat) in rules.items():
        convention = lint.sentence_convention(m for m in _live(rules_cat) if not is_unreviewed(m))
        if convention is None:
            continue
        for domain in DOMAINS:
            file, cat = rules[lang] if domain == DOMAIN else _messages(ctx, domain).get(lang, (None, None))
            if file is None or cat is None:
                continue
            for msg in _live(cat):
                if domain == DOMAIN and not is_unreviewed(msg):
                    continue  # the published text is the convention
                for what in lint.sentence_end(msg, convention) + lint.inner_stops(msg, convention):
                    out.append(_problem(file, lang, msg, what, f"end the sentence as the published sheet does: "
                                        f"{convention!r}"))
    return out


@register_check
def check_bidi_controls(ctx: CheckContext) -> list[Problem]:
    """Bidi overrides anywhere in a translation; isolates that do not pair up; stray controls."""
    out = []
    for domain in DOMAINS:
        for lang, (file, cat) in _messages(ctx, domain).items():
            rtl = text_direction(lang) == "rtl"
            for msg in cat:
                if not msg.id:
                    continue
                for text in lint.forms(msg.string):
                    for what in lint.bidi_controls(text or "", rtl):
                        out.append(_problem(file, lang, msg, what,
                                            "remove overrides and stray marks; close every isolate with U+2069, and isolate only on right-to-left pages (docs/i18n.md)"))
    return out


@register_check
def check_option_words(ctx: CheckContext) -> list[Problem]:
    """A word shared by several options inserted into a sentence whose grammar depends on it."""
    out = []
    template = ctx.template()
    for msg, names in lint.option_messages(template or []):
        unplaced: list[tuple[str, int | None]] = [(f"president/templates/{CONTENT_TEMPLATE}", None)]
        src, line = (msg.locations or unplaced)[0]
        out.append(Problem(src, line, "", f"{_key_text(message_key(msg))} takes {', '.join(names)}, a word "
                           "shared by several options, without a msgctxt naming the option",
                           "write one message per option: pgettext('option <name>', ...), so each translation "
                           "can agree with its word"))
    return out + _each_step(ctx, lint.option_words, "see the placeholder's note in the catalog")


@register_check
def check_value_frames(ctx: CheckContext) -> list[Problem]:
    """A step's variable value (cards, seats, actions) given as a predicate, written without the
    `label: value` frame: a verb or noun before it cannot agree with it."""
    return _each_step(ctx, lint.value_frames, "write the value after a label and a colon")


def _each_step(ctx: CheckContext, finds: Callable[[Message], str | None], hint: str) -> list[Problem]:
    """One problem per live steps message, in every catalog, for which `finds` says what is wrong."""
    out = []
    for lang, (file, cat) in _messages(ctx, STEPS).items():
        for msg in _live(cat):
            what = finds(msg)
            if what:
                out.append(_problem(file, lang, msg, what, hint))
    return out


_PREVIOUS_AS_COMMENT = re.compile(r"^#\s+\|\s*(?:msgctxt|msgid_plural|msgid)\b")


@register_check
def check_previous_comments(ctx: CheckContext) -> list[Problem]:
    """`# | msgid` translator comments: previous strings `pybabel update` turned into comments
    (python-babel/babel#206), which Poedit and Weblate no longer show as what changed."""
    out = []
    for domain in DOMAINS:
        for lang in CATALOG_LANGS:
            path = po_path(ctx.project.root, lang, domain)
            try:
                lines = read_catalog_bytes(path).decode("utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                continue  # reported by the catalog checks
            for n, line in enumerate(lines, 1):
                if _PREVIOUS_AS_COMMENT.match(line):
                    out.append(Problem(ctx.rel(path), n, "", f"{lang}: a previous string written as a translator "
                                       f"comment ({line[:50]!r}; `pybabel update` does so, python-babel/babel#206)",
                                       "run `president i18n update`, which writes it back as `#| msgid`"))
    return out
