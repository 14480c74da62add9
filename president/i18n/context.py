"""Context for translators in rules.pot: which rule clauses a message states, and what each
placeholder holds (`#.` comments written by `president i18n extract|update`).

The clause ids come from sheet.j2 itself: every `sheet.item(text, clause ids...)` call names
its clauses, and the messages it uses are found through the template's `set`/`append`
statements, so a message used only under another spec's options is covered too.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any, Callable

from babel.messages.catalog import Catalog
from jinja2 import nodes

from ..spec import Spec
from .catalogs import Key, message_key

#: What each placeholder of the rules domain holds, for the translator (`%(x)s` in a msgid).
PLACEHOLDER_NOTES: dict[str, str] = {
    "min": "a number from the spec (digits, written left to right)",
    "max": "a number from the spec (digits, written left to right); with ngettext, it also picks the plural form",
    "num": ("the number that picks the plural form: digits, or in the exchange's counted phrases the "
            "number in words as translated under msgctxt '<this msgctxt>: the number in words' (a form "
            "used for one number only, such as the Arabic dual, may leave it out)"),
    "card": ("a card as msgctxt 'card' renders it in this language, kept left to right and inserted "
             "unchanged: fit the sentence around the phrase, add no article or case ending to it"),
    "rank": "a rank symbol of the spec (3 … 10, V, D, R, A, 2)",
    "suit": "the translation of the suit symbol (msgctxt 'suit')",
    "order": "the ranks from weakest to strongest, joined by the translation of msgctxt 'separator in a rank order'",
    "top": "the strongest rank symbol in the normal order (e.g. 2)",
    "bottom": "the weakest rank symbol in the normal order (e.g. 3)",
    "deals": ("the number of deals as a phrase, inserted unchanged: the translation of 'one deal' or "
              "'%(num)d deal(s)' under msgctxt 'number of deals: the game ends after' in 'The game ends "
              "after %(deals)s.', under msgctxt 'number of deals' in the sentence ending 'by default': "
              "translate each phrase in the grammatical case its sentence needs (Russian: genitive, "
              "одного раунда; Arabic after بعد: جولتين, after وهو: جولتان)"),
    "less": "the phrase of msgctxt 'points fewer per place' (e.g. 'one point less'), inserted unchanged",
    "lowest": "the phrase of msgctxt 'points of the last place' (e.g. 'one point'), inserted unchanged",
    "best": "the phrase of msgctxt \"exchange: the giver's best cards\" (e.g. 'their two best cards', 'their best card'), inserted unchanged",
    "back": "the phrase of msgctxt 'exchange: cards chosen to give back', inserted unchanged",
    "cards": "the phrase of msgctxt 'exchange: cards swapped by the vice-ranks' (e.g. 'one card'), inserted unchanged",
    "from_players": "the phrase of msgctxt 'exchange: from how many players' (e.g. 'From four players on')",
    "title": "a title of the spec, as translated under msgctxt 'title' (a name: keep its capital)",
    "list": "the place-and-title phrases, joined by the translation of msgctxt 'separator between titles'",
    "label": "the section name 'Variant played' (msgctxt 'section')",
    "value": "the variant items, joined by ' · '",
    "name": "the variant name of the spec (Latin script, e.g. CardVerse)",
    "version": "the spec version, e.g. 1.1.0 (left to right)",
    "setting": "an option as written in the protocol, e.g. revolution=false (never translated)",
    "n": "the fewest cards of a run (combinations.min_run of the spec, digits); it also picks the plural form",
    "variant": ("a locked variant as translated under msgctxt 'locked variant' (equality, the joker, "
                "the ladder), its first letter capitalized; " + "{agree}"),
    "first": "the first of two locked variants (msgctxt 'locked variant'), its first letter capitalized; {agree}",
    "second": "the second of two locked variants (msgctxt 'locked variant'), as translated; {agree}",
}

#: Babel's width of `#.` comments (pybabel extract wraps longer notes; gettext keeps lines as they are).
NOTE_WIDTH = 76
#: Placeholders filled with a word shared by several options: the messages using them come once per
#: option (msgctxt 'option <name>' or 'options <a>, <b>'), so each translation can agree with its word;
#: `president check` holds the templates to that (president/i18n/lint.py: `option_messages`).
OPTION_WORD_PLACEHOLDERS = frozenset({"variant", "first", "second"})
OPTION_WORD_NOTE = ("this message exists once per option (see msgctxt): make the sentence agree with that "
                    "option's word (gender, number)")
for _name in OPTION_WORD_PLACEHOLDERS:
    PLACEHOLDER_NOTES[_name] = PLACEHOLDER_NOTES[_name].replace("{agree}", OPTION_WORD_NOTE)

_GETTEXT = {"_": 1, "gettext": 1, "ngettext": 1, "pgettext": 2, "npgettext": 2}
_CLAUSE_ID = re.compile(r"^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$")


def _key_of(call: nodes.Call) -> Key | None:
    if not isinstance(call.node, nodes.Name) or call.node.name not in _GETTEXT:
        return None
    leading = call.args[:_GETTEXT[call.node.name]]
    args = [a for a in leading if isinstance(a, nodes.Const)]
    if len(args) < len(leading):
        return None
    if _GETTEXT[call.node.name] == 2:
        return (args[0].value, args[1].value)
    return (None, args[0].value)


class _Deps:
    """Messages, clause ids and names each template variable depends on."""

    def __init__(self) -> None:
        self.keys: dict[str, set[Key]] = {}
        self.clauses: dict[str, set[str]] = {}
        self.names: dict[str, set[str]] = {}

    def add(self, name: str, expr: nodes.Node) -> None:
        keys, clauses, names = _scan(expr)
        self.keys.setdefault(name, set()).update(keys)
        self.clauses.setdefault(name, set()).update(clauses)
        self.names.setdefault(name, set()).update(names)

    def resolve(self, names: set[str], what: str) -> set:
        out: set = set()
        seen: set[str] = set()
        todo = list(names)
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            out |= getattr(self, what).get(n, set())
            todo += self.names.get(n, set())
        return out


def _scan(expr: nodes.Node) -> tuple[set[Key], set[str], set[str]]:
    keys = {k for c in expr.find_all(nodes.Call) if (k := _key_of(c))}
    if isinstance(expr, nodes.Call) and (k := _key_of(expr)):
        keys.add(k)
    clauses = {c.value for c in expr.find_all(nodes.Const) if isinstance(c.value, str) and _CLAUSE_ID.match(c.value)}
    if isinstance(expr, nodes.Const) and isinstance(expr.value, str) and _CLAUSE_ID.match(expr.value):
        clauses.add(expr.value)
    names = {n.name for n in expr.find_all(nodes.Name) if n.ctx == "load"}
    if isinstance(expr, nodes.Name):
        names.add(expr.name)
    return keys, clauses, names


def _level_of(test: nodes.Node) -> str | None:
    """`level.id == "easy"` -> "easy"."""
    if (isinstance(test, nodes.Compare) and isinstance(test.expr, nodes.Getattr) and test.expr.attr == "id"
            and len(test.ops) == 1 and isinstance(test.ops[0].expr, nodes.Const)):
        return test.ops[0].expr.value
    return None


def clause_map(spec: Spec, template: Path) -> dict[Key, set[str]]:
    """(msgctxt, msgid) -> the clause ids of the sheet lines that use it."""
    from .render import environment
    ast = environment().parse(template.read_text(encoding="utf-8"))
    deps = _Deps()
    lines: list[tuple[nodes.Call, str | None]] = []
    level_clause = {lv.id: lv.clause for lv in spec.ai_levels}

    def walk(node: nodes.Node, level: str | None) -> None:
        if isinstance(node, nodes.If):
            inner = _level_of(node.test) or level
            for child in node.body:
                walk(child, inner)
            for branch in [*node.elif_, *([] if not node.else_ else [nodes.If(nodes.Const(True), node.else_, [], [])])]:
                walk(branch, level)
            return
        if isinstance(node, nodes.Assign) and isinstance(node.target, nodes.Name):
            deps.add(node.target.name, node.node)
        for call in ([node] if isinstance(node, nodes.Call) else []) + list(node.find_all(nodes.Call)) \
                if isinstance(node, nodes.ExprStmt) else []:
            target = call.node
            if isinstance(target, nodes.Getattr) and isinstance(target.node, nodes.Name):
                if target.node.name == "sheet" and target.attr in ("item", "para"):
                    lines.append((call, level))
                elif target.attr == "append":
                    for arg in call.args:
                        deps.add(target.node.name, arg)
        for child in node.iter_child_nodes():
            if not isinstance(node, nodes.If):
                walk(child, level)

    for child in ast.body:
        walk(child, None)
    out: dict[Key, set[str]] = {}
    for call, level in lines:
        keys, clauses, names = set(), set(), set()
        for i, arg in enumerate([*call.args, *([call.dyn_args] if call.dyn_args else [])]):
            k, c, n = _scan(arg)
            keys |= k
            names |= n
            if i > 0 or arg is call.dyn_args:
                clauses |= c | deps.resolve(n, "clauses")
                if isinstance(arg, nodes.Getattr) and arg.attr == "clause" and level in level_clause:
                    clauses.add(level_clause[level])
        keys |= deps.resolve(names, "keys")
        for key in keys:
            out.setdefault(key, set()).update(clauses)
    return out


def card_forms(spec: Spec, translators: dict[str, Any]) -> dict[str, str]:
    """How each language writes the spec's lowest card, from its catalog: {"ar": "3♣", "hy": "3 խաչը", ...}."""
    from .catalogs import strip_isolates
    from .render import SUIT_SYMBOLS
    rank, suit = spec.deck.ranks[0], spec.deck.suits[0]
    out = {}
    for lang, tr in translators.items():
        symbol = tr.dynamic("suit", SUIT_SYMBOLS.get(suit, suit), "deck")
        out[lang] = strip_isolates(tr.pgettext("card", "%(rank)s%(suit)s", rank=rank, suit=symbol))
    return out


def card_note(forms: dict[str, str]) -> str:
    """The %(card)s note: what the placeholder holds, and how each language renders it (a code or words)."""
    base = PLACEHOLDER_NOTES["card"]
    if not forms:
        return base
    words = {lang: f for lang, f in forms.items() if any(ch.isalpha() for ch in f)}
    codes = {lang: f for lang, f in forms.items() if lang not in words}
    parts = []
    if codes:
        parts.append("a code in " + ", ".join(f"{lang} ({f})" for lang, f in codes.items()))
    if words:
        parts.append("words in " + ", ".join(f"{lang} ({f})" for lang, f in words.items()))
    return f"{base}; the lowest card is written as {' and as '.join(parts)}"


def note_maker(spec: Spec, template: Path, forms: dict[str, str] | None = None) -> Callable[[Key, list[str]], list[str]]:
    """A function (msgctxt, msgid), [msgid texts] -> the notes of that message: its rule clauses and
    what each placeholder holds. `forms`: how each language writes a card (card_forms)."""
    clauses = clause_map(spec, template)
    notes_of = {**PLACEHOLDER_NOTES, "card": card_note(forms or {})}

    def notes(key: Key, texts: list[str]) -> list[str]:
        out = []
        ids = sorted(clauses.get(key, ()))
        if ids:
            out.append(f"rule clauses: {', '.join(ids)}")
        for name in dict.fromkeys(re.findall(r"%\(([a-z_]+)\)[sd]", " ".join(texts))):
            if name in notes_of:
                out.append(f"%({name})s: {notes_of[name]}")
        # wrapped as Babel wraps `#.` comments (76 columns), so that `pybabel extract` writes the same lines
        return [line for note in out for line in textwrap.wrap(note, NOTE_WIDTH, break_long_words=False, break_on_hyphens=False)]
    return notes


def annotate(catalog: Catalog, spec: Spec, template: Path, forms: dict[str, str] | None = None) -> None:
    """Add the clause-id and placeholder comments to every message of the rules template."""
    notes_for = note_maker(spec, template, forms)
    for msg in catalog:
        if not msg.id:
            continue
        texts = list(msg.id) if isinstance(msg.id, (list, tuple)) else [msg.id]
        notes = notes_for(message_key(msg), texts)
        msg.auto_comments = [*msg.auto_comments, *(n for n in notes if n not in msg.auto_comments)]
