"""Checks of single translations, modelled on Weblate's: what `president check` reports about the
wording of a catalog (president/project/lint_check.py registers them).

- `same_plurals`: every plural form identical where the language has several (Weblate
  "same-plurals"); the flag `#, ignore-same-plurals` marks an entry where that is right (a plural
  after a range: ru "из 1–4 карт").
- `cross_domain`: a clause title of the steps domain whose English is a sentence of the sheet
  (rules domain) translated differently.
- `sentence_end`: the final mark of a translation against the language's convention, read from
  the published (reviewed) rules messages: hi "।", hy "։", ar/el/ru "." (Weblate "end-stop").
- `inner_stops`: a Latin "." inside a translation (after a word, before more text) in a language
  whose sheet ends sentences with its own mark (hy "։" or "․" between clauses, hi "।").
- `bidi_controls`: an override or embedding (U+202A–202E) anywhere; isolates (U+2066–2069) that do
  not pair up; isolates or marks in a left-to-right language.
- `value_frames` (steps): a list of cards, seats or actions (or an option value) that the English
  step gives as a predicate ("the seats that passed are {seats:Numbers}") written after a colon,
  `label: value`, in every translation: nothing can agree with a value (flag
  `#, ignore-value-frame` where nothing does).
- `option_messages` (templates) and `option_words` (translations): a word shared by several options
  inserted into a sentence whose grammar may depend on it. In the rules domain a message taking one
  (`%(variant)s`, `%(first)s`, `%(second)s`: context.OPTION_WORD_PLACEHOLDERS) must exist once per
  option, with a msgctxt naming it ('option equality'), so each translation agrees with its word. In
  the steps domain the on/off word (`{x:OnOff}`, msgctxt word-on/word-off) must be the value of a
  `label: value` frame: right after a colon (`:`, `：`, Armenian `՝`), no word after it
  (`равенство: {equality:OnOff}`, not `равенство {equality:OnOff}` with выключена); the flag
  `#, ignore-option-word` marks a translation where that is not needed.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Iterable

from babel.messages.catalog import Message

from .context import OPTION_WORD_PLACEHOLDERS

IGNORE_SAME_PLURALS = "ignore-same-plurals"
IGNORE_OPTION_WORD = "ignore-option-word"
IGNORE_VALUE_FRAME = "ignore-value-frame"
#: Step placeholders whose value varies in number and form (a list of cards, seats, numbers or
#: actions, an action, an option value): no word of a sentence can agree with them.
VALUE_TYPES = ("Cards", "Numbers", "Actions", "Action", "Hands", "Value")
#: An English step phrase that makes such a value the predicate (after is/are/has/holds): the
#: translation writes it as `label: value`.
_PREDICATE_VALUE = re.compile(r"\b(?:is|are|has|have|holds|hold)\s+(\{\w+:(?:" + "|".join(VALUE_TYPES) + r")\})")

#: Marks that end a sentence, in the scripts of the catalogs.
FULL_STOPS = frozenset(".।։۔。")
OVERRIDES = re.compile("[\u202a-\u202e]")  # LRE RLE PDF LRO RLO
ISOLATE_OPEN, ISOLATE_CLOSE = "\u2066\u2067\u2068", "\u2069"  # LRI RLI FSI, PDI
MARKS = "\u200e\u200f\u061c"  # LRM RLM ALM
_INVISIBLE = re.compile(f"[\u2066-\u2069{MARKS}\u202a-\u202e\\s]+$")

OPTION_CONTEXTS = ("option ", "options ")  # msgctxt of a message that exists once per option
_FRAME = re.compile("[:：՝]")
#: Copulas that cannot end the label of a `label: value` frame (they agree with the value: hy
#: `նստատեղերն են՝ 1`, hi `सीटें हैं: 1`, el `είναι:`, ru `являются:`).
COPULAS = frozenset({"է", "են", "էին", "է՝", "है", "हैं", "είναι", "является", "являются"})


def forms(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    """The forms of a msgid or msgstr; a missing msgstr (None) is one empty form."""
    if value is None:
        return [""]
    return list(value) if isinstance(value, (list, tuple)) else [value]


def same_plurals(msg: Message, nplurals: int) -> str | None:
    """Every plural form the same where the language has several."""
    if not isinstance(msg.id, (list, tuple)) or nplurals < 2 or IGNORE_SAME_PLURALS in msg.flags:
        return None
    got = forms(msg.string)
    if len(got) >= 2 and all(got) and len(set(got)) == 1:
        return (f"all {len(got)} plural forms are identical ({got[0]!r}), though the language distinguishes "
                f"{nplurals}")
    return None


def bare(text: str) -> str:
    """Text without its final sentence mark and trailing invisible controls."""
    text = _INVISIBLE.sub("", text)
    return text[:-1] if text[-1:] in FULL_STOPS else text


def cross_domain(rules: Iterable[Message], steps: Iterable[Message]) -> list[tuple[Message, Message]]:
    """(steps message, rules message) pairs: one English sentence translated two ways."""
    sentences: dict[str, tuple[Message, str]] = {}  # the rules message and its translation
    for m in rules:
        if m.id and isinstance(m.id, str) and re.search(r"\w", m.id) and isinstance(m.string, str) and m.string \
                and not m.fuzzy:
            sentences.setdefault(bare(m.id), (m, m.string))
    out = []
    for m in steps:
        if not (m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string) or m.fuzzy:
            continue
        other = sentences.get(bare(m.id))
        if other is not None and bare(m.string) != bare(other[1]):
            out.append((m, other[0]))
    return out


def end_mark(text: str) -> str:
    """The sentence mark a translation ends with ('' if none)."""
    last = _INVISIBLE.sub("", text)[-1:]
    return last if last in FULL_STOPS else ""


def sentence_convention(published: Iterable[Message]) -> str | None:
    """The mark the published translations end a sentence with (most of them), None if unknown."""
    seen: Counter[str] = Counter()
    for m in published:
        for src, tr in zip(forms(m.id), forms(m.string)):
            if src.endswith(".") and tr:
                seen[end_mark(tr)] += 1
    return seen.most_common(1)[0][0] if seen and seen.most_common(1)[0][0] else None


def sentence_end(msg: Message, convention: str) -> list[str]:
    """The final mark of each form against the source's and the convention."""
    out = []
    for idx, (src, tr) in enumerate(zip(forms(msg.id) + forms(msg.id)[-1:] * 5, forms(msg.string))):
        if not tr:
            continue
        label = f"msgstr[{idx}]" if isinstance(msg.string, (list, tuple)) else "msgstr"
        mark, wants = end_mark(tr), src.endswith(".") and not src.endswith("..")
        if wants and mark != convention:
            out.append(f"{label} ends with {mark or 'no sentence mark'!r} where the published sheet ends a "
                       f"sentence with {convention!r}")
        elif not wants and mark and end_mark(src) == "":
            out.append(f"{label} ends with {mark!r} where the source has no sentence mark")
    return out


_INNER_STOP = re.compile(r"\.(?=[\s\u2069]+\S)")


def _ends_a_word_of_the_script(text: str, at: int) -> bool:
    """The character before `at` ends a word of a non-Latin script: a letter, or a combining mark
    (Devanagari words mostly end in a vowel sign or an anusvara: नहीं, है, को)."""
    if at == 0:
        return False
    c = text[at - 1]
    if unicodedata.category(c).startswith("M"):
        return True
    return unicodedata.category(c).startswith("L") and not ("A" <= c <= "Z" or "a" <= c <= "z")


def inner_stops(msg: Message, convention: str) -> list[str]:
    """A Latin full stop after a word of the script, inside a translation whose language ends a
    sentence with its own mark (hy "։", hi "।"): only the last character was checked before."""
    if convention == ".":
        return []
    out = []
    for idx, tr in enumerate(forms(msg.string)):
        label = f"msgstr[{idx}]" if isinstance(msg.string, (list, tuple)) else "msgstr"
        for m in _INNER_STOP.finditer(tr or ""):
            if not _ends_a_word_of_the_script(tr, m.start()):
                continue
            out.append(f"{label} has a Latin full stop '.' inside the sentence (offset {m.start()}: "
                       f"{tr[max(0, m.start() - 12):m.start() + 3]!r}) where the published sheet writes {convention!r}")
    return out


def bidi_controls(text: str, rtl: bool) -> list[str]:
    """Overrides anywhere; isolates that do not pair up; isolates or marks in a left-to-right language."""
    out = []
    for m in OVERRIDES.finditer(text):
        out.append(f"bidi override U+{ord(m.group(0)):04X} at offset {m.start()} (write isolates, U+2066…2069, "
                   "around a left-to-right value instead)")
    depth = 0
    for i, c in enumerate(text):
        if c in ISOLATE_OPEN:
            depth += 1
        elif c == ISOLATE_CLOSE:
            if depth == 0:
                out.append(f"stray U+2069 (pop directional isolate) at offset {i}: no isolate is open")
            depth = max(0, depth - 1)
    if depth:
        out.append(f"{depth} bidi isolate(s) opened and never closed with U+2069")
    if not rtl:
        stray = sorted({f"U+{ord(c):04X}" for c in text if c in ISOLATE_OPEN + ISOLATE_CLOSE + MARKS})
        if stray:
            out.append(f"bidi control(s) {', '.join(stray)} in a left-to-right language")
    return out


def option_messages(template: Iterable[Message]) -> list[tuple[Message, list[str]]]:
    """Messages of the rules template that take a shared option word through a placeholder without a
    msgctxt naming the option ('option equality', 'options equality, jokers')."""
    out = []
    for m in template:
        if not m.id:
            continue
        names = sorted({n for src in forms(m.id) for n in re.findall(r"%\((\w+)\)s", src)} & OPTION_WORD_PLACEHOLDERS)
        if names and not (m.context or "").startswith(OPTION_CONTEXTS):
            out.append((m, [f"%({n})s" for n in names]))
    return out


def value_frames(msg: Message) -> str | None:
    """A steps translation putting a variable value (a list of cards, seats, actions…) that the
    English gives as a predicate ("the legal actions are {actions:Actions}") anywhere but after a
    colon: a verb or a noun before it would have to agree with a value it cannot know
    (el `οι επιτρεπτές κινήσεις είναι παίζει 4C`, ru `спасовали игроки 1`, hi `… के पास 5C हैं`)."""
    wanted = _PREDICATE_VALUE.findall(forms(msg.id)[0])
    if not wanted or IGNORE_VALUE_FRAME in msg.flags:
        return None
    for text in forms(msg.string):
        for p in wanted:
            at = text.find(p)
            parts = _FRAME.split(text[:at].rstrip()) if at >= 0 else []
            label = parts[-2].split() if len(parts) >= 2 else []  # the words right before the frame's colon
            if label and label[-1].casefold() in COPULAS:
                return (f"the label before {p} ends with the verb {label[-1]!r}, which agrees in number with a "
                        f"value it cannot know (hy `նստատեղերն են՝ 1`): write the label alone "
                        f"(`պաս տված նստատեղերը՝ {p}`)")
            if at >= 0 and not _FRAME.search(text[:at].rstrip()[-1:] or "x"):
                return (f"{p} is a value that varies in number and form, so nothing may agree with it: write "
                        f"'<label>: {p}' (a colon right before it, e.g. 'the legal actions: {p}'), or mark the "
                        f"entry `#, {IGNORE_VALUE_FRAME}` if nothing in your sentence agrees with it")
    return None


def option_words(msg: Message) -> str | None:
    """A steps translation inserting the shared on/off word ({x:OnOff}) anywhere but as the value of a
    `label: value` frame (after a colon, nothing but punctuation after it), where nothing agrees with it."""
    wanted = re.findall(r"\{\w+:OnOff\}", forms(msg.id)[0])
    if not wanted or IGNORE_OPTION_WORD in msg.flags:
        return None
    for text in forms(msg.string):
        for p in wanted:
            at = text.find(p)
            if at < 0:
                continue  # a lost placeholder is the placeholder check's problem
            before, after = text[:at], text[at + len(p):]
            if not _FRAME.search(before[-3:]) or re.search(r"\w", after):
                return (f"{p} is one word shared by every option (msgctxt word-on, word-off), so nothing may "
                        f"agree with it: write '<option>: {p}' (a colon before it, no word after it), or mark "
                        f"the entry `#, {IGNORE_OPTION_WORD}` if your language needs no agreement here")
    return None
