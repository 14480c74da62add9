"""`president check`: the spec's examples hold for the reference engine built from the same spec.

An edit of a number in the spec that its own examples contradict (players.max: 8 while an
example says seven players are refused) fails `check`, as it would fail `conform`: a spec edit
that passes `check` also passes `conform` against the reference engine.
"""
from __future__ import annotations

from ..errors import Problem, SpecError
from .check import CheckContext, register_check


@register_check
def check_examples_hold(ctx: CheckContext) -> list[Problem]:
    """Every scenario of the spec passes against the reference engine built from that spec."""
    if ctx.spec is None:
        return []
    from ..protocol.client import InProcessClient
    from ..conform.runner import run_scenarios
    from ..game.engine import Ruleset
    from ..protocol.server import Session
    from ..scenarios.model import build_scenarios
    try:
        rules = Ruleset.from_spec(ctx.spec)
    except SpecError as exc:  # a spec the reference engine cannot play: said by the spec check
        return [Problem(ctx.rel(p.file), p.line, p.path, p.message, p.hint) for p in exc.problems]
    lines = {sc.id: sc.line for sc in build_scenarios(ctx.spec)}
    client = InProcessClient(lambda: Session(rules))
    problems = []
    for res in run_scenarios(client, ctx.spec):
        if res.outcome in ("fail", "error"):
            problems.append(Problem(ctx.rel(ctx.project.spec_path), lines.get(res.id), "",
                                    f"example {res.name!r} of {res.clause} does not hold for this spec: "
                                    f"{res.message}" + (f" (at step {res.step!r})" if res.step else ""),
                                    "make the example agree with the spec's numbers, or change them back"))
    return problems
