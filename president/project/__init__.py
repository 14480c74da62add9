"""The project's own jobs: `build` renders the rule sheets and features from the spec,
`check` verifies the spec, catalogs, scenarios and generated files.

Rendering and the translator's catalogs live in `president.i18n`; the scenario model in
`president.scenarios`.
"""
