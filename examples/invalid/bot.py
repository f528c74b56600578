"""Misbehaving bot for demos and tests: plays tsumogiri, but on its 3rd own draw of the game it
discards a tile it does not hold (an illegal action: the referee must call chombo), then goes
back to tsumogiri (after a restart it misbehaves again on the 3rd draw).

Usage: python3 -u bot.py SEAT
"""

import json
import sys

ALL_TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")


def tile_not_held(hand):
    held = {t.rstrip("r") for t in hand}
    return next(t for t in ALL_TILES if t not in held)


def main():
    seat = int(sys.argv[1])
    hand = []
    draws = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        events = json.loads(line)
        answer = {"type": "none"}
        for ev in events:
            if ev["type"] == "start_kyoku":
                hand = list(ev["tehais"][seat])
            elif ev["type"] == "tsumo" and ev["actor"] == seat:
                hand.append(ev["pai"])
            elif ev["type"] == "dahai" and ev["actor"] == seat and ev["pai"] in hand:
                hand.remove(ev["pai"])
        last = events[-1]
        if last["type"] == "tsumo" and last["actor"] == seat:
            draws += 1
            if draws == 3:
                answer = {"type": "dahai", "actor": seat, "pai": tile_not_held(hand), "tsumogiri": False}
            else:
                answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        print(json.dumps(answer, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
