"""Untrusted text made inert: what an engine or a catalog says is shown, never obeyed.

`inert(text)` escapes every control character (C0 but newline and tab, DEL, C1, and the Unicode
format characters that reorder or hide text: bidi overrides, zero-width joiners; isolates too for an
engine's text) as a visible `\\x1b`, `\\u202e`...: on a terminal an ESC can clear the screen, set the window title or
make a hyperlink, and a CR overwrites the line. `cut(text)` bounds a text to `TEXT_LIMIT` characters
and notes its length. `xml_text(text)` replaces what XML 1.0 forbids (a JUnit parser rejects the whole
file for one such character). Every printer and report writer uses these; nothing else escapes.
"""
from __future__ import annotations

import re

#: How much of one engine text (an error message, code, rule, hello name) is kept.
TEXT_LIMIT = 2000

# What a printer escapes: C0 controls but tab and newline, DEL and C1, the bidi embeddings and overrides
# (LRE RLE PDF LRO RLO), line and paragraph separators, the BOM. The isolates and marks (LRI RLI FSI
# PDI, LRM RLM ALM) and the zero-width (non-)joiners stay: the project's right-to-left and Devanagari
# texts need them, and an isolate's effect ends with the line.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\ufeff]")
# What an engine's text has escaped (`strict`): all the above, tab and newline, every bidi control and
# zero-width character.
_UNSAFE_STRICT = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
# What a file read back (a saved report) has escaped (`lines`): what `strict` escapes but tab and newline
# (a saved text keeps its lines), and the zero-width (non-)joiners that Indic and Arabic words need.
_UNSAFE_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
# XML 1.0 allows tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF, nothing else.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str, strict: bool = False, lines: bool = False) -> str:
    """`text` with its control characters shown as escapes (`\\x1b`, `\\r` as `\\x0d`, `\\u202e`); newlines
    and tabs, bidi isolates and marks kept. `strict` escapes those too: one line, no bidi control at all
    (what an engine sends has no use for them). `lines` escapes every bidi control but keeps newlines
    and tabs (a text read back from a file anyone may have written: a saved report)."""
    pattern = _UNSAFE_STRICT if strict else _UNSAFE_LINES if lines else UNSAFE
    return pattern.sub(_escape, text) if pattern.search(text) else text


def cut(text: str, limit: int = TEXT_LIMIT) -> str:
    """At most about `limit` characters of `text`, its full length noted when it is cut (a text a
    little over `limit`, such as one cut already with its note, is kept whole)."""
    if len(text) <= limit + 64:
        return text
    return f"{text[:limit]}… [cut, {len(text):,} characters]"


def engine_text(value: object, limit: int = TEXT_LIMIT) -> str:
    """A text an engine sent, as the toolkit keeps it: a string (anything else as JSON shows it),
    cut to `limit` characters, its control characters escaped on one line."""
    if not isinstance(value, str):
        import json

        try:
            value = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            value = repr(value)
    return inert(cut(value, limit), strict=True)


def xml_text(text: str) -> str:
    """`text` with the characters XML 1.0 forbids (most C0 controls, lone surrogates, U+FFFE/U+FFFF)
    replaced by visible escapes, so that the XML document stays well-formed."""
    return _NOT_XML.sub(_escape, text) if _NOT_XML.search(text) else text
