#!/usr/bin/env python3
"""Cross-check of riichi.dev-dialect requests against RiichiEnv (issue 37).

Reads a JSON file: a list of {"request": <request_action message>, "hand": [mjai tiles],
"scores": [points x4]} as a dialect client recorded them (the hand and scores from the
events it was sent). For each request, decodes the observation with the `riichienv`
package (Observation.deserialize_from_base64, as riichi.dev's clients do) and compares:
- its legal_actions(), as mjai (Action.to_mjai), with the request's possible_actions, as
  sets of distinct objects (RiichiEnv lists one discard per physical tile; both sides'
  duplicates are reported apart);
- its hand (tile ids, as mjai) with the recorded hand; its scores, every seat's discards
  (called tiles included, as RiichiEnv keeps them), every seat's melds (as sets of tiles)
  and the dora indicators with the recorded ones (records without "discards" skip those),
  and which seats are in riichi (`riichi_declared`: from the discard after `reach`).
A three-player request (its observation's `scores` has three entries) is decoded with
Observation3P, the three-player class, and compared the same way over three seats (a
record's fourth, empty, discard list is not compared).
Prints one JSON object: {"requests": N, "differences": [{"request_id", "what", "ours",
"riichienv"}]}. Exit 0 whatever it finds (the caller decides); 2 on unreadable input.
Usage: python3 scripts/crosscheck_observations.py FILE
"""
import base64
import json
import sys

from riichienv import Observation, Observation3P


def tid_to_mjai(tid):
    if tid in (16, 52, 88):
        return {16: "5mr", 52: "5pr", 88: "5sr"}[tid]
    kind = tid // 4
    if kind >= 27:
        return "ESWNPFC"[kind - 27]
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


def canon(action):
    return json.dumps(action, sort_keys=True)


def main(path):
    try:
        records = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"cannot read {path}: {e}", file=sys.stderr)
        return 2
    differences = []
    for rec in records:
        req = rec["request"]
        rid = req["request_id"]
        raw = json.loads(base64.b64decode(req["observation"]))
        seats = len(raw.get("scores", [])) or 4
        decode = Observation3P if seats == 3 else Observation
        obs = decode.deserialize_from_base64(req["observation"])
        theirs = sorted({canon(json.loads(a.to_mjai())) for a in obs.legal_actions()})
        ours = sorted({canon(a) for a in req["possible_actions"]})
        if theirs != ours:
            differences.append({"request_id": rid, "what": "legal actions",
                                "ours": sorted(set(ours) - set(theirs)),
                                "riichienv": sorted(set(theirs) - set(ours))})
        d = obs.to_dict()
        hand = sorted(tid_to_mjai(t) for t in obs.hand)
        if hand != sorted(rec["hand"]):
            differences.append({"request_id": rid, "what": "hand", "ours": sorted(rec["hand"]), "riichienv": hand})
        scores = list(d.get("scores", []))
        if scores != rec["scores"]:
            differences.append({"request_id": rid, "what": "scores", "ours": rec["scores"], "riichienv": scores})
        if "discards" in rec:
            discards = [[tid_to_mjai(t) for t in seat] for seat in d.get("discards", [])]
            if discards != rec["discards"][:seats]:
                differences.append({"request_id": rid, "what": "discards", "ours": rec["discards"][:seats], "riichienv": discards})
            melds = [sorted(sorted(tid_to_mjai(t) for t in m["tiles"]) for m in seat) for seat in raw["melds"]]
            ours = [sorted(sorted(m) for m in seat) for seat in rec.get("melds", [[], [], [], []])[:seats]]
            if melds != ours:
                differences.append({"request_id": rid, "what": "melds", "ours": ours, "riichienv": melds})
            dora = [tid_to_mjai(t) for t in d.get("dora_indicators", [])]
            if dora != rec["dora_indicators"]:
                differences.append({"request_id": rid, "what": "dora indicators", "ours": rec["dora_indicators"], "riichienv": dora})
        if "riichi_declared" in rec:
            riichi = [bool(r) for r in raw["riichi_declared"]]
            if riichi != rec["riichi_declared"][:seats]:
                differences.append({"request_id": rid, "what": "riichi declared", "ours": rec["riichi_declared"][:seats], "riichienv": riichi})
    print(json.dumps({"requests": len(records), "differences": differences}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
