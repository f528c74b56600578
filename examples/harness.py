"""Development harness for the example bots: plays hanchans in process with the rules engine
bundled in mjai 0.2.1 (Mortal's libriichi, `mjai.mlibriichi.arena.Match`) between four bot
folders, each run as `python3 -u bot.py SEAT` in a subprocess and fed mjai.app-style batches
(events since its last line, others' hands and draws masked). Stops at the first illegal action,
crash or timeout and names the seat. Needs the mjai package: run it in the bot image, e.g.

  docker run --rm --network none -v "$PWD/examples:/ex:ro" mjai-sim-bot:TAG \\
      python3 /ex/harness.py /ex/shanten /ex/tsumogiri /ex/mjaibot /ex/tsumogiri --games 2

Prints one line per game: `game N: scores [..4]` or `game N: error seat S: ...`; exit status 1
on any error.
"""

import argparse
import glob
import gzip
import json
import os
import select
import subprocess
import sys
import tempfile

from mjai.mlibriichi.arena import Match


class BotError(RuntimeError):
    pass


class BotProcess:
    def __init__(self, folder, seat, timeout):
        self.seat, self.timeout = seat, timeout
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "bot.py", str(seat)],
            cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr,
        )

    def ask(self, events):
        line = json.dumps(events, separators=(",", ":"))
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise BotError(f"seat {self.seat}: bot exited ({self.proc.wait()})")
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        if not ready:
            raise BotError(f"seat {self.seat}: no answer within {self.timeout} s")
        answer = self.proc.stdout.readline()
        if not answer:
            raise BotError(f"seat {self.seat}: bot exited ({self.proc.wait()})")
        return answer.decode().strip()

    def close(self):
        self.proc.kill()
        self.proc.wait()


class Seat:
    """The agent libriichi's arena calls: relays batches to one bot process."""

    engine_type = "mjai-log"

    def __init__(self, bot):
        self.bot, self.name, self.player_ids, self.sent = bot, str(bot.seat), [], 0
        self.error = None  # the engine swallows agent exceptions: remember the first one

    def ask(self, batch):
        try:
            return self.bot.ask(batch)
        except BotError as e:
            self.error = self.error or str(e)
            raise

    def set_player_ids(self, ids):
        self.player_ids = ids

    def mask(self, ev):
        ev = dict(ev)
        if ev["type"] == "tsumo" and ev["actor"] != self.bot.seat:
            ev["pai"] = "?"
        if ev["type"] == "start_kyoku":
            ev["tehais"] = [t if i == self.bot.seat else ["?"] * 13 for i, t in enumerate(ev["tehais"])]
        return ev

    def react_batch(self, game_states):
        events = []
        for gs in game_states:
            events += json.loads(gs.events_json)
        if self.sent > len(events):
            self.sent = 0
        batch = [self.mask(e) for e in events[self.sent:]]
        self.sent = len(events)
        answer = self.ask(batch)
        try:
            json.loads(answer)
        except ValueError:
            self.error = f"seat {self.bot.seat}: unparsable answer {answer!r}"
            raise BotError(f"seat {self.bot.seat}: unparsable answer {answer!r}")
        return [answer]

    def informational(self, ev):
        answer = json.loads(self.ask([ev]))
        if answer != {"type": "none"}:
            self.error = f"seat {self.bot.seat}: answered {answer} to {ev['type']}, not none"
            raise BotError(f"seat {self.bot.seat}: answered {answer} to {ev['type']}, not none")

    def start_game(self, game_idx):
        self.informational({"type": "start_game", "names": ["0", "1", "2", "3"], "id": self.bot.seat})

    def end_kyoku(self, game_idx):
        self.sent = 0
        self.informational({"type": "end_kyoku"})

    def end_game(self, game_idx, scores):
        self.informational({"type": "end_game"})


def play(folders, seed, timeout):
    bots = [BotProcess(os.path.abspath(f), seat, timeout) for seat, f in enumerate(folders)]
    try:
        with tempfile.TemporaryDirectory() as logs:
            seats = [Seat(b) for b in bots]
            Match(log_dir=logs).py_match(*seats, seed_start=(seed, 0))
            errors = [s.error for s in seats if s.error]
            if errors:
                raise BotError(errors[0])
            paths = glob.glob(os.path.join(logs, "*.gz"))
            events = []
            if paths:
                with gzip.open(paths[0], "rt") as f:
                    events = [json.loads(l) for l in f]
            if not events or events[-1]["type"] != "end_game":
                raise BotError("the engine aborted the game (see its output above)")
            for e in events:
                if e["type"] == "ryukyoku" and e.get("reason") == "error":
                    seat = min(range(4), key=lambda i: e["deltas"][i])
                    raise BotError(f"seat {seat}: invalid action (chombo; the engine's dump is above)")
            scores = [e["scores"] for e in events if e["type"] == "start_kyoku"][-1]
            last_deltas = [e["deltas"] for e in events if "deltas" in e]
            hora = [sum(e["type"] == "hora" and e["actor"] == s for e in events) for s in range(4)]
            return scores, len(last_deltas), hora
    finally:
        for b in bots:
            b.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bots", nargs=4)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=10.0)
    args = p.parse_args()
    failed = False
    for g in range(args.games):
        try:
            scores, ends, hora = play(args.bots, args.seed + g, args.timeout)
            print(f"game {g}: ok, {ends} kyoku endings, hora by seat {hora}, scores at last start_kyoku {scores}", flush=True)
        except Exception as e:
            failed = True
            print(f"game {g}: error {e}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
