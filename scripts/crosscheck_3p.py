"""Cross-check of three-player (sanma) self-play logs against RiichiEnv's three-player env.

Usage (RiichiEnv in a venv outside the repository, e.g. `python3 -m venv /tmp/rvenv &&
/tmp/rvenv/bin/pip install riichienv==0.4.11`):

    cargo run -p mjai-sim-engine --release --example selfplay_logs -- riichi-dev-3p 10000 > /tmp/sanma.jsonl
    /tmp/rvenv/bin/python scripts/crosscheck_3p.py /tmp/sanma.jsonl

Each line of the input is one game (`selfplay_logs`' format: rules, seed, the wall of each
kyoku, the log). Every kyoku is replayed in RiichiEnv (`RiichiEnv(game_mode="3p-red-half")`,
or `3p-red-east` for an `-east` preset) from the same state (`reset(oya, wall, round_wind,
scores, honba, kyotaku)`) and the same wall, with the log's actions, and every event
RiichiEnv writes is compared with the log's: draws, discards, calls, kita, dora, riichi,
each hora's and ryukyoku's deltas and ura markers, and what follows the kyoku (the next
start_kyoku's round, dealer, honba, sticks and scores, or the game's end). Prints each
difference (game, kyoku, event) and a summary; exits 1 when there is any. Known
differences would be counted apart (`KNOWN`); there is none at present (the order of a
minkan's waiting dora and a later ankan was one until the engine took RiichiEnv's and
Tenhou's order, issue 53 item 7).
"""

import json
import sys
from collections import Counter

from riichienv import ActionType, RiichiEnv

NAMES = [f"{n}m" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)]
NAMES += ["E", "S", "W", "N", "P", "F", "C"]
RED_IDS = {16: "5mr", 52: "5pr", 88: "5sr"}
WINDS = {"E": 0, "S": 1, "W": 2}
# RiichiEnv's ryukyoku reasons and ours (`DrawReason`).
REASONS = {"exhaustive_draw": "exhaustive", "nagashimangan": "exhaustive", "kyushukyuhai": "kyuushu_kyuuhai",
           "kyushu_kyuhai": "kyuushu_kyuuhai", "suukansansen": "four_kans", "suukaikan": "four_kans"}


def name(tid):
    """mjai name of a RiichiEnv 136-tile id."""
    return RED_IDS.get(tid, NAMES[tid // 4])


def ids_by_name():
    """RiichiEnv tile ids of the three-player set, by mjai name."""
    out = {}
    for tid in range(136):
        if 4 <= tid < 32:  # 2m-8m are not in the set
            continue
        out.setdefault(name(tid), []).append(tid)
    return out


def riichienv_wall(wall, oya):
    """RiichiEnv's `load_wall` list (108 ids; `state_3p/wall.rs`) for our wall (`Wall::tiles`
    order: 39 haipai, 55 live, 8 rinshan, dora 1-3, ura 1-3) dealt with `oya` as dealer."""
    pool = ids_by_name()
    ids = [pool[t].pop() for t in wall]
    hands = [ids[0:13], ids[13:26], ids[26:39]]
    live, rinshan = ids[39:94], ids[94:102]
    dora, ura = ids[102:105], ids[105:108]
    t = []
    for _ in range(3):  # RiichiEnv deals 4 tiles at a time from the dealer, three times, then one each
        for i in range(3):
            seat = (i + oya) % 3
            t += hands[seat][:4]
            hands[seat] = hands[seat][4:]
    for i in range(3):
        t.append(hands[(i + oya) % 3][0])
    t += live  # t[39..94]; t[90..94] are ura 5, dora 5, ura 4, dora 4
    t += [ura[2], dora[2], ura[1], dora[1], ura[0], dora[0]]  # t[94..100]
    t += list(reversed(rinshan))  # t[100..108]: rinshan draws from the end
    assert len(t) == 108 and len(set(t)) == 108
    return t


def norm(e):
    """The fields both engines write, normalised for comparison."""
    ty = e["type"]
    keys = {
        "tsumo": ["actor", "pai"],
        "dahai": ["actor", "pai"],
        "pon": ["actor", "target", "pai", "consumed"],
        "daiminkan": ["actor", "target", "pai", "consumed"],
        "kakan": ["actor", "pai"],
        "ankan": ["actor", "consumed"],
        "kita": ["actor", "pai"],
        "nukidora": ["actor", "pai"],
        "dora": ["dora_marker"],
        "reach": ["actor"],
        "reach_accepted": ["actor"],
        "hora": ["actor", "target", "deltas", "ura_markers"],
        "ryukyoku": ["deltas", "reason"],
        "start_kyoku": ["bakaze", "kyoku", "honba", "kyotaku", "oya", "scores", "dora_marker", "tehais"],
        "end_kyoku": [],
        "end_game": [],
    }.get(ty, sorted(e))
    out = {"type": "kita" if ty == "nukidora" else ty}
    for k in keys:
        v = e.get(k)
        if k == "consumed" and v is not None:
            v = sorted(v)
        if k == "tehais" and v is not None:
            v = [sorted(h) for h in v]
        if k == "reason" and v is not None:
            v = REASONS.get(v, v)
        out[k] = v
    return out


def flow(e):
    """What a start_kyoku says about the game's flow (RiichiEnv deals the next kyoku from its
    own shuffle, so its tiles are not compared)."""
    if e["type"] != "start_kyoku":
        return {"type": e["type"]}
    return {k: e[k] for k in ("type", "bakaze", "kyoku", "honba", "kyotaku", "oya", "scores")}


def pick(env, pid, ev):
    """RiichiEnv's legal action of `pid` that is our event `ev`, or None."""
    legal = env._get_legal_actions(pid)
    ty = ev["type"]
    want = {
        "dahai": ActionType.DISCARD,
        "reach": ActionType.RIICHI,
        "pon": ActionType.PON,
        "daiminkan": ActionType.DAIMINKAN,
        "kakan": ActionType.KAKAN,
        "ankan": ActionType.ANKAN,
        "kita": ActionType.KITA,
        "ryukyoku": ActionType.KYUSHU_KYUHAI,
    }.get(ty)
    if ty == "hora":
        want = ActionType.TSUMO if ev["actor"] == ev["target"] else ActionType.RON
    cands = [a for a in legal if a.action_type == want]
    if ty in ("dahai", "kita", "kakan"):
        cands = [a for a in cands if name(a.tile) == ev["pai"]]
    if ty == "dahai" and len(cands) > 1:
        drawn = env.drawn_tile
        pref = [a for a in cands if (a.tile == drawn) == bool(ev.get("tsumogiri"))]
        cands = pref or cands
    if ty in ("pon", "daiminkan"):
        cands = [a for a in cands if name(a.tile) == ev["pai"] and sorted(map(name, a.consume_tiles)) == sorted(ev["consumed"])]
    if ty == "ankan":
        cands = [a for a in cands if sorted(map(name, a.consume_tiles)) == sorted(ev["consumed"])]
    return cands[0] if cands else None


KNOWN = "known: "

ACTIONS = {"dahai", "reach", "pon", "daiminkan", "kakan", "ankan", "kita", "hora"}


def is_action(e):
    return e["type"] in ACTIONS or (e["type"] == "ryukyoku" and e.get("reason") == "kyuushu_kyuuhai")


def check_kyoku(mode, wall, ours, after, label):
    """Replays one kyoku (`ours`: start_kyoku .. the event before end_kyoku) in RiichiEnv;
    `after` is our event after end_kyoku. Returns a list of differences."""
    sk = ours[0]
    env = RiichiEnv(game_mode=mode)
    env.reset(oya=sk["oya"], wall=riichienv_wall(wall, sk["oya"]), round_wind=WINDS[sk["bakaze"]],
              scores=list(sk["scores"]), honba=sk["honba"], kyotaku=sk["kyotaku"])
    log = env.mjai_log
    k = len(log) - 2  # RiichiEnv's start_kyoku
    if log[k]["type"] != "start_kyoku":
        return [f"{label}: RiichiEnv did not start the kyoku: {log[-3:]}"]
    ours = list(ours)
    known = []
    j = 0  # our event
    while True:
        log = env.mjai_log
        while k < len(log) and j < len(ours):
            a, b = norm(log[k]), norm(ours[j])
            if a != b:
                return [f"{label} event {j}: RiichiEnv {json.dumps(a)} / ours {json.dumps(b)}"]
            k += 1
            j += 1
        if j == len(ours):
            break
        if env.done() and k >= len(log):
            return [f"{label} event {j}: RiichiEnv ended the game, ours goes on with {json.dumps(ours[j])}"]
        active = list(env.active_players)
        # The next action in our log: `dora` (a minkan's, shown with the discard) and
        # `reach_accepted` (after the claims on a riichi discard) come out of the step.
        i = j
        while i < len(ours) and ours[i]["type"] in ("dora", "reach_accepted"):
            i += 1
        actions = {}
        acting = {}
        if i < len(ours) and ours[i]["type"] == "ryukyoku" and ours[i].get("reason") == "kyuushu_kyuuhai" and len(active) == 1:
            acting[active[0]] = ours[i]
        while i < len(ours) and is_action(ours[i]) and ours[i].get("actor") in active and ours[i]["actor"] not in acting:
            acting[ours[i]["actor"]] = ours[i]
            if ours[i]["type"] != "hora":
                break
            i += 1
        for pid in active:
            if pid in acting:
                ev = acting[pid]
                a = pick(env, pid, ev)
                if a is None:
                    names = [x.to_mjai() for x in env._get_legal_actions(pid)]
                    return [f"{label} event {j}: {json.dumps(ev)} is not legal in RiichiEnv (legal: {names})"]
                actions[pid] = a
            else:
                passes = [x for x in env._get_legal_actions(pid) if x.action_type == ActionType.PASS]
                if not passes:
                    return [f"{label} event {j}: RiichiEnv waits for seat {pid}, ours has {json.dumps(ours[j])}"]
                actions[pid] = passes[0]
        before = len(env.mjai_log)
        env.step(actions)
        if len(env.mjai_log) == before and not env.done():
            return [f"{label} event {j}: RiichiEnv logged nothing after {json.dumps(ours[j])}"]
    # What follows the kyoku: end_kyoku, then the next start_kyoku or end_game.
    rest = [e for e in env.mjai_log[k:] if e["type"] in ("start_kyoku", "end_game")]
    got = flow(rest[0]) if rest else {"type": "end_game" if env.done() else "nothing"}
    if got != flow(after):
        return [f"{label} after the kyoku: RiichiEnv {json.dumps(got)} / ours {json.dumps(flow(after))}"]
    return [KNOWN + k for k in known]


def main():
    path = sys.argv[1]
    games = kyokus = 0
    diffs = []
    stats = Counter()
    for line in open(path):
        g = json.loads(line)
        mode = "3p-red-east" if g["rules"].endswith("-east") else "3p-red-half"
        log = g["log"]
        starts = [i for i, e in enumerate(log) if e["type"] == "start_kyoku"]
        for n, s in enumerate(starts):
            end = next(i for i in range(s, len(log)) if log[i]["type"] == "end_kyoku")
            ours = log[s:end]
            for e in ours:
                stats[e["type"]] += 1
            label = f"game {g['seed'][0]} kyoku {n} ({ours[0]['bakaze']}{ours[0]['kyoku']}-{ours[0]['honba']})"
            diffs += check_kyoku(mode, g["walls"][n], ours, log[end + 1], label)
            kyokus += 1
        games += 1
    for d in diffs:
        print(d)
    known = sum(d.startswith(KNOWN) for d in diffs)
    print(f"{games} games, {kyokus} kyoku, events {dict(stats)}: {len(diffs) - known} differences, {known} known (event order only)")
    sys.exit(1 if len(diffs) > known else 0)


if __name__ == "__main__":
    main()
