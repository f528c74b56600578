#!/usr/bin/env python3
"""Cross-check mjai logs (mjai_log.json, JSON lines) against two independent engines.

1. Mortal's libriichi, as shipped in the `mjai` package 0.2.1 (`mjai.mlibriichi`): one
   `PlayerState` per seat is fed every event masked for that seat; before each action in the
   log, the actor's state must accept it (`validate_reaction`) and its last `ActionCandidate`
   must allow that kind of action.
2. The `mahjong` package: every hora is scored from the real hand (tracked here from the
   unmasked log) and the resulting deltas, honba and riichi sticks included, must equal the
   log's `deltas`.

Known holes of the reference engines (see /work/shared/reference/mjai-app-observed.md):
libriichi's validate_reaction does not check a call's shape (this script checks chi/pon
shapes itself), and libriichi may panic in its agari search; a panic is counted as
"reference panicked", not as a disagreement.

Usage:
    python3 -m venv /tmp/xcheck && /tmp/xcheck/bin/pip install mjai==0.2.1 mahjong==1.2.1
    mjai-sim selfplay --bots builtin:rulebase,builtin:rulebase,builtin:tsumogiri,builtin:rulebase \
        --games 200 --seed 7 --logs-dir /tmp/logs
    /tmp/xcheck/bin/python scripts/crosscheck.py /tmp/logs
Exit code 0 when every game agrees, 1 otherwise. `--generate DIR N` writes N logs played by
libriichi's own arena (a self-test of this script).
"""

import argparse
import gzip
import json
import pathlib
import sys

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld
from mjai.mlibriichi.state import PlayerState
from xcheck_flow import Flow

KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
TENHOU = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False, kiriage=False)
CALCULATOR = HandCalculator()
ACTIONS = {"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora"}


def kind(tile):
    """34-index of an mjai tile name (red fives count as fives)."""
    return KINDS.index(tile[:2] if tile.endswith("r") else tile)


def ids136(tiles):
    """Distinct 136-format ids; a red five takes copy 0 (the library's aka id)."""
    used, out = {}, []
    for t in sorted(tiles, key=lambda t: not t.endswith("r")):
        k = kind(t)
        if t.endswith("r"):
            out.append(k * 4)
            continue
        start = 1 if k in (4, 13, 22) else 0
        n = used.get(k, start)
        used[k] = n + 1
        out.append(k * 4 + n)
    return out


def mask(ev, seat):
    ev = dict(ev)
    if ev["type"] == "start_game":
        ev.pop("seed", None)
        ev["id"] = seat
    elif ev["type"] == "start_kyoku":
        ev["tehais"] = [h if i == seat else ["?"] * 13 for i, h in enumerate(ev["tehais"])]
    elif ev["type"] == "tsumo" and ev["actor"] != seat:
        ev["pai"] = "?"
    return ev


class Kyoku:
    """The unmasked table of one hand: enough to score any hora."""

    def __init__(self, ev):
        self.ev = ev
        self.hands = [list(h) for h in ev["tehais"]]
        self.melds = [[] for _ in range(4)]
        self.discards = [0] * 4
        self.kawa = [[] for _ in range(4)]
        self.called_from = [False] * 4
        self.riichi = [False] * 4
        self.double = [False] * 4
        self.ippatsu = [False] * 4
        self.declared = [False] * 4
        self.no_calls = True
        self.draws = 0
        self.dora = [ev["dora_marker"]]
        self.kyotaku = ev["kyotaku"]
        self.rinshan = False
        self.kan_pending = False
        self.last = None
        self.horas = 0
        # Pao (Tenhou): the seat that fed the third dragon set or the fourth wind set.
        self.pao = [None] * 4

    def update(self, ev):
        t, a = ev["type"], ev.get("actor")
        if self.last is not None and self.last["type"] == "kakan":
            # A kakan is complete only once nobody robbed it (Tenhou): a chankan keeps the
            # robber's ippatsu; any later event (the rinshan tsumo) means it went through.
            self.interrupt()
        if t == "tsumo":
            self.draws += 1
            self.hands[a].append(ev["pai"])
            self.rinshan = self.kan_pending
            self.kan_pending = False
        elif t == "dahai":
            self.hands[a].remove(ev["pai"])
            if self.ippatsu[a] and not self.declared[a]:
                self.ippatsu[a] = False
            self.declared[a] = False
            self.discards[a] += 1
            self.kawa[a].append(ev["pai"])
            self.rinshan = False
        elif t in ("chi", "pon", "daiminkan"):
            for c in ev["consumed"]:
                self.hands[a].remove(c)
            self.melds[a].append((t, ev["consumed"] + [ev["pai"]]))
            self.interrupt()
            self.called_from[ev["target"]] = True
            self.kan_pending = t == "daiminkan"
            if t != "chi":
                self.set_pao(a, ev["target"], kind(ev["pai"]))
        elif t == "kakan":
            self.hands[a].remove(ev["pai"])
            i = next(i for i, m in enumerate(self.melds[a]) if m[0] == "pon" and kind(m[1][0]) == kind(ev["pai"]))
            self.melds[a][i] = ("kakan", self.melds[a][i][1] + [ev["pai"]])
            self.kan_pending = True
        elif t == "ankan":
            for c in ev["consumed"]:
                self.hands[a].remove(c)
            self.melds[a].append(("ankan", list(ev["consumed"])))
            self.interrupt()
            self.kan_pending = True
        elif t == "dora":
            self.dora.append(ev["dora_marker"])
        elif t == "reach":
            self.declared[a] = True
            self.double[a] = self.no_calls and self.discards[a] == 0
        elif t == "reach_accepted":
            self.riichi[a] = True
            self.ippatsu[a] = True
            self.kyotaku += 1
        self.last = ev

    def set_pao(self, a, target, k):
        sets = [kind(m[1][0]) for m in self.melds[a] if m[0] != "chi"]
        if k >= 31 and sum(31 <= s <= 33 for s in sets) == 3:
            self.pao[a] = (target, "Daisangen")
        elif 27 <= k <= 30 and sum(27 <= s <= 30 for s in sets) == 4:
            self.pao[a] = (target, "Dai Suushii")

    def interrupt(self):
        self.no_calls = False
        self.ippatsu = [False] * 4

    def expected_deltas(self, ev, winners):
        """Deltas for a hora per the mahjong package; None with a reason when it refuses.
        `winners`: every seat winning on this tile (the first after the discarder takes the
        honba and riichi sticks, Tenhou)."""
        a, target = ev["actor"], ev["target"]
        tsumo = a == target
        oya = self.ev["oya"]
        if tsumo:
            win = self.hands[a][-1]
            concealed = self.hands[a][:-1]
        else:
            win = self.last["pai"]
            concealed = self.hands[a]
        tiles, melds = list(concealed) + [win], []
        for mtype, mtiles in self.melds[a]:
            tiles += mtiles
            ids = ids136(mtiles)
            kinds_ = {"chi": Meld.CHI, "pon": Meld.PON, "daiminkan": Meld.KAN, "kakan": Meld.SHOUMINKAN, "ankan": Meld.KAN}
            melds.append(Meld(meld_type=kinds_[mtype], tiles=ids, opened=mtype != "ankan"))
        all_ids = ids136(tiles)
        # The winning tile's id: the last id of its exact tile name among all tiles.
        order = sorted(tiles, key=lambda t: not t.endswith("r"))
        win_id = all_ids[max(i for i, t in enumerate(order) if t == win)]
        chankan = self.last is not None and self.last["type"] == "kakan" and not tsumo
        markers = self.dora + (ev.get("ura_markers") or [] if self.riichi[a] else [])
        cfg = HandConfig(
            is_tsumo=tsumo,
            is_riichi=self.riichi[a],
            is_ippatsu=self.ippatsu[a],
            is_rinshan=tsumo and self.rinshan,
            is_chankan=chankan,
            is_haitei=tsumo and self.draws == 70 and not self.rinshan,
            is_houtei=not tsumo and self.draws == 70 and not chankan,
            is_daburu_riichi=self.riichi[a] and self.double[a],
            is_tenhou=tsumo and a == oya and self.no_calls and self.discards[a] == 0,
            is_chiihou=tsumo and a != oya and self.no_calls and self.discards[a] == 0,
            player_wind=EAST + (a - oya) % 4,
            round_wind=EAST + kind(self.ev["bakaze"]) - 27,
            options=TENHOU,
        )
        r = CALCULATOR.estimate_hand_value(all_ids, win_id, melds=melds or None, dora_indicators=ids136(markers), config=cfg)
        if r.error:
            return None, r.error
        first = a == min(winners, key=lambda w: (w - target) % 4)
        honba = self.ev["honba"] if first else 0
        sticks = 1000 * self.kyotaku if first else 0
        d = [0] * 4
        main, add = r.cost["main"], r.cost["additional"]
        pao = self.pao[a][0] if self.pao[a] and self.pao[a][1] in [str(y) for y in r.yaku] else None
        if tsumo:
            for s in range(4):
                if s != a:
                    pay = (main if s == oya or a == oya else add) + 100 * honba
                    d[pao if pao is not None else s] -= pay
                    d[a] += pay
        elif pao is not None and pao != target:
            # Tenhou: ron split between the pao seat and the discarder; honba to the pao seat.
            d[pao] -= main // 2 + 300 * honba
            d[target] -= main // 2
            d[a] += main + 300 * honba
        else:
            d[target] -= main + 300 * honba
            d[a] += main + 300 * honba
        d[a] += sticks
        return d, f"{r.han} han {r.fu} fu {[str(y) for y in r.yaku]}"


def reaction(ev):
    """The action as a bot would send it."""
    if ev["type"] == "hora":
        return {"type": "hora", "actor": ev["actor"], "target": ev["target"]}
    return ev


def allowed(cans, ev):
    t = ev["type"]
    if t == "hora":
        return cans.can_tsumo_agari if ev["actor"] == ev["target"] else cans.can_ron_agari
    return {
        "dahai": cans.can_discard,
        "chi": cans.can_chi,
        "pon": cans.can_pon,
        "daiminkan": cans.can_daiminkan,
        "kakan": cans.can_kakan,
        "ankan": cans.can_ankan,
        "reach": cans.can_riichi,
    }[t]


def shape_ok(ev):
    if ev["type"] not in ("chi", "pon"):
        return True
    ks = sorted(kind(t) for t in ev["consumed"] + [ev["pai"]])
    if ev["type"] == "pon":
        return ks[0] == ks[2]
    return ks[2] < 27 and ks[0] // 9 == ks[2] // 9 and ks == [ks[0], ks[0] + 1, ks[0] + 2]


def check_game(events, stats):
    """Returns a list of disagreements (strings) for one game."""
    problems = []
    states = [PlayerState(s) for s in range(4)]
    cans = [None] * 4
    table = None
    flow = Flow(kind)
    deferred = []
    for i, ev in enumerate(events):
        t = ev["type"]
        where = f"event {i} {json.dumps(ev, separators=(',', ':'))}"
        if t == "start_kyoku":
            problems += [f"{where}: {p}" for p in flow.start_kyoku(ev)]
            table = Kyoku(ev)
            stats["hands"] += 1
        elif t == "end_game":
            problems += [f"{where}: {p}" for p in flow.end_game()]
        else:
            problems += [f"{where}: {p}" for p in flow.event(ev, table)]
        if t in ACTIONS or (t == "ryukyoku" and "actor" in ev and ev.get("reason") != "error"):
            a = ev["actor"]
            stats["actions"] += 1
            if not shape_ok(ev):
                problems.append(f"{where}: call tiles do not form the set")
            try:
                states[a].validate_reaction(json.dumps(reaction(ev)))
            except BaseException as e:  # pyo3 panics derive from BaseException
                problems.append(f"{where}: libriichi refuses it: {e}")
            if t in ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora") and cans[a] is not None:
                if not allowed(cans[a], ev):
                    problems.append(f"{where}: libriichi's candidates do not allow {t}")
        if t == "hora" and table is not None:
            stats["horas"] += 1
            # Derived, not copied from the log: every winner on this tile, and as many ura
            # indicators as dora indicators shown for a riichi winner (none otherwise).
            j = i
            while j > 0 and events[j - 1]["type"] == "hora":
                j -= 1
            winners, k = [], j
            while k < len(events) and events[k]["type"] == "hora":
                winners.append(events[k]["actor"])
                k += 1
            ura = ev.get("ura_markers") or []
            if len(ura) != (len(table.dora) if table.riichi[ev["actor"]] else 0):
                problems.append(f"{where}: {len(ura)} ura indicators, the rules give {len(table.dora) if table.riichi[ev['actor']] else 0}")
            try:
                want, info = table.expected_deltas(ev, winners)
            except Exception as e:  # a scoring-library error is reported, not fatal
                want, info = None, f"mahjong package error {e!r}"
            if want is None:
                problems.append(f"{where}: mahjong package does not score it ({info})")
            elif want != ev.get("deltas"):
                problems.append(f"{where}: deltas {ev.get('deltas')} but mahjong package gives {want} ({info})")
            else:
                stats["horas_agreed"] += 1
            if table.pao[ev["actor"]] is not None:
                stats["pao_horas"] += 1
            table.horas += 1
        if table is not None and t not in ("start_kyoku", "hora"):
            try:
                table.update(ev)
            except (ValueError, StopIteration) as e:
                problems.append(f"{where}: the log contradicts the table ({e!r})")
                return problems
        if t == "hora" and i + 1 < len(events) and events[i + 1]["type"] == "hora":
            continue  # double ron: both winners are validated against the same state
        if t == "reach_accepted":
            # A bot decides a call on the riichi discard before it sees reach_accepted:
            # feed it only after the next event was validated.
            deferred.append(ev)
            continue
        if t == "dora" and i + 1 < len(events) and events[i + 1]["type"] in ("dahai", "ankan", "reach"):
            # A daiminkan/kakan dora is logged when its maker acts on the rinshan tsumo
            # (Tenhou, Mortal's arena): the maker decided before seeing it.
            deferred.append(ev)
            continue
        for pending in deferred + [ev]:
            for s in range(4):
                try:
                    cans[s] = states[s].update(json.dumps(mask(pending, s)))
                except BaseException as e:
                    stats["reference_panics"] += 1
                    problems.append(f"{where}: libriichi state of seat {s} refuses the event: {e}")
                    return problems
        deferred = []
    return problems


def log_files(paths):
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("mjai_log.json"))
        else:
            yield p


KIND_NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")


def held(state, k, n, plain_first=True):
    """`n` tiles of kind `k` from a libriichi state's hand: plain ones first, then the red
    five (or the red five first when `plain_first` is false and it is held)."""
    red = k in (4, 13, 22) and state.akas_in_hand[(4, 13, 22).index(k)]
    plain = state.tehai[k] - int(red)
    names = [KIND_NAMES[k]] * plain + ([KIND_NAMES[k] + "r"] if red else [])
    if not plain_first:
        names.reverse()
    return names[:n]


def caller_reaction(state, me, rng):
    """A libriichi-arena agent that wins when it can and otherwise calls, kans, declares
    riichi and kyuushu kyuuhai often, discarding a random allowed tile."""
    cans = state.last_cans
    if cans.can_agari:
        return {"type": "hora", "actor": me, "target": cans.target_actor}
    if cans.can_daiminkan or cans.can_pon or cans.can_chi:
        pai = state.last_kawa_tile()
        k, target = KIND_NAMES.index(pai.rstrip("r")), cans.target_actor
        if cans.can_daiminkan and rng.random() < 0.8:
            return {"type": "daiminkan", "actor": me, "target": target, "pai": pai, "consumed": held(state, k, 3)}
        if cans.can_pon and rng.random() < 0.6:
            return {"type": "pon", "actor": me, "target": target, "pai": pai, "consumed": held(state, k, 2, rng.random() < 0.5)}
        chis = [(c, d) for ok, c, d in ((cans.can_chi_low, 1, 2), (cans.can_chi_mid, -1, 1), (cans.can_chi_high, -2, -1)) if ok]
        if chis and rng.random() < 0.5:
            c, d = rng.choice(chis)
            consumed = held(state, k + c, 1, rng.random() < 0.5) + held(state, k + d, 1, rng.random() < 0.5)
            return {"type": "chi", "actor": me, "target": target, "pai": pai, "consumed": consumed}
        return {"type": "none"}
    if cans.can_ankan and rng.random() < 0.8:
        k = KIND_NAMES.index(state.ankan_candidates()[0])
        return {"type": "ankan", "actor": me, "consumed": held(state, k, 4)}
    if cans.can_kakan and rng.random() < 0.8:
        k = KIND_NAMES.index(state.kakan_candidates()[0])
        pai = held(state, k, 1)[0]
        return {"type": "kakan", "actor": me, "pai": pai, "consumed": [KIND_NAMES[k]] * 3}
    if cans.can_ryukyoku and rng.random() < 0.5:
        return {"type": "ryukyoku", "actor": me}
    if cans.can_riichi and rng.random() < 0.5:
        return {"type": "reach", "actor": me}
    if cans.can_discard:
        tsumo = state.last_self_tsumo()
        if state.self_riichi_accepted or state.self_riichi_declared:
            return {"type": "dahai", "actor": me, "pai": tsumo, "tsumogiri": True}
        kinds = [k for k in range(34) if state.tehai[k] > 0 and not state.forbidden_tiles[k]]
        pai = held(state, rng.choice(kinds), 1, rng.random() < 0.5)[0]
        # Tsumogiri only when no other tile of this exact name (red or plain) is held.
        k = KIND_NAMES.index(pai.rstrip("r"))
        same = 1 if pai.endswith("r") else len([t for t in held(state, k, 4) if t == pai])
        return {"type": "dahai", "actor": me, "pai": pai, "tsumogiri": pai == tsumo and same == 1}
    return {"type": "none"}


def generate(outdir, games, callers=False):
    """Writes `games` logs played by libriichi's arena with a win-or-tsumogiri agent (or,
    with `callers`, the call-happy agent of `caller_reaction`)."""
    import random

    from mjai.mlibriichi.arena import Match

    class Agent:
        engine_type = "mjai-log"
        name = "winner"

        def __init__(self, seed):
            self.player_ids = []
            self.rng = random.Random(seed)

        def set_player_ids(self, ids):
            self.player_ids = ids

        def react_batch(self, game_states):
            out = []
            for gs in game_states:
                me, cans = self.player_ids[gs.game_index], gs.state.last_cans
                if callers:
                    out.append(json.dumps(caller_reaction(gs.state, me, self.rng)))
                elif cans.can_agari:
                    out.append(json.dumps({"type": "hora", "actor": me, "target": cans.target_actor}))
                elif cans.can_discard:
                    out.append(json.dumps({"type": "dahai", "actor": me, "pai": gs.state.last_self_tsumo(), "tsumogiri": True}))
                else:
                    out.append('{"type":"none"}')
            return out

        def start_game(self, game_idx):
            pass

        def end_kyoku(self, game_idx):
            pass

        def end_game(self, game_idx, scores):
            pass

    for g in range(games):
        d = pathlib.Path(outdir) / f"game-{g:05}"
        d.mkdir(parents=True, exist_ok=True)
        Match(log_dir=str(d)).py_match(*(Agent(1000 * g + s) for s in range(4)), seed_start=(1000 + g, 0))
        for gz in d.glob("*.json.gz"):
            (d / "mjai_log.json").write_bytes(gzip.decompress(gz.read_bytes()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help="mjai_log.json files or folders holding them")
    ap.add_argument("--generate", nargs=2, metavar=("DIR", "N"), help="write N libriichi-arena logs to DIR and exit")
    ap.add_argument("--callers", action="store_true", help="with --generate: agents that call, kan and riichi often")
    ap.add_argument("--max-problems", type=int, default=20)
    args = ap.parse_args()
    if args.generate:
        generate(args.generate[0], int(args.generate[1]), args.callers)
        return 0
    stats = {"games": 0, "hands": 0, "actions": 0, "horas": 0, "horas_agreed": 0, "pao_horas": 0, "reference_panics": 0, "games_disagreeing": 0}
    shown = 0
    for f in log_files(args.paths):
        events = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        stats["games"] += 1
        problems = check_game(events, stats)
        if problems:
            stats["games_disagreeing"] += 1
        for p in problems:
            if shown < args.max_problems:
                print(f"{f}: {p}")
            shown += 1
    print(json.dumps(stats))
    if stats["games"] == 0:
        print("crosscheck: no mjai_log.json found under the given paths", file=sys.stderr)
        return 1
    return 0 if stats["games_disagreeing"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
