"""An engine that deviates in many ways at once, for `benchmarks/conform_cost.py`.

    python benchmarks/many_ways.py                 # the default mutants below, together
    python benchmarks/many_ways.py --bulky         # the same, every STATE reply carrying a log of the game
    python benchmarks/many_ways.py ties-allowed pass-not-final

The reference engine with several of `tests/mutants/mutant.py`'s rule mutations applied together
(each patches one rule; together they give many deviations on many clauses, in most games, some
explained by an option value and some by none). `--bulky` adds a `log` to every reply with a
STATE (a field the protocol lets a reply carry besides `ok` and `state`): every action of the game
so far, so that replies grow with the game (a large engine's large replies).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mutants"))

#: Applied when none is named: rules of turns, of plays, of passes, of scoring, of the exchange.
DEFAULT = ("ties-allowed", "pass-not-final", "leader-may-pass", "wrong-next-leader", "scoring-off-by-one",
           "worst-cards-given", "quad-does-not-flip")


def main(argv: list[str]) -> int:
    from mutant import MUTANTS  # tests/mutants/mutant.py

    bulky = "--bulky" in argv
    names = [a for a in argv if a != "--bulky"] or list(DEFAULT)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        print(f"unknown mutant(s) {', '.join(unknown)}; known: {', '.join(MUTANTS)}", file=sys.stderr)
        return 2
    for name in names:
        MUTANTS[name]()
    from president.protocol.server import Session, serve

    class Bulky(Session):
        """Every reply with a STATE also carries `log`: the game's actions so far."""

        log: list[str] = []

        def handle(self, req: Any) -> dict[str, Any]:
            reply: dict[str, Any] = super().handle(req)
            cmd = req.get("cmd") if isinstance(req, dict) else None
            if cmd == "new_game":
                self.log = []
            if cmd in ("act", "deal") and reply.get("ok"):
                self.log.append(json.dumps(req.get("action") or {"deal": True}, sort_keys=True))
            return {**reply, "log": list(self.log)} if "state" in reply else reply

    name = "many-ways" + ("-bulky" if bulky else "")
    serve(session=Bulky(name=name) if bulky else Session(name=name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
