"""`president check`: every rules and steps message names each termbase concept with the
published sheet's term (locales/termbase.yaml)."""
from __future__ import annotations

from ..errors import Problem
from ..i18n.catalogs import DOMAIN, message_key, po_path
from ..i18n.steps_catalog import DOMAIN as STEPS, is_unreviewed
from ..i18n.lint import bare
from ..i18n.termbase import load_termbase, term_hits, termbase_path
from .check import CheckContext, _catalogs, _key_text, _translated, register_check


def _texts(value: str | tuple[str, ...] | list[str]) -> str:
    return "\n".join(value) if isinstance(value, (list, tuple)) else value


@register_check
def check_terms(ctx: CheckContext) -> list[Problem]:
    """A translation names a termbase concept with another word than the published sheet."""
    tb = load_termbase(ctx.project.root)
    if tb is None:
        return []
    problems = []
    hint = f"use the published term ({ctx.rel(termbase_path(ctx.project.root))})"
    sheet: dict[str, set[str]] = {}  # per language: the published sentences, without their final mark
    for domain in (DOMAIN, STEPS):
        cats, _ = _catalogs(ctx, domain)  # parse problems are reported by the catalog checks
        for lang, cat in cats.items():
            file = ctx.rel(po_path(ctx.project.root, lang, domain))
            if domain == DOMAIN:
                sheet[lang] = {bare(m.string) for m in cat if m.id and isinstance(m.string, str) and m.string
                               and not is_unreviewed(m)}
            for msg in cat:
                if not msg.id or msg.fuzzy or not _translated(msg) or msg.context in tb.skip_contexts:
                    continue
                # the published text (a steps clause title may repeat a sentence of the sheet)
                published = not is_unreviewed(msg) if domain == DOMAIN else \
                    isinstance(msg.string, str) and bare(msg.string) in sheet.get(lang, set())
                for what in term_hits(tb, lang, _texts(msg.id), _texts(msg.string or ""), published):
                    problems.append(Problem(file, msg.lineno, "", f"{lang}: {_key_text(message_key(msg))}: {what}", hint))
    return problems

