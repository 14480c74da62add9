"""Small typed exceptions that quote the input and where it came from."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem found in an input file: where, what, and what to do."""

    file: str
    line: int | None
    path: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        at = f" at {self.path}" if self.path else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}:{at} {self.message}{hint}"


class PresidentError(Exception):
    """Base class of every error the toolkit reports to users."""


class SpecError(PresidentError):
    """The spec is invalid; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CardError(PresidentError, ValueError):
    """A card or set of cards could not be parsed."""


class IllegalAction(PresidentError):
    """An action was refused; `rule` names the violated rule clause."""

    def __init__(self, code: str, rule: str, message: str):
        self.code = code
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")
