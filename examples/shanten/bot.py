"""Shanten bot: discards toward tenpai with the `mahjong` package's shanten counter, declares
riichi when the hand has a wait (closed hand, 1000 points, 4+ tiles left in the live wall:
70 draws a hand at four seats, 55 at three, read off `start_kyoku`'s seat count), wins by
tsumo whenever the hand is complete (menzen tsumo is always a yaku for its closed hand) and by
ron after riichi unless furiten. Never calls chi, pon or kan.

Waits and complete hands come from the `mahjong` package's agari check, not from its shanten:
shanten calls a chiitoitsu with a triplet (44m 77m 44p 55p 111s 66s) tenpai though no tile
completes it, and a riichi on such a hand is a chombo.

Protocol (mjai.app): one JSON array of events per stdin line; one JSON object per stdout line.
Usage: python3 -u bot.py SEAT
"""

import json
import sys

from mahjong.agari import Agari
from mahjong.shanten import Shanten

SUITS = {"m": 0, "p": 9, "s": 18}
HONORS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
# draws in a hand before the live wall is exhausted, by seats at the table: 136 - 14 dead
# wall - 52 dealt at four; 108 - 14 - 39 at three (sanma, docs/rules.md "Three-player")
LIVE_WALL = {4: 70, 3: 55}
SHANTEN = Shanten()
AGARI = Agari()


def index34(tile):
    """Index 0..33 of an mjai tile name ("5mr" is red 5m)."""
    if tile in HONORS:
        return HONORS[tile]
    return SUITS[tile[1]] + int(tile[0]) - 1


def counts34(tiles):
    counts = [0] * 34
    for t in tiles:
        counts[index34(t)] += 1
    return counts


def shanten(counts):
    return SHANTEN.calculate_shanten(counts)


def complete(counts14):
    """Whether a 14-tile closed hand (counts by kind) is a winning shape: `mahjong`'s agari."""
    return AGARI.is_agari(counts14)


def waits(counts13):
    """Tile indices completing a 13-tile hand: each kind it holds fewer than 4 of that makes
    it agari (ignoring how many copies are left elsewhere)."""
    out = []
    for i in range(34):
        if counts13[i] < 4:
            counts13[i] += 1
            if complete(counts13):
                out.append(i)
            counts13[i] -= 1
    return out


class Player:
    def __init__(self, seat):
        self.seat = seat
        self.hand = []
        self.score = 25000
        self.draws = 0
        self.reached = False
        self.discarded = set()  # own discards (indices): furiten source
        self.passed = set()  # others' tiles let pass since own last discard (forever after riichi)
        self.planned = None  # the discard chosen when declaring riichi
        self.live_wall = LIVE_WALL[4]

    def apply(self, ev):
        kind, actor = ev["type"], ev.get("actor")
        if kind == "start_kyoku":
            self.__init__(self.seat)
            self.hand = list(ev["tehais"][self.seat])
            self.score = ev["scores"][self.seat]
            self.live_wall = LIVE_WALL.get(len(ev["scores"]), LIVE_WALL[4])
        elif kind == "tsumo":
            self.draws += 1
            if actor == self.seat:
                self.hand.append(ev["pai"])
        elif kind == "dahai":
            if actor == self.seat:
                self.hand.remove(ev["pai"])
                self.discarded.add(index34(ev["pai"]))
                if not self.reached:
                    self.passed.clear()
            else:
                self.passed.add(index34(ev["pai"]))
        elif kind == "kakan" and actor != self.seat:
            self.passed.add(index34(ev["pai"]))
        elif kind == "reach" and actor == self.seat:
            self.reached = True

    def decide(self, last):
        kind, actor = last["type"], last.get("actor")
        if kind == "tsumo" and actor == self.seat:
            return self.on_draw(last["pai"])
        if kind == "reach" and actor == self.seat:
            return self.discard(self.planned, self.hand[-1])
        if kind == "dahai" and actor != self.seat and self.reached and self.can_ron(last["pai"]):
            return {"type": "hora", "actor": self.seat, "target": actor, "pai": last["pai"]}
        return {"type": "none"}

    def can_ron(self, pai):
        counts = counts34(self.hand)
        w = waits(counts)
        if index34(pai) not in w or any(i in self.discarded or i in self.passed for i in w):
            return False
        return True

    def on_draw(self, pai):
        counts = counts34(self.hand)
        if complete(counts):
            return {"type": "hora", "actor": self.seat, "target": self.seat, "pai": pai}
        if self.reached:
            return self.discard(pai, pai)
        best = self.best_discard(counts)
        if (
            waits(self.without(counts, best))
            and self.score >= 1000
            and self.live_wall - self.draws >= 4
        ):
            self.planned = best
            return {"type": "reach", "actor": self.seat}
        return self.discard(best, pai)

    @staticmethod
    def without(counts, i):
        c = list(counts)
        c[i] -= 1
        return c

    def best_discard(self, counts):
        """The tile index whose discard leaves the lowest shanten, then the most tile kinds
        that lower it further; honors and terminals first on a tie."""
        best_key, best = None, None
        for i in range(34):
            if counts[i] == 0:
                continue
            rest = self.without(counts, i)
            s = shanten(rest)
            if best_key is not None and s > best_key[0]:
                continue
            ukeire = 0
            for j in range(34):
                if rest[j] < 4:
                    rest[j] += 1
                    if shanten(rest) < s:
                        ukeire += 4 - rest[j] + 1
                    rest[j] -= 1
            edge = i >= 27 or i % 9 in (0, 8)
            key = (s, -ukeire, not edge)
            if best_key is None or key < best_key:
                best_key, best = key, i
        return best

    def discard(self, target, drawn):
        """A dahai of a held tile of kind `target` (an index, or an mjai name); prefers the
        drawn tile (tsumogiri), then a non-red copy."""
        if isinstance(target, str):
            target = index34(target)
        if index34(drawn) == target:
            return {"type": "dahai", "actor": self.seat, "pai": drawn, "tsumogiri": True}
        copies = sorted((t for t in self.hand if index34(t) == target), key=lambda t: t.endswith("r"))
        return {"type": "dahai", "actor": self.seat, "pai": copies[0], "tsumogiri": False}


def main():
    player = Player(int(sys.argv[1]))
    for line in sys.stdin:
        if not line.strip():
            continue
        events = json.loads(line)
        for ev in events[:-1]:
            player.apply(ev)
        last = events[-1]
        own = last.get("actor") == player.seat and last["type"] in ("tsumo", "reach")
        if own:
            player.apply(last)
        answer = player.decide(last)
        if not own:
            player.apply(last)
        print(json.dumps(answer, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
