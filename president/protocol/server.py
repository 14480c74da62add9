"""Engine protocol v1: JSON lines, one reply per request (see docs/protocol.md).

`Session.handle(request) -> reply` is the whole protocol as a plain function over dicts, used
in-process by the conformance runner and tests; `serve()` wraps it around stdin/stdout.
Bad input never kills the server and never changes the state: it gets an error reply.
"""
from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable

from .._version import __version__
from ..game.cards import card_list, parse_cards
from ..game.engine import PASS, GameState, Phase, Ruleset
from ..errors import CardError, IllegalAction, PresidentError

PROTOCOL_VERSION = 1
VARIANT = "cardverse-president"
Reply = dict[str, Any]


def error(code: str, message: str, rule: str | None = None) -> Reply:
    return {"ok": False, "error": {"code": code, "rule": rule, "message": message}}


def _not_json(name: str) -> Any:
    """NaN, Infinity and -Infinity: Python reads them, JSON has no such values."""
    raise ValueError(f"{name} is not a JSON value")


class ProtocolError(PresidentError):
    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def action_to_wire(action: int, give: bool) -> dict[str, Any]:
    if give:
        return {"type": "give", "cards": card_list(action)}
    if action == PASS:
        return {"type": "pass"}
    return {"type": "play", "cards": card_list(action)}


def _cards(value: Any, field: str) -> int:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ProtocolError("bad_field", f"{field} must be a list of card strings like \"10H\"")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise ProtocolError("bad_card", f"{field}: {exc}") from None


def _hands(value: Any) -> list[int]:
    if not isinstance(value, list):
        raise ProtocolError("bad_field", "hands must be a list of hands, one list of cards per seat")
    return [_cards(h, f"hands[{i}]") for i, h in enumerate(value)]


class Session:
    """One engine connection: at most one game at a time."""

    def __init__(self, rules: Ruleset | None = None, name: str = "president-reference"):
        self.rules = rules or Ruleset.from_spec()
        self.name = name
        self.game: GameState | None = None
        self._dispatch: dict[str, Callable[[dict[str, Any]], Reply]] = {
            "hello": self._hello, "new_game": self._new_game, "deal": self._deal, "legal": self._legal,
            "act": self._act, "state": self._state, "quit": self._quit, "ai": self._ai,
        }
        self.done = False

    def handle(self, request: Any) -> Reply:
        if not isinstance(request, dict):
            return error("bad_request", "a request is a JSON object with a \"cmd\" field")
        cmd = request.get("cmd")
        handler = self._dispatch.get(cmd) if isinstance(cmd, str) else None
        if handler is None:
            return error("unknown_cmd", f"unknown command {cmd!r}; known: {', '.join(self._dispatch)}")
        try:
            return handler(request)
        except ProtocolError as exc:
            return error(exc.code, exc.message)
        except IllegalAction as exc:
            return error(exc.code, exc.message, exc.rule)

    def handle_line(self, line: str | bytes) -> str:
        try:
            request = json.loads(line, parse_constant=_not_json)
        except (ValueError, UnicodeDecodeError) as exc:
            reply = error("bad_json", f"the line is not JSON: {exc}")
        except RecursionError:  # any nesting depth: refused, never fatal
            reply = error("bad_json", "the line nests JSON too deeply to be a request")
        else:
            reply = self.handle(request)
        return json.dumps(reply, separators=(",", ":"), ensure_ascii=False)

    # --- commands ---------------------------------------------------------------------
    def _hello(self, req: dict[str, Any]) -> Reply:
        r = self.rules
        return {"ok": True, "protocol": PROTOCOL_VERSION, "name": self.name, "version": __version__,
                "variant": VARIANT, "spec_version": r.spec.version,
                "options": {"players": list(range(r.min_players, r.max_players + 1)), **r.supported(),
                            "seed": True, "shuffle": "spec", "ai": [lv.id for lv in r.spec.ai_levels],
                            "position": True}}

    def _game(self) -> GameState:
        if self.game is None:
            raise ProtocolError("no_game", "no game in progress: send new_game first")
        return self.game

    def _new_game(self, req: dict[str, Any]) -> Reply:
        config = req.get("config")
        if not isinstance(config, dict):
            raise ProtocolError("missing_field", "new_game needs \"config\": {\"players\": n, \"revolution\": bool, \"deals\": k}")
        if "players" not in config:
            raise ProtocolError("missing_field", "config.players is required")
        cfg = self.rules.config(**config)  # an unknown key is refused (unknown_option), never ignored
        if "hands" in req:
            hands: list[int] | None = _hands(req["hands"])
            seed = None
        elif "seed" in req:
            seed = req["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ProtocolError("bad_field", "seed must be an integer")
            hands = None
        else:
            raise ProtocolError("missing_field", "new_game needs \"hands\" or \"seed\"")
        if "position" in req:  # optional capability: start mid-deal (president.game.position)
            game = _at_position(self.rules, cfg, hands, seed, req["position"])
        else:
            game = GameState(self.rules, cfg, hands, seed)
        self.game = game
        return {"ok": True, "state": self.game.to_wire()}

    def _deal(self, req: dict[str, Any]) -> Reply:
        game = self._game()
        hands = _hands(req["hands"]) if "hands" in req else None
        trial = game.copy()  # a refused deal leaves the state unchanged
        trial.start_next_deal(hands)
        self.game = trial
        return {"ok": True, "state": trial.to_wire()}

    def _legal(self, req: dict[str, Any]) -> Reply:
        game = self._game()
        give = game.phase == Phase.EXCHANGE
        return {"ok": True, "player": game.to_act,
                "actions": [action_to_wire(a, give) for a in game.legal_actions()]}

    def _act(self, req: dict[str, Any]) -> Reply:
        game = self._game()
        if "player" not in req or "action" not in req:
            raise ProtocolError("missing_field", "act needs \"player\" and \"action\"")
        seat, action = req["player"], req["action"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError("bad_field", "player must be a seat number")
        if not isinstance(action, dict) or action.get("type") not in ("play", "pass", "give"):
            raise ProtocolError("bad_field", "action must be {\"type\": \"play\"|\"pass\"|\"give\", ...}")
        kind = action["type"]
        if kind == "pass":
            mask = PASS
        else:
            if "cards" not in action:
                raise ProtocolError("missing_field", f"a {kind} action needs \"cards\"")
            mask = _cards(action["cards"], "action.cards")
            if mask == 0:
                raise IllegalAction("wrong_count", "flow.lead" if kind == "play" else "exchange.scum",
                                    f"a {kind} needs at least one card")
        game.act(seat, mask, give=kind == "give")
        return {"ok": True, "state": game.to_wire()}

    def _ai(self, req: dict[str, Any]) -> Reply:
        """The action the AI of `level` would take for `player` now (not applied). `seed` seeds its rng."""
        import random

        from ..ai import choose, levels

        game = self._game()
        seat, level, seed = req.get("player"), req.get("level"), req.get("seed", 0)
        if level not in levels(self.rules.spec):
            raise ProtocolError("bad_field", f"level must be one of {', '.join(levels(self.rules.spec))}")
        if seat != game.to_act or not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError("bad_field", f"player must be the seat to act ({game.to_act})")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ProtocolError("bad_field", "seed must be an integer")
        action = choose(level, game.observation(seat), random.Random(seed))
        return {"ok": True, "player": seat, "action": action_to_wire(action, game.phase == Phase.EXCHANGE)}

    def _state(self, req: dict[str, Any]) -> Reply:
        return {"ok": True, "state": self._game().to_wire()}

    def _quit(self, req: dict[str, Any]) -> Reply:
        self.done = True
        return {"ok": True}


def _at_position(rules: Ruleset, config: Any, hands: list[int] | None, seed: int | None, position: Any) -> GameState:
    """The game at `position` with the request's hands (or the seed's deal); `bad_position` names
    the field that is wrong."""
    from ..game.position import BadPosition, position_game

    if hands is None:
        hands = GameState(rules, config, None, seed).hands
    try:
        return position_game(rules, config, hands, position)
    except BadPosition as exc:
        raise ProtocolError("bad_position", f"bad position: {exc}") from None


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None, rules: Ruleset | None = None,
          session: Session | None = None) -> int:
    """Serve the protocol on binary streams until `quit` or end of input. Logs go to stderr only."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    session = session or Session(rules)
    write, flush, readline = stdout.write, stdout.flush, stdin.readline
    handle_line = session.handle_line
    while True:
        line = readline()
        if not line:
            break
        if not line.strip():
            continue
        try:
            reply = handle_line(line)
        except Exception as exc:  # noqa: BLE001 - a bug of this engine: reported, and the engine keeps serving
            import traceback

            traceback.print_exc(file=sys.stderr)
            reply = json.dumps(error("internal_error", f"the reference engine failed on this request: "
                                     f"{type(exc).__name__}: {exc} (please report it)"))
        write(reply.encode("utf-8", "replace") + b"\n")
        flush()
        if session.done:
            break
    return 0
