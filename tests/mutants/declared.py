"""The reference engine (or one mutant) that plays only some table sizes.

    python tests/mutants/declared.py 4,5,6            # the reference, declaring players [4, 5, 6]
    python tests/mutants/declared.py 5 ties_allowed   # a mutant of tests/mutants/mutant.py, at 5 only

It serves protocol v1 like `president engine`, but `hello.options.players` lists only the given
sizes and a `new_game` at any other size is refused (`bad_config`, no rule: the engine does not
play it, which is no rule of the game). It measures how much of the suite an engine that plays
only some table sizes runs (tests/conform/test_table_sizes.py).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from president.protocol.server import ProtocolError, Session, serve  # noqa: E402


class DeclaredSession(Session):
    def __init__(self, players: list[int], name: str):
        super().__init__(name=name)
        self.players = players

    def _hello(self, req: dict[str, Any]) -> dict[str, Any]:
        reply = super()._hello(req)
        reply["options"]["players"] = list(self.players)
        return reply

    def _new_game(self, req: dict[str, Any]) -> dict[str, Any]:
        config = req.get("config")
        n = config.get("players") if isinstance(config, dict) else None
        if isinstance(n, int) and n not in self.players:
            raise ProtocolError("bad_config", f"this engine plays {self.players} players, not {n}")
        return super()._new_game(req)


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: declared.py SIZES [MUTANT]  (SIZES like 4,5,6)", file=sys.stderr)
        return 2
    try:
        players = [int(p) for p in argv[0].split(",")]
    except ValueError:
        print(f"declared.py: {argv[0]!r} is not a list of table sizes like 4,5,6", file=sys.stderr)
        return 2
    name = "declared"
    if len(argv) == 2:
        from mutant import MUTANTS

        if argv[1] not in MUTANTS:
            print(f"declared.py: unknown mutant {argv[1]!r}; known: {', '.join(MUTANTS)}", file=sys.stderr)
            return 2
        MUTANTS[argv[1]]()
        name = f"mutant-{argv[1]}"
    return serve(session=DeclaredSession(players, f"{name}-{argv[0]}"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
