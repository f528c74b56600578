#!/usr/bin/env python3
"""Cross-check of riichi.dev-dialect requests against RiichiEnv (issues 37, 53).

Run it with riichienv 0.4.8, the version riichi.dev's server and its bots use (scripts/test
makes a virtualenv with it and exports its python3 as MJAI_SIM_RIICHIENV_048); it also runs
under later versions (the report names the version it ran with).

Reads a JSON file: a list of records, each {"request": <request_action message>, "hand":
[mjai tiles], "scores": [points per seat]} as a dialect client recorded them from the events
it was sent, optionally with "discards" (every seat's river, mjai tiles, called tiles
included), "melds" (every seat's melds, each its tiles with the called one first),
"dora_indicators", "riichi_declared" (from the discard after `reach`), and (issue 53)
"meld_from" (per seat, per meld in the order of "melds": the seat it was called from, null for
an ankan; a kakan keeps its pon's), "last_discarder" (the seat whose discard is RiichiEnv's
`last_discard`: the actor of the hand's last `dahai`, or of a `kakan` whose chankan is being
asked; null before the hand's first discard) and "drawn" (the seat's own tile drawn since its
last action, mjai, or null).

For each request, decodes the observation with the `riichienv` package
(Observation.deserialize_from_base64, as riichi.dev's clients do; Observation3P when its
`scores` has three entries) and reports, each difference as {"request_id", "what", "ours",
"riichienv"}:
- "legal actions": its legal_actions(), as mjai (Action.to_mjai), against the request's
  possible_actions, as sets of distinct objects (RiichiEnv lists one discard per physical
  tile), fields the wire does not carry (`tsumogiri`, `target`) left out of both;
- "hand", "scores", "discards", "melds" (as sets of tiles), "dora indicators", "riichi
  declared": the observation against the record (mjai tiles: red fives apart);
- "tile ids" (issue 53): riichi.dev sends physical tile ids (0-135, id // 4 the kind, red
  fives 16, 52, 88): every id of the own hand, every river, every meld and the indicators is
  in range and appears once, except a called tile, which is in its meld and in the river of
  the seat it was called from, exactly twice;
- "meld shape": a chi, pon, daiminkan or kakan has `from_who` another seat and a
  `called_tile` whose kind is among its tiles; an ankan has from_who -1 and no called_tile;
- "meld from": each meld's from_who against "meld_from" (when recorded);
- "last discard": `last_discard` is a seat or null (riichienv 0.4.8 writes the discarder's
  seat there), and equals "last_discarder" (when recorded);
- "hand order": RiichiEnv's hand is sorted by id, the tile just drawn last ("drawn", when
  recorded; at three seats only the drawn tile's place is checked).
Prints one JSON object: {"requests": N, "riichienv": VERSION, "differences": [...]}. Exit 0
whatever it finds (the caller decides); 2 on unreadable input.
Usage: python3 scripts/crosscheck_observations.py FILE

scripts/riichi_dev_client.py imports the checks (check_record and what it uses).
"""
import base64
import collections
import importlib.metadata
import json
import sys

from riichienv import Observation, Observation3P

RED_FIVES = {16: "5mr", 52: "5pr", 88: "5sr"}

# RiichiEnv's MeldType, by its int value.
MELD_TYPES = {0: "chi", 1: "pon", 2: "daiminkan", 3: "ankan", 4: "kakan"}

# Fields of an mjai action the dialect's possible_actions never carry (docs/protocol.md).
NOT_COMPARED = ("tsumogiri", "target", "request_id")


def tid_to_mjai(tid):
    if tid in RED_FIVES:
        return RED_FIVES[tid]
    kind = tid // 4
    if kind >= 27:
        return "ESWNPFC"[kind - 27]
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


def canon(action):
    return json.dumps({k: v for k, v in action.items() if k not in NOT_COMPARED}, sort_keys=True)


def decode(b64):
    """(observation, its raw JSON, seats): Observation3P when `scores` has three entries."""
    raw = json.loads(base64.b64decode(b64))
    seats = len(raw.get("scores", [])) or 4
    cls = Observation3P if seats == 3 else Observation
    return cls.deserialize_from_base64(b64), raw, seats


def legal_action_difference(obs, possible_actions):
    """None when legal_actions() as mjai equal possible_actions as sets of canonical JSON;
    else {"ours": only in possible_actions, "riichienv": only in legal_actions()}."""
    theirs = {canon(json.loads(a.to_mjai())) for a in obs.legal_actions()}
    ours = {canon(a) for a in possible_actions}
    if theirs == ours:
        return None
    return {"ours": sorted(ours - theirs), "riichienv": sorted(theirs - ours)}


def meld_type(meld):
    return MELD_TYPES.get(int(meld.meld_type), str(meld.meld_type))


def meld_problems(obs, seats):
    """Melds of every seat as a bot converts them: from_who and called_tile."""
    problems = []
    for owner in range(seats):
        for i, m in enumerate(obs.melds[owner]):
            kind = meld_type(m)
            tiles = list(m.tiles)
            at = f"seat {owner}'s meld {i} ({kind} {[tid_to_mjai(t) for t in tiles]} ids {tiles})"
            if kind == "ankan":
                if m.from_who != -1 or m.called_tile is not None:
                    problems.append(f"{at}: from_who {m.from_who}, called_tile {m.called_tile}: an ankan has -1 and None")
                continue
            if not (isinstance(m.from_who, int) and 0 <= m.from_who < seats and m.from_who != owner):
                problems.append(f"{at}: from_who {m.from_who} is not another seat")
            c = m.called_tile
            if c is None or c // 4 not in {t // 4 for t in tiles}:
                problems.append(f"{at}: called_tile {c} is not one of its kinds")
    return problems


def id_problems(obs, seats):
    """Physical ids: in range, each once, a called tile exactly twice (its meld and the river
    of the seat it was called from)."""
    where = collections.defaultdict(list)
    pid = obs.player_id
    for t in obs.hands[pid]:
        where[t].append("hand")
    for s in range(seats):
        for t in obs.discards[s]:
            where[t].append(f"river {s}")
        for i, m in enumerate(obs.melds[s]):
            for t in m.tiles:
                where[t].append(f"meld {s}.{i}")
    for t in obs.dora_indicators:
        where[t].append("indicator")
    called = {}
    for s in range(seats):
        for m in obs.melds[s]:
            if meld_type(m) != "ankan" and m.called_tile is not None:
                called[m.called_tile] = m.from_who
    problems = []
    for t, places in sorted(where.items()):
        if not (isinstance(t, int) and 0 <= t <= 135):
            problems.append(f"id {t} is not a physical tile id (0-135): {places}")
            continue
        want = 2 if t in called else 1
        if len(places) != want:
            problems.append(f"id {t} ({tid_to_mjai(t)}) appears {len(places)} times, not {want}: {places}")
    for t, source in sorted(called.items()):
        if 0 <= source < seats and t not in obs.discards[source]:
            problems.append(f"called id {t} ({tid_to_mjai(t)}) is not in river {source}, the seat it was called from")
    return problems


def last_discard_problem(obs, seats, expected=None, accept=()):
    """last_discard must be a seat (riichienv 0.4.8) or None; equal to `expected` (or one of
    `accept`) when given."""
    ld = obs.last_discard
    if ld is not None and not (isinstance(ld, int) and 0 <= ld < seats):
        return f"last_discard {ld} is not a seat (0-{seats - 1}) or null"
    if expected is not None or accept:
        ok = {expected, *accept} if accept else {expected}
        if ld not in ok:
            return f"last_discard {ld}, the discarder is {sorted(ok, key=str) if len(ok) > 1 else expected}"
    return None


def hand_order_problem(hand, drawn, seats):
    """RiichiEnv's hand: the tile just drawn (mjai, or None) last, the others sorted by id (at
    four seats: at three, RiichiEnv leaves the tile drawn before a kita where it was)."""
    rest = hand[:-1] if drawn is not None else hand
    if seats == 4 and list(rest) != sorted(rest):
        return f"hand ids {list(hand)} are not sorted" + (" before the drawn tile" if drawn is not None else "")
    if drawn is not None and (not hand or tid_to_mjai(hand[-1]) != drawn):
        return f"hand ids {list(hand)}: the drawn {drawn} is not last"
    return None


def check_record(rec):
    """The differences of one record (see the module's doc)."""
    req = rec["request"]
    rid = req["request_id"]
    differences = []

    def differ(what, ours, theirs):
        differences.append({"request_id": rid, "what": what, "ours": ours, "riichienv": theirs})

    obs, raw, seats = decode(req["observation"])
    diff = legal_action_difference(obs, req["possible_actions"])
    if diff:
        differ("legal actions", diff["ours"], diff["riichienv"])
    hand = sorted(tid_to_mjai(t) for t in obs.hand)
    if hand != sorted(rec["hand"]):
        differ("hand", sorted(rec["hand"]), hand)
    scores = list(obs.scores)
    if scores != rec["scores"]:
        differ("scores", rec["scores"], scores)
    if "discards" in rec:
        discards = [[tid_to_mjai(t) for t in seat] for seat in obs.discards]
        if discards != rec["discards"][:seats]:
            differ("discards", rec["discards"][:seats], discards)
        melds = [sorted(sorted(tid_to_mjai(t) for t in m.tiles) for m in seat) for seat in obs.melds]
        ours = [sorted(sorted(m) for m in seat) for seat in rec.get("melds", [[], [], [], []])[:seats]]
        if melds != ours:
            differ("melds", ours, melds)
        dora = [tid_to_mjai(t) for t in obs.dora_indicators]
        if dora != rec["dora_indicators"]:
            differ("dora indicators", rec["dora_indicators"], dora)
    if "riichi_declared" in rec:
        riichi = [bool(r) for r in raw["riichi_declared"]]
        if riichi != rec["riichi_declared"][:seats]:
            differ("riichi declared", rec["riichi_declared"][:seats], riichi)
    problems = id_problems(obs, seats)
    if problems:
        differ("tile ids", "each id once, a called tile twice", problems)
    problems = meld_problems(obs, seats)
    if problems:
        differ("meld shape", "from_who another seat and a called_tile (ankan: -1, None)", problems)
    if "meld_from" in rec:
        theirs = [[m.from_who for m in seat] for seat in obs.melds]
        ours = [[-1 if f is None else f for f in seat] for seat in rec["meld_from"][:seats]]
        if theirs != ours:
            differ("meld from", ours, theirs)
    expected = rec.get("last_discarder")
    problem = last_discard_problem(obs, seats, expected)
    if problem:
        differ("last discard", expected, problem)
    if "drawn" in rec:
        problem = hand_order_problem(list(obs.hand), rec["drawn"], seats)
        if problem:
            differ("hand order", rec["drawn"], problem)
    return differences


def main(path):
    try:
        records = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"cannot read {path}: {e}", file=sys.stderr)
        return 2
    differences = []
    for rec in records:
        differences.extend(check_record(rec))
    version = importlib.metadata.version("riichienv")
    print(json.dumps({"requests": len(records), "riichienv": version, "differences": differences}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
