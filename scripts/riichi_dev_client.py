#!/usr/bin/env python3
"""A riichi.dev bot client written as riichi.dev's authors write them (issue 53): riichienv
0.4.8 and websockets, nothing else but the standard library. It plays a `riichilab:NAME` seat
of mjai-sim (or any server of riichi.dev's dialect, docs/protocol.md) and checks what a real
bot relies on.

    python riichi_dev_client.py URL --token TOKEN [--games N] [--crash-after K] [--report FILE]

Run it with the python3 of the virtualenv scripts/test makes (MJAI_SIM_RIICHIENV_048).

It connects with `Authorization: Bearer TOKEN`, follows the mjai events, and at each
`request_action` decodes the observation with riichienv (`Observation`, or `Observation3P`
when `start_kyoku`'s `scores` has three entries), reads what bots read (every meld of every
seat converted, `last_discard`, its hand, the rivers, the dora indicators, `legal_actions()`)
and answers like a simple bot that calls whenever it can: a win, riichi, a kan, pon, chi,
kita, else a discard (an isolated honor, else the last one listed), as
`json.loads(action.to_mjai())` plus the `request_id`.

Every broken invariant is recorded, never raised (scripts/crosscheck_observations.py's
checks, against a record the client keeps from the events it received): physical tile ids
each once (a called tile twice: its meld and its discarder's river), melds with a `from_who`
seat and a `called_tile` (ankan: -1, None) and the seat the events called from,
`last_discard` the discarder's seat, legal_actions() as mjai equal to `possible_actions`, the
hand (and the rivers, melds, indicators, scores, riichi) equal to what the events make, the
drawn tile last; also an `action_ack` other than `accepted`, a refused connection, fewer
games than asked.

- `--games N`: on `/ws/ranked`, connect again after each game's close until N games (default
  1); `/ws/validate` plays one game and keeps its `validation_result`.
- `--crash-after K`: after answering K requests, write the report and exit at once with 3
  (os._exit: no close frame), as a crashing bot does.
- `--report FILE`: JSON {"games", "requests", "answers", "acks": {status: n}, "violations":
  [the first 20], "violation_count", "close_codes", "validation_result"} (also "close_reasons").
Prints one line per game: `game over: scores A,B,C,D` (end_game's, or the last hora's or
ryukyoku's). Exit 0 without violations, 1 with.
"""
import argparse
import asyncio
import json
import os
import sys
from urllib.parse import urlparse

import websockets
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from riichienv import ActionType

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosscheck_observations as checks  # noqa: E402


def kind_of(tile):
    """An mjai tile without its red mark."""
    return tile[:-1] if tile.endswith("r") else tile


class Tracker:
    """This seat's view of one game, from the mjai events alone (what the record of
    scripts/crosscheck_observations.py holds)."""

    def __init__(self):
        self.seat = None
        self.seats = 4
        self.new_hand([])

    def new_hand(self, scores):
        n = 4
        self.hand = []
        self.drawn = None
        self.scores = list(scores)
        self.discards = [[] for _ in range(n)]
        self.melds = [[] for _ in range(n)]
        self.meld_from = [[] for _ in range(n)]
        self.dora = []
        self.riichi = [False] * n
        self.reaching = [False] * n
        self.last_discarder = None
        self.kan_actor = None  # a kakan/ankan since the last draw: a chankan may be asked

    def track(self, m):
        t = m.get("type")
        actor = m.get("actor")
        own = actor is not None and actor == self.seat
        if t == "start_game":
            self.seat = m.get("id")
        elif t == "start_kyoku":
            self.seats = len(m["scores"])
            self.new_hand(m["scores"])
            self.dora = [m["dora_marker"]]
            self.hand = list(m["tehais"][self.seat])
        elif t == "tsumo":
            self.kan_actor = None
            if own:
                self.drawn = m["pai"]
                self.hand.append(m["pai"])
        elif t == "reach":
            self.reaching[actor] = True
        elif t == "dahai":
            self.discards[actor].append(m["pai"])
            self.last_discarder = actor
            self.kan_actor = None
            if self.reaching[actor]:
                self.reaching[actor] = False
                self.riichi[actor] = True
            if own:
                self.drawn = None
                self.remove(m["pai"])
        elif t in ("chi", "pon", "daiminkan"):
            self.melds[actor].append([m["pai"]] + list(m["consumed"]))
            self.meld_from[actor].append(m["target"])
            if own:
                self.drawn = None
                for tile in m["consumed"]:
                    self.remove(tile)
        elif t == "ankan":
            self.melds[actor].append(list(m["consumed"]))
            self.meld_from[actor].append(None)
            self.kan_actor = actor
            if own:
                for tile in m["consumed"]:
                    self.remove(tile)
        elif t == "kakan":
            pai = m["pai"]
            for meld in self.melds[actor]:
                if len(meld) == 3 and all(kind_of(x) == kind_of(pai) for x in meld):
                    meld.append(pai)
                    break
            self.kan_actor = actor
            if own:
                self.remove(pai)
        elif t == "kita":
            if own:
                self.drawn = None
                self.remove(m.get("pai", "N"))
        elif t == "dora":
            self.dora.append(m["dora_marker"])
        elif t == "reach_accepted":
            if 0 <= actor < len(self.scores):
                self.scores[actor] -= 1000
        elif t in ("hora", "ryukyoku"):
            for i, d in enumerate(m.get("deltas") or []):
                if i < len(self.scores):
                    self.scores[i] += d

    def remove(self, tile):
        if tile in self.hand:
            self.hand.remove(tile)

    def record(self, request):
        """The request with what the events make of the table now."""
        n = self.seats
        # RiichiEnv's last_discard: the discarder; the kan's actor while a chankan is asked.
        last = self.kan_actor if self.kan_actor is not None and self.kan_actor != self.seat else self.last_discarder
        return {
            "request": request,
            "hand": list(self.hand),
            "scores": list(self.scores),
            "discards": [list(d) for d in self.discards],
            "melds": [[list(x) for x in seat] for seat in self.melds],
            "dora_indicators": list(self.dora),
            "riichi_declared": list(self.riichi),
            "meld_from": [list(f) for f in self.meld_from[:n]] + [[] for _ in range(4 - n)],
            "last_discarder": last,
            "drawn": self.drawn,
        }


PRIORITY = [
    {ActionType.TSUMO, ActionType.RON},
    {ActionType.RIICHI},
    {ActionType.ANKAN, ActionType.KAKAN, ActionType.DAIMINKAN},
    {ActionType.PON},
    {ActionType.CHI},
    {ActionType.KITA},
]


def choose(obs):
    """A simple bot that calls when offered."""
    legal = obs.legal_actions()
    for types in PRIORITY:
        for a in legal:
            if a.action_type in types:
                return a
    discards = [a for a in legal if a.action_type == ActionType.DISCARD]
    if discards:
        kinds = [t // 4 for t in obs.hands[obs.player_id]]
        for a in discards:
            k = a.tile // 4
            if k >= 27 and kinds.count(k) == 1:
                return a
        return discards[-1]
    for a in legal:
        if a.action_type == ActionType.PASS:
            return a
    return legal[0] if legal else None


def fallback(request):
    """An answer from possible_actions alone, when riichienv gives none."""
    possible = request.get("possible_actions") or []
    for kind in ("none", "dahai"):
        for a in possible:
            if a.get("type") == kind:
                return dict(a)
    return dict(possible[0]) if possible else {"type": "none"}


class Client:
    def __init__(self, args):
        self.args = args
        self.games = 0
        self.requests = 0
        self.answers = 0
        self.acks = {}
        self.violations = []
        self.close_codes = []
        self.close_reasons = []
        self.validation_result = None

    def violate(self, text):
        self.violations.append(text)
        print(f"violation: {text}", file=sys.stderr)

    def report(self):
        return {
            "games": self.games,
            "requests": self.requests,
            "answers": self.answers,
            "acks": self.acks,
            "violations": self.violations[:20],
            "violation_count": len(self.violations),
            "close_codes": self.close_codes,
            "close_reasons": self.close_reasons,
            "validation_result": self.validation_result,
        }

    def write_report(self):
        if self.args.report:
            with open(self.args.report, "w") as f:
                json.dump(self.report(), f, indent=1)

    def inspect(self, tracker, request):
        """Reads the request as a bot does; records what is broken; the action to send."""
        rid = request.get("request_id")
        try:
            obs, _raw, seats = checks.decode(request["observation"])
        except Exception as e:  # noqa: BLE001: a bot would crash here: record it
            self.violate(f"request {rid}: riichienv cannot decode the observation: {type(e).__name__}: {e}")
            return fallback(request)
        if seats != tracker.seats:
            self.violate(f"request {rid}: the observation has {seats} seats, start_kyoku {tracker.seats}")
        try:
            # What bots read, as they read it.
            for seat in obs.melds:
                for m in seat:
                    (checks.meld_type(m), list(m.tiles), m.from_who, m.called_tile, m.opened)
            (obs.last_discard, list(obs.hands[obs.player_id]), [list(d) for d in obs.discards],
             list(obs.dora_indicators))
            for d in checks.check_record(tracker.record(request)):
                self.violate(f"request {rid}: {d['what']}: ours {json.dumps(d['ours'])}, riichienv {json.dumps(d['riichienv'])}")
            action = choose(obs)
        except Exception as e:  # noqa: BLE001
            self.violate(f"request {rid}: reading the observation raised {type(e).__name__}: {e}")
            return fallback(request)
        if action is None:
            self.violate(f"request {rid}: legal_actions() is empty")
            return fallback(request)
        return json.loads(action.to_mjai())

    async def play_one(self, ws):
        """One connection: until the server closes. True when a game was played."""
        tracker = Tracker()
        started = ended = False
        last_scores = None
        try:
            async for text in ws:
                if isinstance(text, bytes):
                    self.violate("the server sent a binary frame")
                    continue
                try:
                    m = json.loads(text)
                except ValueError:
                    self.violate(f"a message is not JSON: {text[:80]!r}")
                    continue
                t = m.get("type")
                if t != "request_action" and t != "action_ack" and t != "validation_result":
                    tracker.track(m)
                if t == "start_game":
                    started = True
                    self.games += 1
                elif t in ("hora", "ryukyoku"):
                    last_scores = list(tracker.scores)
                elif t == "end_game":
                    ended = True
                    scores = m.get("scores") or last_scores or tracker.scores
                    print(f"game over: scores {','.join(str(s) for s in scores)}", flush=True)
                elif t == "request_action":
                    self.requests += 1
                    action = self.inspect(tracker, m)
                    action["request_id"] = m.get("request_id")
                    await ws.send(json.dumps(action))
                    self.answers += 1
                    if self.args.crash_after is not None and self.answers >= self.args.crash_after:
                        self.write_report()
                        sys.stdout.flush()
                        os._exit(3)
                elif t == "action_ack":
                    status = m.get("status", "?")
                    self.acks[status] = self.acks.get(status, 0) + 1
                    if status != "accepted":
                        self.violate(f"request {m.get('request_id')}: ack {json.dumps(m, sort_keys=True)}")
                elif t == "validation_result":
                    self.validation_result = m
        except ConnectionClosed:
            pass
        rcvd = ws.close_code, ws.close_reason
        self.close_codes.append(rcvd[0])
        self.close_reasons.append(rcvd[1])
        if started and not ended:
            scores = last_scores or tracker.scores
            print(f"game over: scores {','.join(str(s) for s in scores)} (closed before end_game: "
                  f"{rcvd[0]} {rcvd[1]!r})", flush=True)
            self.violate(f"the server closed ({rcvd[0]} {rcvd[1]!r}) before end_game")
        return started

    async def run(self):
        path = urlparse(self.args.url).path
        ranked = path.rstrip("/").endswith("/ws/ranked")
        want = self.args.games if ranked else 1
        headers = {"Authorization": f"Bearer {self.args.token}"}
        played = 0
        while played < want:
            try:
                async with connect(self.args.url, additional_headers=headers, proxy=None,
                                   open_timeout=30, ping_interval=None) as ws:
                    if await self.play_one(ws):
                        played += 1
                    else:
                        self.violate("the server closed without start_game")
                        break
            except InvalidStatus as e:
                body = e.response.body.decode(errors="replace")[:200] if e.response.body else ""
                self.violate(f"connection refused: HTTP {e.response.status_code} {body!r}")
                break
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as e:
                self.violate(f"cannot connect to {self.args.url}: {type(e).__name__}: {e}")
                break
        if played < want:
            self.violate(f"{played} games played, {want} asked")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--token", required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--crash-after", type=int, default=None, metavar="K")
    parser.add_argument("--report", default=None, metavar="FILE")
    args = parser.parse_args()
    client = Client(args)
    asyncio.run(client.run())
    client.write_report()
    r = client.report()
    print(f"requests {r['requests']}, answers {r['answers']}, acks {r['acks']}, "
          f"violations {r['violation_count']}, close codes {r['close_codes']}", file=sys.stderr)
    return 1 if client.violations else 0


if __name__ == "__main__":
    sys.exit(main())
