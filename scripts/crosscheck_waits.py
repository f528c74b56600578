#!/usr/bin/env python3
"""Checks riichi waits against the Python `mahjong` package (tests/dataset/waits.rs).

Reads JSON lines, one hand each: {"id": ..., "tehai": [mjai tiles], "melds": [[mjai tiles],
...], "waits": [mjai tiles]}: the concealed tiles after the riichi discard (3k+1), the
calls' tiles, and the waits mjai-sim's dataset gave. For each of the 34 kinds, the hand
plus one tile of it is tested with `mahjong.agari.Agari.is_agari` on the concealed part
(shape only: four sets and a pair, seven distinct pairs, or kokushi); a kind the hand holds
all four of (concealed and called together) is not a wait (karaten). `mahjong`'s shanten is
not used: it is no oracle for chiitoitsu with a triplet, its agari check is.

Prints one line per disagreement and a summary; exit status 1 on any disagreement, 2 when
`mahjong` is missing (pip install mahjong).

usage: crosscheck_waits.py HANDS.jsonl
"""

import json
import sys

try:
    from mahjong.agari import Agari
except ImportError:
    print("crosscheck_waits.py: the Python package `mahjong` is missing: pip install mahjong", file=sys.stderr)
    sys.exit(2)

NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")


def kind(tile):
    """The 0..34 kind of an mjai tile (a red five is its plain five)."""
    return NAMES.index(tile[:2] if tile.endswith("r") else tile)


def waits(tehai, melds):
    counts = [0] * 34
    for t in tehai:
        counts[kind(t)] += 1
    held = list(counts)
    for m in melds:
        for t in m:
            held[kind(t)] += 1
    out = []
    for k in range(34):
        if held[k] >= 4:
            continue
        counts[k] += 1
        if Agari.is_agari(counts):
            out.append(NAMES[k])
        counts[k] -= 1
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    hands = bad = tenpai = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            h = json.loads(line)
            want = waits(h["tehai"], h["melds"])
            hands += 1
            tenpai += bool(want)
            if want != h["waits"]:
                bad += 1
                print(f"{h['id']}: tehai {' '.join(h['tehai'])} melds {h['melds']}: "
                      f"mjai-sim {h['waits']}, mahjong {want}")
    print(f"crosscheck_waits: {hands} hands, {tenpai} tenpai by mahjong, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
