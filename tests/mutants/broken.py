"""Engines that break the protocol (not the rules): `python tests/mutants/broken.py MODE`.

crash-on-act: exits on the first act; garbage: answers `state` with a non-JSON line;
slow: never answers `legal`; v2: says protocol 2 in hello.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from president.protocol.server import Session  # noqa: E402


def main(mode: str) -> int:
    session = Session(name=f"broken-{mode}")
    for line in sys.stdin:
        req = json.loads(line)
        cmd = req.get("cmd")
        if mode == "crash-on-act" and cmd == "act":
            return 3
        if mode == "garbage" and cmd == "state":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        if mode == "slow" and cmd == "legal":
            time.sleep(30)
        reply = session.handle(req)
        if mode == "v2" and cmd == "hello":
            reply["protocol"] = 2
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
