"""The reference engine: cards and hands as bitmasks (`cards`), the Ruleset built once from the spec
(`ruleset`), the combinations (`plays`), the mutable GameState and Observation (`engine`), and a game
set up from a protocol STATE (`position`)."""
