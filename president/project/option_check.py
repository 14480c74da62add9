"""`president check`: the sheet states the spec's option values (no sentence contradicts them).

Every line of the sheet names the clauses it states (`sheet.item(text, clause ids...)`), and every
option value names the clause of its meaning (spec `options:`). So a line contradicts the spec when
it states the meaning of a value the game is not played with:

- for a locked option, any value but the default (the published variant never plays it);
- for any option, another value while no line states the default (the sheet describes a game
  the spec does not define, as an unconditional "There are no jokers" would with jokers = 1).
"""
from __future__ import annotations

from ..errors import Problem
from ..i18n.catalogs import SOURCE_LANG, BuildError
from ..i18n.render import CONTENT_TEMPLATE, render_lines
from .check import CheckContext, register_check


@register_check
def check_sheet_options(ctx: CheckContext) -> list[Problem]:
    """No sheet line states an option value the spec's defaults and locks rule out."""
    spec = ctx.spec
    if spec is None:
        return []
    try:
        lines = render_lines(spec, SOURCE_LANG, ctx.project.root)
    except BuildError:
        return []  # reported by the drift and catalog checks
    stated = {cid for rules, _text in lines for cid in rules}
    problems = []
    for opt in spec.options:
        if opt.clause is not None:
            continue
        default = opt.value_clause(opt.default)
        others = {v.clause for v in opt.values if v.clause != default}  # a shared clause counts for each
        for rules, text in lines:
            wrong = sorted(others & set(rules))
            if wrong and (opt.locked or default not in stated):
                why = "it is locked" if opt.locked else f"no line states its default ({default})"
                problems.append(Problem(
                    f"president/templates/{CONTENT_TEMPLATE}", None, "",
                    f"the sheet line {text!r} states {', '.join(wrong)}, a value of option {opt.name} other than "
                    f"its default {opt.default!r}, and {why}",
                    f"make the sentence depend on spec.option({opt.name!r}) (see {spec.path or 'the spec'})"))
    return problems
