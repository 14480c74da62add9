"""Fake engines for the fault-injection suite: `python tests/faults/fake_engine.py MODE`.

Each wraps the reference `Session` and breaks the protocol in one way (see MODES). Used by
tests/faults/test_faults.py, which states the outcome the conformance runner must report. With
$FAKE_PIDS set, every engine process appends its pid to that file (tests check none is left).
"""
from __future__ import annotations

import json
import os
import select
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.protocol.server import Session  # noqa: E402

MODES = {
    "hang": "answers hello, then never answers again (reads and ignores every request)",
    "hang-at-start": "never answers anything, not even hello",
    "crash": "exits with a message on stderr at the first act",
    "log-stdout": "writes one log line on stdout before its first new_game reply, in every process ($FAKE_LINE, default \"debug: new game starting\")",
    "log-once": "writes one log line on stdout before one new_game reply, once in the whole run",
    "log-at-start": "writes a log line on stdout as it starts, every time",
    "out-of-order": "answers two requests that arrive together in swapped order",
    "twice": "answers every new_game twice",
    "slow": "answers every request after 0.2 s",
    "deep-json": "answers hello with a JSON value nested 100000 deep",
    "close-stdout": "answers hello, then closes its stdout at the next request and stays alive (reads on, sleeps)",
    "flood-stderr": "writes 1 MiB on stderr before every reply, and a last line before it exits at the first act",
    "spawn-child": "starts a child that sleeps 10 minutes (its pid appended to $FAKE_PIDS), then serves",
    "nan-reply": "answers the new_game numbered $FAKE_NAN_AT in the whole run (count kept in $FAKE_MARKER; "
                 "every new_game if unset) with NaN among the scores",
    "bad-hello-options": "answers hello with malformed options (players is a string, revolution a boolean)",
    # hostile engines (issue 27): what an engine says must stay bounded and inert
    "huge-refusal": "refuses every act with a message of $FAKE_SIZE characters (default 5,000,000)",
    "legal-flood": "answers legal with $FAKE_COUNT (default 20,000) distinct plays the seat cannot make",
    "legal-dups": "answers legal with 10,000 copies of a pass",
    "drip": "answers hello, then writes each reply a few bytes at a time, $FAKE_RATE bytes a second (default 200: "
            "every reply comes within 5 s)",
    "stray": "writes an unasked error reply 0.3 s after each new_game reply",
    "setsid-exit": "starts a child in a session of its own holding its stdout (pid in $FAKE_PIDS), exits at the first act",
    "escapes": "refuses every act; terminal escapes, CR, XML-forbidden and bidi characters in its name, refusals, stderr",
    # issue 32: a second reply to one request, large texts in other fields
    "twice-at": "answers the $FAKE_AT-th (default 1) request $FAKE_CMD (default act) of the whole run twice (count "
                "kept in $FAKE_MARKER; every such request if unset), the copy $FAKE_LATE seconds later (default 0: "
                "in the same write); with $FAKE_REFUSE=1 only its refusals count (a refusal fits any next request)",
    "huge-field": "puts $FAKE_SIZE characters (default 5,000,000) in the field $FAKE_FIELD of its replies: "
                  "hello-name, hello-version, code, rule (of a refused act), state-phase (of every STATE), "
                  "action-type (of one legal action), distinct (a refusal message that differs each time)",
    "hang-at": "answers the first $FAKE_AT requests of the whole run (count kept in $FAKE_MARKER), then only hello",
    "plain": "the reference as it is (for a run that --budget stops)",
    "crash-for-good": "exits at the first act, and from then on (a file $FAKE_MARKER says so) exits at once when started",
}

#: What the "escapes" engine says: screen clear, window title, hyperlink, carriage return, XML-forbidden, bidi.
HOSTILE_TEXT = "\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://x.example/\x1b\\link\rover\x01\x0b\u202egnp.exe"


def _lines():
    """(line, whether another request is already waiting) for each request on stdin."""
    buf = b""
    while True:
        while b"\n" not in buf:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                return
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        more = b"\n" in buf or bool(select.select([0], [], [], 0)[0])
        if line.strip():
            yield line, more


def _nan_now() -> bool:
    """Whether this new_game is the one numbered $FAKE_NAN_AT of the run (every one if unset)."""
    at, marker = os.environ.get("FAKE_NAN_AT"), os.environ.get("FAKE_MARKER")
    if not at or not marker:
        return True
    count = int(Path(marker).read_text() or 0) + 1 if os.path.exists(marker) else 1
    Path(marker).write_text(str(count))
    return count == int(at)


def _counted(marker_var: str = "FAKE_MARKER") -> bool:
    """Whether this request is the $FAKE_AT-th of its kind in the whole run (every one if unset)."""
    at, marker = os.environ.get("FAKE_AT"), os.environ.get(marker_var)
    if not at or not marker:
        return True
    count = int(Path(marker).read_text() or 0) + 1 if os.path.exists(marker) else 1
    Path(marker).write_text(str(count))
    return count == int(at)


def _past(limit: int) -> bool:
    """Whether this request comes after the first `limit` of the whole run (count in $FAKE_MARKER)."""
    marker = Path(os.environ["FAKE_MARKER"])
    count = int(marker.read_text() or 0) + 1 if marker.exists() else 1
    marker.write_text(str(count))
    return count > limit


def _twice(out, cmd: str, reply: str) -> bool:
    """`twice-at`: the reply written, then (for the chosen request) a copy; True when it wrote."""
    if cmd != os.environ.get("FAKE_CMD", "act"):
        return False
    if os.environ.get("FAKE_REFUSE") == "1" and '"ok": false' not in reply:
        return False  # only its refusals count (a refusal fits as the reply to any next request)
    if not _counted():
        return False
    late = float(os.environ.get("FAKE_LATE", 0))
    out.write(reply if late else reply + reply)
    out.flush()
    if late:
        time.sleep(late)
        out.write(reply)
        out.flush()
    return True


_COUNTER = [0]


def _huge_field(cmd: str, reply: str) -> str:
    """`huge-field`: $FAKE_SIZE characters in the field $FAKE_FIELD."""
    where, size = os.environ.get("FAKE_FIELD", "hello-name"), int(os.environ.get("FAKE_SIZE", 5_000_000))
    answer = json.loads(reply)
    big = "y" * size
    if cmd == "hello" and where in ("hello-name", "hello-version"):
        answer[where.split("-")[1]] = big
    elif cmd == "act" and where in ("code", "rule", "distinct"):
        _COUNTER[0] += 1
        error = {"code": "refused", "rule": "play.strictly-higher", "message": "refused"}
        if where == "distinct":
            error["message"] = f"refusal {_COUNTER[0]}: " + big
        else:
            error[where] = big
        answer = {"ok": False, "error": error}
    elif where == "state-phase" and isinstance(answer.get("state"), dict):
        answer["state"]["phase"] = big
    elif where == "action-type" and cmd == "legal" and answer.get("ok") and answer.get("actions"):
        answer["actions"][0] = {"type": big}
    return json.dumps(answer) + "\n"


def _spawn_child() -> None:
    """A child in the engine's process group that would sleep for 10 minutes; both pids recorded."""
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL)
    with open(os.environ["FAKE_PIDS"], "a") as f:
        f.write(f"{child.pid}\n")


_REFUSAL = ""


def _hostile(mode: str, cmd: str, reply: str) -> str:
    """The reply of the hostile engines (issue 27), from the reference's `reply`."""
    if mode == "huge-refusal" and cmd == "act":  # made once: the engine's own time stays small
        global _REFUSAL
        _REFUSAL = _REFUSAL or json.dumps({"ok": False, "error": {
            "code": "refused", "rule": "play.strictly-higher",
            "message": "refused: " + "x" * int(os.environ.get("FAKE_SIZE", 5_000_000))}}) + "\n"
        return _REFUSAL
    answer = json.loads(reply)
    if mode == "legal-flood" and cmd == "legal" and answer.get("ok"):
        import itertools

        cards = [r + s for r in ("3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2") for s in "CDHS"]
        count = int(os.environ.get("FAKE_COUNT", 20_000))
        answer["actions"] = [{"type": "play", "cards": list(c)} for c in
                             itertools.islice(itertools.combinations(cards, 3), count)]
    elif mode == "legal-dups" and cmd == "legal" and answer.get("ok"):
        answer["actions"] = [{"type": "pass"}] * 10_000
    elif mode == "escapes":
        if cmd == "hello":
            answer["name"] = HOSTILE_TEXT
        if cmd == "act":  # every act refused: the texts reach failures, JUnit and the terminal
            answer = {"ok": False, "error": {"code": HOSTILE_TEXT, "rule": HOSTILE_TEXT, "message": HOSTILE_TEXT}}
    return json.dumps(answer) + "\n"


def _stray(out) -> None:
    """An unasked error reply, 0.3 s after the reply just written (the next request waits meanwhile)."""
    time.sleep(0.3)
    out.write('{"ok":false,"error":{"code":"stray","rule":null,"message":"nobody asked"}}\n')
    out.flush()


def _setsid_child() -> None:
    """A child in a session of its own that holds the engine's stdout for 10 minutes; its pid recorded."""
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL,
                             start_new_session=True)
    with open(os.environ["FAKE_PIDS"], "a") as f:
        f.write(f"{child.pid}\n")


def _drip(out, reply: str) -> None:
    rate = float(os.environ.get("FAKE_RATE", 200))
    data = reply.encode()
    for i in range(0, len(data), 5):
        os.write(out.fileno(), data[i:i + 5])
        time.sleep(5 / rate)


def main(mode: str) -> int:
    session = Session(name=f"fake-{mode}")
    if os.environ.get("FAKE_PIDS"):  # every engine process, for the tests that check none is left
        with open(os.environ["FAKE_PIDS"], "a") as f:
            f.write(f"{os.getpid()}\n")
    if mode == "spawn-child":
        _spawn_child()
    if mode == "setsid-exit":
        _setsid_child()
    if mode == "escapes":
        sys.stderr.write(HOSTILE_TEXT + "\n")
        sys.stderr.flush()
    out = sys.stdout
    logged = False
    held: list[str] = []
    if mode == "crash-for-good" and os.path.exists(os.environ["FAKE_MARKER"]):
        print("fake engine: cannot start again (simulated)", file=sys.stderr)
        return 134
    if mode == "log-at-start":
        out.write("engine starting up\n")
        out.flush()
    for line, more in _lines():
        req = json.loads(line)
        cmd = req.get("cmd")
        if mode == "hang-at-start" or (mode == "hang" and cmd != "hello"):
            continue
        if mode == "hang-at" and cmd != "hello" and _past(int(os.environ["FAKE_AT"])):
            continue
        if mode == "crash-for-good" and cmd == "act":
            open(os.environ["FAKE_MARKER"], "w").close()
            return 139
        if mode == "close-stdout" and cmd != "hello":
            out.close()
            os.close(1)
            for _ in _lines():  # alive, reading on, answering nothing
                pass
            time.sleep(600)
            return 0
        if mode == "flood-stderr":
            line = "fake engine: debug " + "x" * 1000 + "\n"
            for _ in range(1024):
                sys.stderr.write(line)
            if cmd == "act":
                print("fake engine: the last words after a flood (simulated)", file=sys.stderr)
                return 139
        if mode == "setsid-exit" and cmd == "act":
            return 3
        if mode == "crash" and cmd == "act":
            print("fake engine: segmentation fault (simulated)", file=sys.stderr)
            return 139
        if mode == "slow":
            time.sleep(0.2)
        reply = json.dumps(session.handle(req)) + "\n"
        if mode in ("huge-refusal", "legal-flood", "legal-dups", "escapes"):
            reply = _hostile(mode, cmd, reply)
        if mode == "huge-field":
            reply = _huge_field(cmd, reply)
        if mode == "twice-at" and _twice(out, cmd, reply):
            continue
        if mode == "drip" and cmd != "hello":
            _drip(out, reply)
            continue
        if mode == "deep-json" and cmd == "hello":
            reply = "[" * 100000 + "]" * 100000 + "\n"
        if mode == "nan-reply" and cmd == "new_game" and '"state"' in reply and _nan_now():
            answer = json.loads(reply)
            answer["state"]["scores"][0] = float("nan")
            reply = json.dumps(answer) + "\n"  # Python writes NaN, which is not JSON
        if mode == "bad-hello-options" and cmd == "hello":
            answer = json.loads(reply)
            answer["options"].update(players="four", revolution=True)
            reply = json.dumps(answer) + "\n"
        if mode == "log-stdout" and cmd == "new_game" and not logged:
            out.write(os.environ.get("FAKE_LINE", "debug: new game starting") + "\n")
            logged = True
        if mode == "log-once" and cmd == "new_game" and not os.path.exists(os.environ["FAKE_MARKER"]):
            open(os.environ["FAKE_MARKER"], "w").close()
            out.write("debug: new game starting\n")
        if mode == "twice" and cmd == "new_game":
            out.write(reply)
        if mode == "out-of-order" and (held or more):
            held.append(reply)
            if len(held) == 2:
                out.write(held[1] + held[0])
                held.clear()
                out.flush()
            continue
        out.write(reply)
        out.flush()
        if mode == "stray" and cmd == "new_game":
            _stray(out)
        if cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
