"""Issue 30: the engines written for it (the `round4` entries of tests/engines/expected.json:
tests/engines/quirks.py, tests/engines/quirks.js and two mutants of the reference) get a diagnosis
an engine author can trust from a default `president conform --engine CMD --json`:

- a report, exit code 1, no toolkit error;
- every expected root cause reported under its clause (or an `or`: an equally true reading of the
  same rule, never a consequence);
- no clause outside those;
- no false explanation: no fitted option, house rule or "partly explained" variant the engine
  does not play;
- a clause named as the reason why a game could not be followed is also a deviation.

The first tests (not slow) check that each engine plays the rule its comment block names, so that
a failing diagnosis is the runner's fault, not the engine's."""
from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from president.protocol.client import SubprocessClient

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "tests" / "engines" / "expected.json").read_text(encoding="utf-8"))["engines"]
ROUND4 = [e for e in EXPECTED if e.get("round4")]
NODE = shutil.which("node")


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    program = {"python": sys.executable, "node": NODE}.get(words[0], words[0])
    return [str(program), *(str(ROOT / w) if w.startswith("tests/") else w for w in words[1:])]


def _open(command: str) -> SubprocessClient:
    if command.startswith("node") and NODE is None:
        pytest.skip("node is not installed")
    return SubprocessClient(_argv(command), timeout=20.0)


def _ok(client: SubprocessClient, cmd: str, **fields: Any) -> dict:
    reply = client.request({"cmd": cmd, **fields})
    assert reply.get("ok") is True, (cmd, fields, reply)
    return reply


def _act(client: SubprocessClient, seat: int, *cards: str) -> dict:
    action = {"type": "play", "cards": list(cards)} if cards else {"type": "pass"}
    return _ok(client, "act", player=seat, action=action)["state"]


def _plays(client: SubprocessClient) -> set[frozenset]:
    return {frozenset(a["cards"]) for a in _ok(client, "legal")["actions"] if a["type"] == "play"}


# -- each engine plays its own rule -------------------------------------------------------------

def test_not_final_asks_a_seat_again_and_lists_every_pass_since_the_reset():
    client = _open("python tests/engines/quirks.py not-final")
    _ok(client, "new_game", config={"players": 3}, hands=[["3C", "6C", "9C"], ["4C", "8C"], ["5C", "7C"]])
    _act(client, 0, "3C")
    _act(client, 1)  # seat 1 passes
    _act(client, 2, "5C")
    state = _act(client, 0, "6C")
    assert state["to_act"] == 1 and state["passed"] == [1]  # asked again, and still listed as having passed
    assert frozenset({"8C"}) in _plays(client)
    state = _act(client, 1, "8C")
    assert state["trick"] == {"cards": ["8C"], "by": 1} and state["to_act"] == 2
    client.close()


def test_two_limits_refuses_a_climb_of_five_ranks_and_a_lone_two_on_a_single():
    client = _open("python tests/engines/quirks.py two-limits")
    _ok(client, "new_game", config={"players": 3}, hands=[["3C", "9C"], ["7C", "8C"], ["4C"]])
    _act(client, 0, "3C")
    assert _plays(client) == {frozenset({"7C"})}  # 7 is four ranks above 3; 8 is five
    _ok(client, "new_game", config={"players": 3}, hands=[["AC", "3C"], ["2D", "8C"], ["4C"]])
    _act(client, 0, "AC")
    assert _plays(client) == set()  # a lone 2 does not follow, not even on an ace
    assert client.request({"cmd": "act", "player": 1, "action": {"type": "play", "cards": ["2D"]}})["ok"] is False
    client.close()
    client = _open("python tests/engines/quirks.py two-limits")
    _ok(client, "new_game", config={"players": 3}, hands=[["RC", "RD", "3C"], ["2C", "2D"], ["4C"]])
    _act(client, 0, "RC", "RD")
    assert _plays(client) == {frozenset({"2C", "2D"})}  # a pair of 2s follows
    client.close()


def test_returns_hands_empties_every_hand_at_the_end_of_the_deal():
    client = _open("python tests/engines/quirks.py returns-hands")
    _ok(client, "new_game", config={"players": 3}, hands=[["5C"], ["3C", "4C"], ["6C"]])
    _act(client, 0, "5C")
    _act(client, 1)
    state = _act(client, 2, "6C")
    assert state["phase"] == "game_over" and state["finished"] == [0, 2, 1]
    assert state["hands"] == [[], [], []]  # 1.1.0: [[], ["3C", "4C"], []]
    client.close()


def test_keeps_turn_leaves_the_turn_with_a_seat_that_went_out():
    client = _open("node tests/engines/quirks.js keeps-turn")
    _ok(client, "new_game", config={"players": 3}, hands=[["5C"], ["3C", "4C"], ["6C", "7C"]])
    state = _act(client, 0, "5C")
    assert state["finished"] == [0] and state["to_act"] == 0 and state["hands"][0] == []
    assert _ok(client, "legal")["actions"] == [{"type": "pass"}]
    state = _act(client, 0)
    assert state["to_act"] == 1 and state["passed"] == [] and state["trick"] == {"cards": ["5C"], "by": 0}
    client.close()


def test_heart_seven_holder_leads_anything_and_hands_without_it_are_refused():
    client = _open("node tests/engines/quirks.js heart-seven")
    state = _ok(client, "new_game", config={"players": 3}, hands=[["3C", "9D"], ["4C", "7H"], ["5C", "6C"]])["state"]
    assert state["to_act"] == 1
    assert _plays(client) == {frozenset({"4C"}), frozenset({"7H"})}  # the 7H need not be led
    refused = client.request({"cmd": "new_game", "config": {"players": 3}, "hands": [["3C"], ["4C"], ["5C"]]})
    assert refused["ok"] is False and refused["error"]["rule"] == "setup.first-lead"
    assert "jokers" not in _ok(client, "hello")["options"]
    assert client.request({"cmd": "new_game", "config": {"players": 3, "jokers": 1},
                           "hands": [["7H"], ["4C"], ["5C"]]})["ok"] is False
    client.close()


def test_mutant_passes_never_reset_skips_a_seat_that_passed_in_an_earlier_trick():
    client = _open("python tests/mutants/mutant.py passes-never-reset")
    _ok(client, "new_game", config={"players": 3}, hands=[["5C", "3C"], ["4C", "6D"], ["4D", "7D"]])
    _act(client, 0, "5C")
    _act(client, 1)
    state = _act(client, 2)
    assert state["trick"] is None and state["to_act"] == 0 and state["passed"] == [1, 2]  # 1.1.0: []
    client.close()


def test_mutant_next_leader_skips_one_passes_the_lead_beyond_the_next_active_seat():
    client = _open("python tests/mutants/mutant.py next-leader-skips-one")
    _ok(client, "new_game", config={"players": 4}, hands=[["3C", "4C"], ["5C", "6C"], ["9C"], ["7C", "8C"]])
    _act(client, 0, "3C")
    _act(client, 1, "5C")
    _act(client, 2, "9C")
    _act(client, 3)
    _act(client, 0)
    state = _act(client, 1)
    assert state["trick"] is None and state["to_act"] == 0  # 1.1.0: seat 3, the next active seat
    client.close()


# -- the diagnosis of a default run ---------------------------------------------------------------

def _variant(text: str) -> dict:
    """`first_lead="holder:3C", jokers=1` (president.conform.fit.label) as a dict."""
    out = {}
    for part in re.split(r",\s*(?=\w+=)", text.strip()):
        name, _, value = part.partition("=")
        try:
            out[name.strip()] = json.loads(value)
        except ValueError:
            out[name.strip()] = value.strip()
    return out


def _partly_variants(data: dict) -> list[dict]:
    found = [_variant(j["variant"]) for j in data["fit"].get("partly_explained", [])]
    for d in data["deviations"]:
        for line in d.get("partly_explained", []):
            found.append(_variant(line.split(" removes ")[0]))
    return found


def _within(variant: dict, allowed: list[dict]) -> bool:
    return any(variant.items() <= a.items() for a in allowed)


def _conform(entry: dict, tmp_path: Path) -> tuple[subprocess.CompletedProcess, dict | None]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "president", "conform", "--engine", shlex.join(_argv(entry["command"])),
         "--json", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    return done, data


def diagnosis_problems(entry: dict, done: subprocess.CompletedProcess, data: dict | None,
                       clause_ids: set[str]) -> list[str]:
    """Everything wrong with the diagnosis of one engine, as sentences (empty: the diagnosis is right)."""
    problems: list[str] = []
    if done.returncode != 1:
        problems.append(f"exit code {done.returncode}, not 1")
    if "Traceback" in done.stderr or "internal error" in done.stderr:
        problems.append(f"a traceback on stderr: {done.stderr[-1500:]}")
    if not done.stdout.startswith("engine: "):
        problems.append(f"no report on stdout: {done.stdout[:500]!r}")
    if data is None:
        return problems + ["no JSON report written"]
    if data.get("toolkit_errors") or data["fit"].get("toolkit_errors"):
        problems.append(f"toolkit errors: {data.get('toolkit_errors')} {data['fit'].get('toolkit_errors')}")
    named = {d["clause"] for d in data["deviations"]}
    shown = named | {c for d in data["deviations"] for c in d.get("also_breaks", []) if isinstance(c, str)}
    allowed = {c for dev in entry["deviations"] for c in (dev["clause"], *dev["or"])}
    # each true cause needs a deviation of its own (two causes under one clause are two deviations,
    # each with its own evidence): match them, the causes with the fewest readings first
    unmatched = [d["clause"] for d in data["deviations"]]
    for dev in sorted(entry["deviations"], key=lambda d: len(d["or"])):
        readings = {dev["clause"], *dev["or"]}
        match = next((c for c in unmatched if c in readings), None)
        if match is None:
            problems.append(f"true cause {dev['clause']} (or {dev['or']}) has no deviation of its own; "
                            f"reported: {[d['clause'] for d in data['deviations']]}")
        else:
            unmatched.remove(match)
    if shown - allowed:
        problems.append(f"clauses outside the expected ones: {sorted(shown - allowed)}")
    fitted = data["fit"].get("variant") or {}
    if isinstance(fitted, list):
        fitted = dict(fitted)
    if not fitted.items() <= entry["fitted"].items():
        problems.append(f"fitted {fitted}, the engine plays {entry['fitted'] or 'no option value'}")
    for d in data["deviations"]:
        if d.get("house_rule") and not _within(_variant(d["house_rule"]), [entry["fitted"]]):
            problems.append(f"{d['clause']} explained by {d['house_rule']}, which the engine does not play")
    for variant in _partly_variants(data):
        if not _within(variant, entry["partly_by"]):
            problems.append(f"false explanation: partly explained by {variant}")
    reasons = json.dumps(data["lockstep"].get("unfinished", []))
    stopped_by = {c for c in re.findall(r"[a-z]+(?:\.[a-z0-9-]+)+", reasons) if c in clause_ids}
    if stopped_by - named:
        problems.append(f"games stopped by {sorted(stopped_by)}, reported as deviations: {sorted(named)}")
    if entry.get("unfollowable") and entry["unfollowable"] not in named:
        problems.append(f"the unfollowable clause {entry['unfollowable']} is no deviation")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("entry", ROUND4, ids=[e["command"].split("/")[-1] for e in ROUND4])
def test_a_default_run_names_every_true_cause_and_nothing_false(entry, tmp_path):
    from president.spec import load_spec

    if entry["command"].startswith("node") and NODE is None:
        pytest.skip("node is not installed")
    done, data = _conform(entry, tmp_path)
    problems = diagnosis_problems(entry, done, data, set(load_spec().clause_ids))
    assert not problems, "\n".join([entry["command"], *problems, "--- first screen:", done.stdout[:2500]])
