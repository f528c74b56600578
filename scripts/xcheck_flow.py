"""The hanchan flow of a log, derived independently of the engine that wrote it (Tenhou rules).

`crosscheck.py` scores each hora with the `mahjong` package; this module checks what lies
between the hands, which a log otherwise just asserts: each `start_kyoku`'s bakaze, kyoku,
oya, honba, riichi sticks and scores (from the previous hand's deltas and riichi sticks),
the exhaustive draw's deltas (noten payments or nagashi mangan, tenpai computed from the
hands with the `mahjong` package's shanten; karaten is noten) and where `end_game` falls.
"""

from mahjong.shanten import Shanten

SHANTEN = Shanten()
TARGET = 30000
WINDS = ["E", "S", "W"]


def counts34(tiles, kind):
    c = [0] * 34
    for t in tiles:
        c[kind(t)] += 1
    return c


def is_tenpai(concealed, kind):
    """Tenpai (Tenhou): some kind completes the hand, not only kinds the hand holds four of."""
    c = counts34(concealed, kind)
    for k in range(34):
        if c[k] == 4:
            continue
        c[k] += 1
        done = SHANTEN.calculate_shanten(c) == -1
        c[k] -= 1
        if done:
            return True
    return False


def exhaustive_deltas(table, kind):
    """Deltas of an exhaustive draw: nagashi mangan if any seat qualifies, else noten payments."""
    oya = table.ev["oya"]
    deltas = [0] * 4
    nagashi = [s for s in range(4) if table.kawa[s] and not table.called_from[s] and all(kind(t) in YAOCHUU for t in table.kawa[s])]
    for n in nagashi:
        for s in range(4):
            if s != n:
                pay = 4000 if oya in (n, s) else 2000
                deltas[s] -= pay
                deltas[n] += pay
    if nagashi:
        return deltas
    tenpai = [is_tenpai(table.hands[s], kind) for s in range(4)]
    n = sum(tenpai)
    if n in (0, 4):
        return deltas
    return [3000 // n if t else -3000 // (4 - n) for t in tenpai]


YAOCHUU = {0, 8, 9, 17, 18, 26} | set(range(27, 34))


class Flow:
    """Follows one game; each method returns a list of problems (strings)."""

    def __init__(self, kind):
        self.kind = kind
        self.expect = None  # the next start_kyoku's (bakaze, kyoku, honba, kyotaku, scores), or "end"
        self.start = None
        self.deltas = [0] * 4
        self.accepted = [0] * 4
        self.horas = []
        self.ryukyoku = None

    def start_kyoku(self, ev):
        got = (ev["bakaze"], ev["kyoku"], ev["honba"], ev["kyotaku"], list(ev["scores"]))
        problems = []
        if ev["oya"] != (ev["kyoku"] - 1) % 4:
            problems.append(f"oya {ev['oya']} does not deal kyoku {ev['kyoku']}")
        if self.expect == "end":
            problems.append("the game should have ended before this hand (Tenhou end rules)")
        elif self.expect is not None and got != self.expect:
            problems.append(f"start_kyoku has (bakaze, kyoku, honba, kyotaku, scores) {got}, the rules give {self.expect}")
        self.start = ev
        self.deltas, self.accepted, self.horas, self.ryukyoku = [0] * 4, [0] * 4, [], None
        return problems

    def event(self, ev, table):
        t = ev["type"]
        if t == "reach_accepted":
            self.accepted[ev["actor"]] += 1
        elif t == "hora":
            self.horas.append(ev)
            self.add(ev.get("deltas"))
        elif t == "ryukyoku":
            self.ryukyoku = ev
            self.add(ev.get("deltas"))
            if ev.get("reason") != "error" and table is not None and table.draws == 70:
                want = exhaustive_deltas(table, self.kind)
                if ev.get("deltas") != want:
                    return [f"exhaustive draw deltas {ev.get('deltas')}, the rules give {want} (noten payments / nagashi)"]
        elif t == "end_kyoku" and self.start is not None:
            self.expect = self.next_state(table)
        return []

    def end_game(self):
        if self.expect not in (None, "end"):
            return [f"end_game, but the rules go on with {self.expect}"]
        return []

    def add(self, d):
        if d:
            self.deltas = [x + y for x, y in zip(self.deltas, d)]

    def next_state(self, table):
        st = self.start
        scores = [s - 1000 * a + d for s, a, d in zip(st["scores"], self.accepted, self.deltas)]
        kyotaku = st["kyotaku"] + sum(self.accepted)
        oya, honba, wind = st["oya"], st["honba"], WINDS.index(st["bakaze"])
        if self.horas:
            kyotaku = 0
            renchan = any(h["actor"] == oya for h in self.horas)
            honba = honba + 1 if renchan else 0
            by_play = True
        elif self.ryukyoku is not None and self.ryukyoku.get("reason") == "error":
            renchan, honba, by_play = False, 0, False
        elif table is not None and table.draws == 70:
            renchan, honba, by_play = is_tenpai(table.hands[oya], self.kind), honba + 1, True
        else:
            renchan, honba, by_play = True, honba + 1, False
        if any(s < 0 for s in scores):
            return "end"
        reached = any(s >= TARGET for s in scores)
        last_hand = (wind == 1 and st["kyoku"] == 4) or wind >= 2
        if wind >= 2 and reached:
            return "end"
        top = max(range(4), key=lambda s: (scores[s], -s))
        if last_hand and renchan and by_play and scores[oya] >= TARGET and top == oya:
            return "end"
        kyoku = st["kyoku"] if renchan else st["kyoku"] % 4 + 1
        if not renchan and st["kyoku"] == 4:
            wind += 1
        if wind > 2 or (wind == 2 and kyoku == 1 and not renchan and reached):
            return "end"
        return (WINDS[wind], kyoku, honba, kyotaku, scores)
