"""Misbehaving bot for demos and tests: plays tsumogiri, but on its 3rd own draw of the game it
stops answering (reads on, never prints again): the referee must time it out.

Usage: python3 -u bot.py SEAT
"""

import json
import sys


def main():
    seat = int(sys.argv[1])
    draws = 0
    silent = False
    for line in sys.stdin:
        if not line.strip() or silent:
            continue
        last = json.loads(line)[-1]
        answer = {"type": "none"}
        if last["type"] == "tsumo" and last["actor"] == seat:
            draws += 1
            if draws == 3:
                silent = True
                continue
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        print(json.dumps(answer, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
