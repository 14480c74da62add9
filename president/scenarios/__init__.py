"""The scenario model: step phrases (`steps`), scenarios built from the spec's examples
(`model`), the English Gherkin writer (`gherkin`) and clause coverage (`coverage`).

Used alike by the conformance runner (`president.conform`), the feature generator and the
translated features (`president.i18n`).
"""
