"""What examples/rl's policy sees and how it picks a discard, alike in training (train.py),
in process (agent.py, `mjai_sim.evaluate`) and in a tournament (bot.py, a zip). numpy and
the standard library only (mjai-sim's bot images have numpy).

- `View`: what one seat has seen in the hand, fed the mjai events that seat is sent.
- `features(view, tiles)`: one row of `FEATURES` numbers per candidate discard.
- `Policy`: a linear score per candidate (weights in weights.json), softmax over the
  candidates; `best` takes the highest (ties: the first candidate).
"""

import json
import os

import numpy as np

KINDS = 34
# mjai's tile names in vec34 order: 1m..9m, 1p..9p, 1s..9s, E S W N P F C.
TILE_NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
WINDS = ["E", "S", "W", "N"]
CALLS = ("chi", "pon", "daiminkan", "ankan", "kakan")
NAMES = [
    "single", "pair", "triplet", "honor", "terminal", "yakuhai", "dora", "red five",
    "neighbours at 1", "neighbours at 2", "isolated", "seen by others / 4",
    "safe against a riichi", "unsafe against a riichi", "drawn tile", "tiles left x honor",
]
FEATURES = len(NAMES)
WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.json")


def kind(tile: str) -> int:
    """The vec34 index of an mjai tile (`5mr` counts as `5m`)."""
    return TILE_NAMES.index(tile[:2] if tile.endswith("r") else tile)


def dora_of(marker: str) -> int:
    """The vec34 index of the dora a marker shows (9 -> 1, N -> E, C -> P)."""
    k = kind(marker)
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


class View:
    """One seat's view of the hand, from the events it is sent (`see` each, in order)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand: list = []           # concealed tiles (mjai names)
        self.seen = [0] * KINDS        # tiles shown outside this hand: rivers, calls, dora markers
        self.dora = [0] * KINDS
        self.rivers: list = [set() for _ in range(4)]   # kinds each seat discarded
        self.riichi = [False] * 4
        self.opened = False            # this seat called (its hand is open)
        self.drawn = None
        self.bakaze, self.jikaze = 27, 27
        self.left = 70

    def see(self, e: dict) -> None:
        t, actor = e["type"], e.get("actor")
        if t == "start_game" and "id" in e:
            self.seat = e["id"]
        elif t == "start_kyoku":
            self.__init__(self.seat)
            self.hand = list(e["tehais"][self.seat])
            self.bakaze = kind(e["bakaze"])
            self.jikaze = 27 + (self.seat - e["oya"]) % 4
            self._marker(e["dora_marker"])
        elif t == "dora":
            self._marker(e["dora_marker"])
        elif t == "tsumo":
            self.left -= 1
            if actor == self.seat:
                self.hand.append(e["pai"])
                self.drawn = e["pai"]
        elif t == "dahai":
            self.rivers[actor].add(kind(e["pai"]))
            self.seen[kind(e["pai"])] += 1
            if actor == self.seat:
                self.hand.remove(e["pai"])
                self.drawn = None
        elif t in CALLS:
            shown = [e["pai"]] if t == "kakan" else list(e["consumed"])
            if actor == self.seat:
                for tile in shown:
                    self.hand.remove(tile)
                self.opened = self.opened or t != "ankan"
            else:
                for tile in shown:
                    self.seen[kind(tile)] += 1
        elif t == "reach_accepted":
            self.riichi[actor] = True

    def _marker(self, marker: str) -> None:
        self.seen[kind(marker)] += 1
        self.dora[dora_of(marker)] += 1


def features(view: View, tiles: list) -> np.ndarray:
    """`FEATURES` numbers for discarding each of `tiles` (mjai names from the hand)."""
    counts = [0] * KINDS
    for t in view.hand:
        counts[kind(t)] += 1
    others_riichi = [s for s in range(4) if s != view.seat and view.riichi[s]]
    out = np.zeros((len(tiles), FEATURES), dtype=np.float64)
    for i, tile in enumerate(tiles):
        k = kind(tile)
        c = counts[k]
        honor = k >= 27
        near1 = near2 = 0
        if not honor:
            n = k % 9
            near1 = sum(counts[k + d] > 0 for d in (-1, 1) if 0 <= n + d < 9)
            near2 = sum(counts[k + d] > 0 for d in (-2, 2) if 0 <= n + d < 9)
        safe = bool(others_riichi) and all(k in view.rivers[s] for s in others_riichi)
        out[i] = [
            c == 1, c == 2, c >= 3, honor, (not honor) and k % 9 in (0, 8),
            k >= 31 or k in (view.bakaze, view.jikaze), view.dora[k], tile.endswith("r"),
            near1, near2, c == 1 and near1 == 0 and near2 == 0, view.seen[k] / 4,
            safe, bool(others_riichi) and not safe, tile == view.drawn, honor * max(view.left, 0) / 70,
        ]
    return out


class Policy:
    """Linear scores over `features`; `weights` a list of `FEATURES` numbers."""

    def __init__(self, weights=None) -> None:
        if weights is None:
            with open(WEIGHTS, encoding="utf-8") as f:
                weights = json.load(f)["weights"]
        self.w = np.asarray(weights, dtype=np.float64)

    def best(self, view: View, tiles: list) -> str:
        """The candidate with the highest score (ties: the first)."""
        return tiles[int(np.argmax(features(view, tiles) @ self.w))]


def candidates(tiles) -> list:
    """The distinct tiles of `tiles`, in vec34 order (red fives after their kind's plain one)."""
    return sorted(set(tiles), key=lambda t: (kind(t), t))
