"""A reference engine with a seeded shuffle of its own: `python tests/conform/shuffle_engine.py MODE`.

`own`: its own shuffle, dealt one card at a time from seat 0 (a right deal, not the spec's cards);
`seat1`: the same shuffle dealt from seat 1, so seat 1 gets the first extra card (`setup.dealing`).
Neither declares `hello.options.shuffle`: the seed is the engine's.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.errors import IllegalAction  # noqa: E402
from president.game.cards import DECK_SIZE  # noqa: E402
from president.game.engine import GameState  # noqa: E402
from president.protocol import server  # noqa: E402


def patch(mode: str) -> None:
    first = 1 if mode == "seat1" else 0

    def deal_cards(self: GameState) -> list[int]:
        if self.rng is None:
            raise IllegalAction("no_seed", "setup.dealing", "this game has no seed: give the hands explicitly")
        deck = list(range(DECK_SIZE + self.config.jokers))
        mine = random.Random(self.rng.random())  # another shuffle than the spec's, still from the seed
        mine.shuffle(deck)
        deck.reverse()
        hands = [0] * self.n
        for i, card in enumerate(deck):
            hands[(i + first) % self.n] |= 1 << card
        return hands

    GameState.deal_cards = deal_cards  # type: ignore[method-assign]
    hello = server.Session._hello

    def own_hello(self, req):  # noqa: ANN001, ANN202
        reply = hello(self, req)
        reply["options"].pop("shuffle", None)
        return reply

    server.Session._hello = own_hello  # type: ignore[method-assign]


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("own", "seat1"):
        print("usage: shuffle_engine.py own|seat1", file=sys.stderr)
        sys.exit(2)
    patch(sys.argv[1])
    sys.exit(server.serve(session=server.Session(name=f"shuffle-{sys.argv[1]}")))
