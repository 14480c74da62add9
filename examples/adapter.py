"""A minimal engine adapter for `president conform`: protocol v1 over JSON lines.

Replace the `Engine*` calls with your engine's. Here "your engine" is the reference
GameState, driven only through a small API (new game, legal actions, act, state) so the
wrapping is what you see. Run it with:

    president conform --engine "python examples/adapter.py" --games 50
"""
import json
import sys

from president.game.cards import card_list, parse_cards
from president.game.engine import PASS, GameState, Phase
from president.errors import IllegalAction

game = None


def wire_action(mask, give):
    if give:
        return {"type": "give", "cards": card_list(mask)}
    return {"type": "pass"} if mask == PASS else {"type": "play", "cards": card_list(mask)}


def handle(req):
    global game
    cmd = req.get("cmd")
    try:
        if cmd == "hello":
            return {"ok": True, "protocol": 1, "name": "example-adapter", "version": "0.1",
                    "variant": "cardverse-president", "spec_version": "1.1.0",
                    "options": {"players": [3, 4, 5, 6], "revolution": [True, False], "deals": True}}
        if cmd == "new_game":
            c = req["config"]
            game = GameState.new(players=c["players"], revolution=c.get("revolution"), deals=c.get("deals"),
                                 hands=[parse_cards(h) for h in req["hands"]])
        elif cmd == "deal":
            game.start_next_deal([parse_cards(h) for h in req["hands"]])
        elif cmd == "legal":
            give = game.phase == Phase.EXCHANGE
            return {"ok": True, "player": game.to_act, "actions": [wire_action(a, give) for a in game.legal_actions()]}
        elif cmd == "act":
            action = req["action"]
            game.act(req["player"], parse_cards(action.get("cards", [])), give=action["type"] == "give")
        elif cmd == "quit":
            return {"ok": True}
        elif cmd != "state":
            return {"ok": False, "error": {"code": "unknown_cmd", "rule": None, "message": str(cmd)}}
        return {"ok": True, "state": game.to_wire()}
    except IllegalAction as exc:  # a refusal: the state must stay unchanged
        return {"ok": False, "error": {"code": exc.code, "rule": exc.rule, "message": exc.message}}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return {"ok": False, "error": {"code": "bad_request", "rule": None, "message": repr(exc)}}


for line in sys.stdin:
    reply = handle(json.loads(line))
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()  # one reply per request, flushed: the runner pipelines requests
    if json.loads(line).get("cmd") == "quit":
        break
