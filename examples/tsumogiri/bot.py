"""Tsumogiri: discards every tile it draws, never calls, never wins. Stdlib only.

Protocol (mjai.app): one JSON array of events per stdin line; one JSON object per stdout line.
Usage: python3 -u bot.py SEAT
"""

import json
import sys


def decide(seat, events):
    last = events[-1]
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        return {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
    return {"type": "none"}


def main():
    seat = int(sys.argv[1])
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(decide(seat, json.loads(line)), separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
