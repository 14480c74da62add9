"""`president check` for the conformance scenarios in every language.

- the `steps` catalogs pass every catalog check of the rule sheets (explicit Plural-Forms; no
  message missing, untranslated, fuzzy or obsolete; the same `{field:Type}` placeholders and
  numbers as the source), and locales/steps.pot is what `president i18n extract` writes now;
- every translated feature (features/<lang>/<section>.feature) reduces to exactly the same
  sequence of scenarios, clause tags, step template keys and arguments as the English one.

Drift of features/<lang>/ is reported by the common drift check (`build` writes them).
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Problem
from ..i18n.catalogs import CATALOG_LANGS
from .check import BRACES, CheckContext, catalog_problems, placeholder_problems, register_check
from ..i18n.extract import serialize
from ..i18n.features import FeatureError, reduce_feature
from ..i18n.steps_catalog import DOMAIN, step_language, steps_pot_path, steps_template


@register_check
def check_steps_catalogs(ctx: CheckContext) -> list[Problem]:
    """The steps catalogs: complete, not fuzzy or obsolete, placeholders kept; steps.pot up to date."""
    if ctx.spec is None:
        return []
    template = steps_template(ctx.spec)
    problems = catalog_problems(ctx, DOMAIN, template) + placeholder_problems(ctx, DOMAIN, BRACES)
    pot = steps_pot_path(ctx.project.root)
    try:
        same = pot.read_bytes() == serialize(template)
    except OSError:
        same = False
    if not same:
        problems.append(Problem(ctx.rel(pot), None, "", "missing or differs from the step table and the spec (drift)",
                                "run `president i18n update` and commit the result"))
    return problems


def _expected(ctx: CheckContext) -> dict[str, str]:
    """{"features/...": text} as `build` would write the features now ({} if it cannot: the
    catalog and drift checks say why)."""
    if ctx.spec is None:
        return {}
    from .build import generate_features, features_generator
    from ..i18n.catalogs import BuildError
    from ..i18n.features import translated_features
    try:
        out = dict(generate_features(ctx.spec))
        if features_generator() is not None:
            out.update(translated_features(ctx.spec, ctx.project.root))
        return out
    except BuildError:
        return {}


def _reduced(ctx: CheckContext, path: Path, lang: str, text: str | None) -> tuple[list, list[Problem]]:
    """The scenarios of a feature: of `text` (what `build` writes now; a stale file on disk is the
    drift check's one line), else of the file."""
    try:
        if text is None:
            text = path.read_text(encoding="utf-8")
        return reduce_feature(text, steps=step_language(ctx.project.root, lang)), []
    except OSError:
        return [], []  # a missing file is reported by the drift check
    except FeatureError as exc:
        return [], [Problem(ctx.rel(path), exc.line, "", f"cannot be read back: {exc}",
                            "fix the translation in the steps catalog so the phrase matches one template")]


@register_check
def check_translated_features(ctx: CheckContext) -> list[Problem]:
    """Each features/<lang>/X.feature reduces to the same (clause, template key, arguments) as
    features/X.feature, read from what `build` writes now: a file only stale on disk is reported
    once, by the drift check, with "run `president build`"."""
    folder = ctx.project.features_dir
    expected = _expected(ctx)
    problems: list[Problem] = []
    for english in sorted(folder.glob("*.feature")):
        en, errors = _reduced(ctx, english, "en", expected.get(f"features/{english.name}"))
        problems += errors
        if errors:
            continue
        for lang in CATALOG_LANGS:
            path = folder / lang / english.name
            if not path.is_file():
                continue
            tr, errors = _reduced(ctx, path, lang, expected.get(f"features/{lang}/{english.name}"))
            problems += errors
            if errors:
                continue
            if len(tr) != len(en):
                problems.append(Problem(ctx.rel(path), None, "", f"{len(tr)} scenarios, the English feature has "
                                        f"{len(en)}", "a translated phrase reads as another step: make it unambiguous"))
                continue
            for a, b in zip(en, tr):
                if (a.clause, a.ops) != (b.clause, b.ops):
                    at = next((i for i, (x, y) in enumerate(zip(a.ops, b.ops)) if x != y), min(len(a.ops), len(b.ops)))
                    what = (f"clause {b.clause!r} instead of {a.clause!r}" if a.clause != b.clause else
                            f"step {at + 1} reads {_op(b.ops, at)} instead of {_op(a.ops, at)}")
                    problems.append(Problem(ctx.rel(path), b.line, "", f"scenario {a.title!r} differs from "
                                            f"{ctx.rel(english)}:{a.line}: {what}",
                                            "a translated phrase of the steps catalog is ambiguous: make it match "
                                            "one template only"))
    return problems


def _op(ops: tuple, i: int) -> str:
    return f"{ops[i].key} {dict(ops[i].args)}" if i < len(ops) else "(nothing)"
