"""A catalog's Plural-Forms header, read as the small C expression of `n` gettext means, nothing more.

The header is input (a translator, a tool, anyone who hands over a .po file writes it), and it is
compiled to a Python function (`gettext.c2py`). Before that, `plural_problem` reads it with a grammar
of its own: `n`, integers, `?:`, comparisons, `&&` `||` `!`, `%` `+` `-` `*` `/` and parentheses,
at most MAX_CHARS characters nested at most MAX_DEPTH levels, `nplurals` from 1 to MAX_FORMS, and
for every n from 0 to CHECKED_UP_TO a form that exists (no division by zero). Anything else is
refused with its reason (the callers add the file and line): never compiled, never evaluated.
"""
from __future__ import annotations

import gettext
import re
from typing import Callable

from ..errors import PresidentError

#: The longest plural expression read (the longest of Babel's data, Cornish's, is about 450 characters).
MAX_CHARS = 600
#: The deepest nesting of parentheses, `?:` and `!` (Babel's data nests 5 levels at most).
MAX_DEPTH = 12
#: The most plural forms a language has (Arabic: 6).
MAX_FORMS = 6
#: The numbers the expression is tried on: each must pick a form that exists.
CHECKED_UP_TO = 1000
#: The largest integer the expression may write.
MAX_INT = 10**9

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)\b|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")
_HEADER = re.compile(r"\s*nplurals\s*=\s*(\d{1,3})\s*;\s*plural\s*=\s*(.+?);?\s*$", re.S)


class PluralFormsError(PresidentError, ValueError):
    """A Plural-Forms header that is not `nplurals=N; plural=EXPR;` with EXPR a plain C expression of n."""


def _tokens(expr: str) -> list[str]:
    out, at = [], 0
    while at < len(expr):
        if expr[at:].isspace():
            break
        m = _TOKEN.match(expr, at)
        if m is None:
            bad = expr[at:].lstrip()[:12]
            raise PluralFormsError(f"the expression does not parse ({bad!r}: a plural expression holds only n, "
                                   "integers, ?:, comparisons, && || !, % + - * / and parentheses)")
        if m.group(1) is not None and int(m.group(1)) > MAX_INT:
            raise PluralFormsError(f"the expression does not parse (the integer {m.group(1)[:20]} is over {MAX_INT:,})")
        out.append(m.group(m.lastindex or 0))
        at = m.end()
    return out


def _shown(token: str | None) -> str:
    return "the end" if token is None else repr(token)


class _Parser:
    """Recursive descent over C's precedence; every nesting level is counted against MAX_DEPTH."""

    BINARY = (("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/", "%"))

    def __init__(self, tokens: list[str]):
        self.tokens, self.at, self.depth = tokens, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, token: str) -> None:
        if self.peek() != token:
            raise PluralFormsError(f"the expression does not parse ({token!r} expected, {_shown(self.peek())} found)")
        self.at += 1

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise PluralFormsError(f"the expression nests deeper than {MAX_DEPTH} levels")

    def expression(self) -> None:
        self.nested()
        self.binary(0)
        if self.peek() == "?":
            self.at += 1
            self.expression()
            self.take(":")
            self.expression()
        self.depth -= 1

    def binary(self, level: int) -> None:
        if level == len(self.BINARY):
            self.unary()
            return
        self.binary(level + 1)
        while self.peek() in self.BINARY[level]:
            self.at += 1
            self.binary(level + 1)

    def unary(self) -> None:
        token = self.peek()
        if token == "!":
            self.at += 1
            self.nested()
            self.unary()
            self.depth -= 1
        elif token == "(":
            self.at += 1
            self.expression()
            self.take(")")
        elif token == "n" or (token is not None and token.isdigit()):
            self.at += 1
        else:
            raise PluralFormsError(f"the expression does not parse (n, a number or '(' expected, {_shown(token)} found)")


def parse_header(header: str) -> tuple[int, str]:
    """`nplurals=N; plural=EXPR;` -> (N, EXPR), EXPR checked against the grammar; PluralFormsError."""
    if len(header) > MAX_CHARS + 40:
        raise PluralFormsError(f"the expression is longer than {MAX_CHARS} characters ({len(header):,})")
    m = _HEADER.match(header)
    if not m:
        raise PluralFormsError("not of the form nplurals=N; plural=EXPR;")
    forms, expr = int(m.group(1)), m.group(2)
    if not 1 <= forms <= MAX_FORMS:
        raise PluralFormsError(f"nplurals={forms} is not between 1 and {MAX_FORMS}")
    if len(expr) > MAX_CHARS:
        raise PluralFormsError(f"the expression is longer than {MAX_CHARS} characters ({len(expr):,})")
    tokens = _tokens(expr)
    parser = _Parser(tokens)
    parser.expression()
    if parser.peek() is not None:
        raise PluralFormsError(f"the expression does not parse ({parser.peek()!r} after its end)")
    return forms, expr


def compiled(header: str) -> Callable[[int], int]:
    """The function of a checked header: the form of each n. PluralFormsError if `plural_problem` has one."""
    forms, expr = parse_header(header)
    try:
        fn = gettext.c2py(expr)
    except (ValueError, SyntaxError, RecursionError) as exc:  # gettext's own checks: kept as a second line
        raise PluralFormsError(f"the expression does not parse ({exc})") from None
    for n in range(CHECKED_UP_TO + 1):
        try:
            form = fn(n)
        except ArithmeticError:
            raise PluralFormsError(f"divides by zero for n = {n}") from None
        if not 0 <= form < forms:
            raise PluralFormsError(f"picks form {form} for n = {n}, but nplurals={forms} (forms 0..{forms - 1})")
    return fn


def plural_problem(header: str) -> str | None:
    """What is wrong with a Plural-Forms header (one line), or None when it is a plain C expression of n."""
    try:
        compiled(header)
    except PluralFormsError as exc:
        return str(exc)
    return None
