"""Conformance features in every language, from the same spec examples and the `steps` catalogs.

`translated_features(spec, root)` gives `features/<lang>/<section>.feature` for ar, el, ru, hy
and hi: the English features' scenarios (`president.scenarios.model.build_scenarios`) with
Gherkin's own keywords of the language (`# language: <code>`, read from gherkin-official's
gherkin-languages.json) and every phrase and title from the catalogs.

`reduce_feature(text)` reads any of these files (English too) back to its sequence of
(clause, [Op, ...]) with the language's parser: `president check` requires every translation
to reduce to exactly what the English file reduces to, and `president conform --lang` runs
the scenarios it reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..spec import Spec
from ..spectext import SpecText
from .catalogs import CATALOG_LANGS, SOURCE_LANG, BuildError, translator_for
from .render import missing_problems
from .steps_catalog import (FEATURE_MESSAGES, GHERKIN_CODES, KIND_OF_KEYWORD_TYPE, StepLanguage, StepSyntaxError,
                            fill_names, gherkin_keywords, step_language)
from ..errors import PresidentError

LANG_OF_GHERKIN = {code: lang for lang, code in GHERKIN_CODES.items()}


def feature_lang(text: str) -> str:
    """The language of a feature file from its `# language:` header (English without one)."""
    first = text.split("\n", 1)[0].strip()
    if first.startswith("#") and first[1:].strip().startswith("language:"):
        return LANG_OF_GHERKIN.get(first.split(":", 1)[1].strip(), first.split(":", 1)[1].strip())
    return SOURCE_LANG


def generate_translated_feature(spec: Spec, section_id: str, lang: str, steps: StepLanguage,
                                rules_tr: Any) -> str | None:
    """features/<lang>/<section_id>.feature, or None if the section has no examples."""
    from ..scenarios.gherkin import feature_text

    kw = gherkin_keywords(lang)
    iso = steps.isolate

    def head() -> list[str]:
        section = next(s for s in spec.sections if s.id == section_id)
        header, desc1, desc2 = (steps.text("feature", m) for m in FEATURE_MESSAGES)
        game = rules_tr.pgettext("game name", spec.game)
        return [
            f"# language: {GHERKIN_CODES[lang]}",
            "# " + header.replace("{lang}", lang),
            f"# spec: {spec.id} {spec.version}",
            f"@{section_id}",
            f"{kw['feature']}: {rules_tr.pgettext('section', section.title)}",
            "  " + fill_names(desc1, section=iso(section_id), game=game, variant=spec.variant, version=spec.version),
            "  " + desc2,
        ]

    return feature_text(spec, section_id, head, kw,
                        clause_line=lambda c: f"{iso(c.id)} — {steps.clause_title(c)}",
                        scenario_title=lambda sc: steps.spec_text("scenario", sc.clause, _name_text(spec, sc)),
                        step=lambda op: steps.render(op.key, op.kwargs))


def _name_text(spec: Spec, scenario: Any) -> SpecText:
    """The name of the spec example a scenario comes from, with its spec numbers."""
    for ex in spec.clause(scenario.clause).examples:
        if ex.name == scenario.name:
            return ex.name_text or SpecText(ex.name)
    return SpecText(scenario.name)


def translated_features(spec: Spec, root: Path, langs: tuple[str, ...] = CATALOG_LANGS) -> dict[str, str]:
    """{"features/<lang>/<section>.feature": text} for every translated language."""
    files, problems = {}, []
    for lang in langs:
        steps = step_language(root, lang)
        rules_tr = translator_for(root, lang)
        steps.missed.clear()
        for section in spec.sections:
            text = generate_translated_feature(spec, section.id, lang, steps, rules_tr)
            if text is not None:
                files[f"features/{lang}/{section.id}.feature"] = text
        problems += [Problem(steps.source, None, "", f"{lang}: no translation for {msgid!r} (msgctxt {context!r})",
                             "add it to the steps catalog: `president i18n update`, then translate it")
                     for context, msgid in steps.missed]
        problems += missing_problems([rules_tr])
    if problems:
        raise BuildError(problems)
    return files


# --- reading features back ------------------------------------------------------------------

@dataclass(frozen=True)
class ReducedScenario:
    clause: str  # the clause tag of the scenario
    title: str
    ops: tuple  # of president.scenarios.model.Op
    line: int


class FeatureError(PresidentError, ValueError):
    """A feature file that cannot be read back: carries the line of the offending step."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def reduce_feature(text: str, root: Path | None = None, steps: StepLanguage | None = None) -> list[ReducedScenario]:
    """Every scenario of a feature file as (clause tag, title, ops), parsed in the file's language."""
    from gherkin.parser import Parser

    from ..scenarios.model import Op

    lang = feature_lang(text)
    steps = steps or step_language(root, lang)
    try:
        doc = Parser().parse(text)
    except Exception as exc:  # gherkin's CompositeParserException and friends
        raise FeatureError(f"not valid Gherkin: {exc}") from None
    out = []
    children = doc.get("feature", {}).get("children", [])
    # gherkin-official types a feature's children as Envelope, an empty TypedDict: they are
    # {"rule": ...}, {"scenario": ...} or {"background": ...}
    scenarios = [c["scenario"] for rule in children if "rule" in rule for c in rule["rule"]["children"]  # type: ignore[typeddict-item]
                 if "scenario" in c] + [c["scenario"] for c in children if "scenario" in c]  # type: ignore[typeddict-item]
    for sc in scenarios:
        tags = [t["name"][1:] for t in sc.get("tags", ())]
        ops, kind = [], None
        for step in sc["steps"]:
            kind = KIND_OF_KEYWORD_TYPE.get(step.get("keywordType"), kind)
            try:
                key, args = steps.parse(step["text"], kind)
            except StepSyntaxError as exc:
                raise FeatureError(str(exc), step["location"]["line"]) from None
            ops.append(Op.of(key, **args))
        out.append(ReducedScenario(tags[-1] if tags else "", sc["name"], tuple(ops), sc["location"]["line"]))
    return out


def localized_scenarios(spec: Spec, lang: str, root: Path | None = None) -> list:
    """The scenarios of `lang` as the runner executes them: read back from the language's
    feature text, with the English scenario ids (clause-id/slug) and translated titles."""
    from ..scenarios.model import Scenario, build_scenarios, requirements

    english = build_scenarios(spec)
    if lang == SOURCE_LANG:
        return english
    steps = step_language(root, lang)
    texts = translated_features(spec, _root(root), (lang,))
    read = [r for path in sorted(texts, key=_section_order(spec)) for r in reduce_feature(texts[path], steps=steps)]
    by_section = sorted(english, key=lambda s: [x.id for x in spec.sections].index(s.section))
    out = []
    for en, tr in zip(by_section, read):
        out.append(Scenario(en.id, en.clause, en.section, tr.title, tr.ops, requirements(tr.ops, spec), en.line))
    order = {s.id: i for i, s in enumerate(english)}
    return sorted(out, key=lambda s: order[s.id])


def _root(root: Path | None) -> Path:
    from ..resources import project_root
    return project_root(root)


def _section_order(spec: Spec):
    ids = [s.id for s in spec.sections]
    return lambda path: ids.index(Path(path).stem) if Path(path).stem in ids else len(ids)
