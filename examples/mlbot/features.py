"""What examples/mlbot's network sees, computed alike in play (bot.py, from the events it is
sent) and in training (train.py, from rows of `mjai-sim dataset --kind decisions`): a "view"
holds the fields of such a row that the seat could see: `seat`, `tehai` (its concealed
tiles), `dora_markers`, each seat's `discards` and `melds` (mjai events, as dicts or as the
JSON strings of the dataset) and `reach` (declared this hand). Pure Python: no torch.
"""

import json

KINDS = 34
# Input: own hand, tiles seen, dora (34 counts each, scaled by 1/4), then 3 riichi flags of
# the other seats (in seat order after this one) and the seat's own riichi flag.
FEATURES = 3 * KINDS + 4
# mjai's tile names in vec34 order: 1m..9m, 1p..9p, 1s..9s, E S W N P F C.
TILE_NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
CALLS = ("chi", "pon", "daiminkan", "ankan", "kakan")


def kind(tile: str) -> int:
    """The vec34 index of an mjai tile (`5mr` counts as `5m`)."""
    return TILE_NAMES.index(tile[:2] if tile.endswith("r") else tile)


def dora_of(marker: str) -> int:
    """The vec34 index of the dora a marker shows (Tenhou: 9 → 1, N → E, C → P)."""
    k = kind(marker)
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


def counts(tiles) -> list:
    out = [0] * KINDS
    for t in tiles:
        out[kind(t)] += 1
    return out


def meld_tiles(meld) -> list:
    """The tiles a call shows besides the discard it took (already in a river): the consumed
    tiles of chi, pon, daiminkan and ankan; the added tile of kakan."""
    m = json.loads(meld) if isinstance(meld, str) else meld
    return [m["pai"]] if m["type"] == "kakan" else list(m["consumed"])


def features(view: dict) -> list:
    """The network's input (FEATURES floats) for a view (see the module's docs)."""
    hand = counts(view["tehai"])
    shown = list(view["tehai"]) + list(view["dora_markers"])
    for seat in range(4):
        shown += view["discards"][seat]
        for meld in view["melds"][seat]:
            shown += meld_tiles(meld)
    seen = [min(c, 4) for c in counts(shown)]
    dora = [0.0] * KINDS
    for marker in view["dora_markers"]:
        dora[dora_of(marker)] += 0.25
    me = view["seat"]
    reach = [float(view["reach"][(me + i) % 4]) for i in range(1, 4)] + [float(view["reach"][me])]
    return [c / 4 for c in hand] + [c / 4 for c in seen] + dora + reach


class Table:
    """The public part of a view, kept from the events a seat is sent (reset at each
    start_kyoku), as the dataset's columns of the same names."""

    def __init__(self):
        self.start([])

    def start(self, markers: list) -> None:
        self.dora_markers = markers
        self.discards = [[] for _ in range(4)]
        self.melds = [[] for _ in range(4)]
        self.reach = [False] * 4

    def see(self, event: dict) -> None:
        t = event["type"]
        if t == "start_kyoku":
            self.start([event["dora_marker"]])
        elif t == "dora":
            self.dora_markers.append(event["dora_marker"])
        elif t == "dahai":
            self.discards[event["actor"]].append(event["pai"])
        elif t in CALLS:
            self.melds[event["actor"]].append(event)
        elif t == "reach":
            self.reach[event["actor"]] = True

    def view(self, seat: int, tehai: list) -> dict:
        return {"seat": seat, "tehai": tehai, "dora_markers": self.dora_markers, "discards": self.discards,
                "melds": self.melds, "reach": self.reach}
