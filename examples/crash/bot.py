"""Misbehaving bot for demos and tests: plays tsumogiri, but on its 3rd own draw of the game it
writes a message to stderr and exits with status 3 (the referee must report a crash).

Usage: python3 -u bot.py SEAT
"""

import json
import sys


def main():
    seat = int(sys.argv[1])
    draws = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        last = json.loads(line)[-1]
        answer = {"type": "none"}
        if last["type"] == "tsumo" and last["actor"] == seat:
            draws += 1
            if draws == 3:
                print("crash bot: exiting on purpose at its 3rd draw", file=sys.stderr, flush=True)
                sys.exit(3)
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        print(json.dumps(answer, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
