"""The generated features in ar, el, ru, hy and hi (features/<lang>/) against the reference engine.

The steps of every language are registered from the `steps` catalogs: one implementation
(`run_step`: the `world` fixture executes the operation, as for English) and one parser per
language and template (`CatalogStep`, built on `president.i18n.steps_catalog.StepLanguage`), so
a translated phrase resolves to the same template key and arguments as the English one.
"""
from __future__ import annotations

from pytest_bdd import given, scenarios, then, when
from pytest_bdd.parsers import StepParser

from president.scenarios.model import Op
from president.i18n.catalogs import CATALOG_LANGS
from president.i18n.steps_catalog import step_language
from president.scenarios.steps import GIVEN, STEP_TEMPLATES, THEN, WHEN

from .conftest import FEATURES_DIR, World

_DECORATORS = {GIVEN: given, WHEN: when, THEN: then}
ROOT = FEATURES_DIR.parent


class CatalogStep(StepParser):
    """Template `key` in language `lang`, parsed with the catalog's phrase (bidi marks ignored)."""

    def __init__(self, lang: str, key: str):
        super().__init__(f"{lang}:{key}")
        self.language = step_language(ROOT, lang)
        self.key = key

    def parse_arguments(self, name: str) -> dict[str, Op] | None:
        args = self.language.match(self.key, name)
        return None if args is None else {"op": Op.of(self.key, **args)}

    def is_matching(self, name: str) -> bool:
        return self.language.match(self.key, name) is not None


def run_step(world: World, op: Op) -> None:
    world.run(op)


for _lang in CATALOG_LANGS:
    for _tpl in STEP_TEMPLATES:
        if _tpl.kind in _DECORATORS:
            _DECORATORS[_tpl.kind](CatalogStep(_lang, _tpl.key))(run_step)

scenarios(*(str(FEATURES_DIR / lang) for lang in CATALOG_LANGS))
