"""`president check`: every rule clause's scenarios reach every table size the spec allows.

A clause's scenarios reach a size when one of its examples is written for it, or moves to it
(president.scenarios.sizes: added seats that pass or go out, the example's expectations on its own
seats holding on the reference engine). An engine that plays only some sizes then still runs the
clause. Sizes a clause knowingly does not reach are listed under it with the reason
(`uncovered_sizes: {sizes: [...], why: ...}`); any other gap, and a listed size that is reached
after all, is a problem at the clause's line. The AI section is left out: its scenarios test the
reference's own AIs at their table size.
"""
from __future__ import annotations

from typing import Any

from ..errors import Problem, SpecError
from ..spec import Clause, Spec
from .check import CheckContext, register_check


def clause_sizes(spec: Spec, rules: Any = None) -> dict[str, tuple[set[int], list[str]]]:
    """For each rule clause with examples: the table sizes its scenarios reach, and for each size
    they do not reach, one reason (from the first example that does not move there)."""
    from ..scenarios.model import build_scenarios
    from ..scenarios.sizes import covered_sizes, native_players

    out: dict[str, tuple[set[int], list[str]]] = {}
    by_clause: dict[str, list[Any]] = {}
    for sc in build_scenarios(spec):
        by_clause.setdefault(sc.clause, []).append(sc)
    for clause in spec.clauses:
        if clause.section == "ai" or clause.id not in by_clause:
            continue
        reached: set[int] = set()
        why: dict[int, tuple[int, str]] = {}
        for sc in by_clause[clause.id]:
            for n, found in covered_sizes(spec, sc, rules).items():
                if found.scenario is not None:
                    reached.add(n)
                else:  # a tried move says more than "not moved to a smaller table"
                    n0 = native_players(sc)
                    rank = 0 if n0 <= n and spec.players.min <= n0 <= spec.players.max else 1
                    if n not in why or rank < why[n][0]:
                        why[n] = (rank, f"{sc.id}: {found.short}")
        out[clause.id] = (reached, [f"{n}: {why[n][1]}" for n in sorted(why) if n not in reached])
    return out


def size_problems(spec: Spec, rules: Any = None) -> list[Problem]:
    where = spec.path or "spec/president.yaml"
    allowed = set(range(spec.players.min, spec.players.max + 1))
    clauses: dict[str, Clause] = {c.id: c for c in spec.clauses}
    problems = []
    for cid, (reached, reasons) in clause_sizes(spec, rules).items():
        clause = clauses[cid]
        known = set(clause.uncovered_sizes)
        missing = sorted(allowed - reached - known)
        if missing:
            first = next((r for r in reasons if int(r.split(":", 1)[0]) in missing), "")
            problems.append(Problem(
                where, clause.line, f"clauses.{cid}",
                f"the scenarios of {cid} reach {_sizes(reached)} of {spec.players.min}..{spec.players.max} players, "
                f"not {_sizes(missing)} (at {first})",
                "add an example for them, or list them under uncovered_sizes: {sizes: [...], why: ...}"))
        stale = sorted(known & reached)
        if stale:
            problems.append(Problem(
                where, clause.line, f"clauses.{cid}.uncovered_sizes",
                f"uncovered_sizes lists {_sizes(stale)}, but the scenarios of {cid} reach it",
                "remove those sizes from uncovered_sizes"))
    return problems


def _sizes(sizes: Any) -> str:
    return ", ".join(map(str, sorted(sizes))) or "no size"


@register_check
def check_table_sizes(ctx: CheckContext) -> list[Problem]:
    """Every rule clause's scenarios reach every table size, or say why not."""
    if ctx.spec is None:
        return []
    from ..game.engine import Ruleset
    try:
        rules = Ruleset.from_spec(ctx.spec)
    except SpecError:  # a spec the reference cannot play: said by the examples check
        return []
    return [Problem(ctx.rel(p.file), p.line, p.path, p.message, p.hint) for p in size_problems(ctx.spec, rules)]
