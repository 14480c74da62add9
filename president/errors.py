"""Small typed exceptions that quote the input and where it came from.

Every exception the toolkit raises derives from `PresidentError`, so that one `except
PresidentError` catches whatever the toolkit says about its input; anything else escaping is a bug
(the command line calls it an internal error, exit 3 for a conformance run). The tree, with where
each class lives (the general ones here, the others beside the code that raises them):

    PresidentError
    ├── SpecError                       a spec breaks its schema or its semantics (every Problem found)
    ├── SpecTextError (ValueError)      spectext: a title's value or counted phrase the spec cannot fill
    ├── CardError (ValueError)          a card or a set of cards cannot be parsed
    ├── IllegalAction                   the reference refuses an action: code, rule (clause id), message
    ├── SpecialFile (OSError)           resources: a FIFO, device or symlink out where a file was expected
    │   └── HardLinked                  a file of the project's own with other names (hard links): not read
    ├── StagingError                    atomic: the staged files could not be put in place
    ├── BuildError                      i18n.catalogs: a sheet cannot be rendered (missing or broken translations)
    ├── PluralFormsError (ValueError)   i18n.plurals: a Plural-Forms header that is no plain C expression of n
    ├── StepSyntaxError (ValueError)    i18n.steps_catalog: a phrase matches no step template of its language
    ├── FeatureError (ValueError)       i18n.features: a translated feature cannot be read back (its line)
    ├── PositionError (ValueError)      game.position: a STATE the reference cannot set up
    │   ├── BadPosition                 a new_game.position field is malformed (the field named)
    │   └── Unfollowable                a STATE no play of the rules reaches (named after its clause)
    ├── UnreachableState                game.engine: the game is in a state no play reaches; the reference stops
    ├── ProtocolError                   protocol.server: a request the reference engine answers with an error
    ├── NonJsonValue (ValueError)       protocol.reading: a reply holding NaN, Infinity or a lone surrogate
    ├── OverBound (ValueError)          protocol.reading: a reply over one of the protocol's bounds
    ├── ProtocolViolation               protocol.client: the engine broke the protocol
    │   ├── EngineDied                  it exited or closed its stdout
    │   ├── EngineTimeout               no reply in time (hung)
    │   ├── ProtocolFault               a reply that is no protocol reply (bad JSON, wrong shape, unasked)
    │   └── MalformedReply              scenarios.model: a reply a scenario step cannot read
    ├── RunStopped                      protocol.client: the run cannot go on (the engine keeps failing)
    │   ├── EngineStartError            the engine command cannot be started at all
    │   └── WorkerFailed                conform.jobs: a worker of a parallel run stopped (hung, budget, crash)
    ├── Mismatch (AssertionError)       scenarios.model: a scenario's expectation not met (the diff)
    ├── NotMovable                      scenarios.sizes: an example cannot move to another table size
    ├── HandshakeError                  conform.runner: hello failed or declares something malformed
    ├── GameStopped, Resync             conform: a lock-step game ends early / re-synchronises (control flow)
    ├── ClusterError                    arena.cluster: a Dask scheduler cannot be reached or used
    ├── BadReference (ValueError)       conform.messages: a `$ref` of a report that names no text of its table
    ├── ReportError                     conform.saved: a saved report that cannot be read (file, what is wrong)
    └── NoScenario                      cli.conform: the scenario patterns match nothing

Messages name the input (file, line, field, the engine's reply) and what to do; they never name a
command-line flag: the command line adds those.
"""
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

    def __init__(self, code: str, rule: str | None, message: str):
        self.code = code
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")
