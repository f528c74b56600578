#!/usr/bin/env python3
"""Decision round trip of a remote seat (WebSocket over loopback) against stdio, in one run.

Plays GAMES hanchans `remote:bench EX EX EX` where EX is examples/tsumogiri run by the
process runtime (stdio) and the remote seat is the same bot.py run by `mjai-sim connect`
(a second process, as on an author's machine). Both are measured by the referee in the
same games (summary.json's decision_times: write to answer, per seat); prints p50 and p99
of each side and the difference. With --docker, also times one hanchan with the remote
seat against three containers, and the same hanchan with four containers.

With --riichi-dev (old spelling: --dialect) the remote seat is `riichilab:bench`, riichi.dev's WebSocket dialect (issue
37): `mjai-sim connect ws://.../ws/ranked --token T --games 1` plays the same bot.py over it
(each event its own message, a request_action with RiichiEnv's observation, an action_ack);
and --docker then times a hanchan of four dialect seats (four `connect` clients) against the
same hanchan of four containers.

Usage: scripts/bench-remote.py [--games 5] [--bin target/release/mjai-sim] [--docker] [--riichi-dev]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOT = os.path.join(ROOT, "examples", "tsumogiri")


CONNECT = re.compile(r"mjai-sim connect (\S+) --token (\S+) BOT|(ws://\S+/ws/ranked) --token (\S+)")


def remote_game(binary, bots, options, logs):
    """Plays one game whose remote seats (`remote:`, `riichilab:`) are played by
    `mjai-sim connect`; returns (summary, seconds)."""
    started = time.monotonic()
    game = subprocess.Popen(
        [binary, *options, "--no-html", "--logs-dir", logs, *bots],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wanted = sum(1 for b in bots if b.startswith(("remote:", "riichilab:")))
    bridges = []
    for line in game.stderr:
        m = CONNECT.search(line)
        if not m:
            continue
        url, token = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        games = ["--games", "1"] if m.group(3) else []
        stderr = os.path.join(logs, f"bridge{len(bridges)}.stderr.txt")
        bridges.append(subprocess.Popen(
            [binary, "connect", url, "--token", token, *games, "--bot-stderr", stderr, BOT],
            stdout=subprocess.DEVNULL,
        ))
        if len(bridges) == wanted:
            break
    if len(bridges) < wanted:
        sys.exit("the game printed no connect command")
    game.stderr.read()
    game.wait()
    for bridge in bridges:
        bridge.wait(timeout=60)
    seconds = time.monotonic() - started
    with open(os.path.join(logs, "summary.json")) as f:
        return json.load(f), seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mjai-sim"))
    parser.add_argument("--docker", action="store_true")
    parser.add_argument("--riichi-dev", "--dialect", dest="riichi_dev", action="store_true")
    args = parser.parse_args()
    seat = "riichilab:bench" if args.riichi_dev else "remote:bench"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(args.games):
            logs = os.path.join(tmp, f"g{g}")
            summary, _ = remote_game(
                args.bin, [seat, BOT, BOT, BOT], ["--runtime", "process", "--seed", str(100 + g)], logs
            )
            assert summary["completed"] and summary["chombos"] == [0, 0, 0, 0], summary
            d = summary["decision_times"]
            rows.append((d[0], [d[1], d[2], d[3]]))
        print(f"{args.games} hanchans, seat 0 {seat} (WebSocket on 127.0.0.1), seats 1-3 stdio (process runtime)")
        print("game  remote p50 / p99 ms   stdio p50 / p99 ms (median of seats 1-3)")
        for g, (remote, stdio) in enumerate(rows):
            s50 = sorted(s["median_ms"] for s in stdio)[1]
            s99 = sorted(s["p99_ms"] for s in stdio)[1]
            print(f"{g:4}  {remote['median_ms']:7.3f} / {remote['p99_ms']:7.3f}     {s50:7.3f} / {s99:7.3f}")
        med = lambda xs: sorted(xs)[len(xs) // 2]
        r50 = med([r["median_ms"] for r, _ in rows])
        r99 = med([r["p99_ms"] for r, _ in rows])
        s50 = med([sorted(s["median_ms"] for s in st)[1] for _, st in rows])
        s99 = med([sorted(s["p99_ms"] for s in st)[1] for _, st in rows])
        print(f"median over games: remote {r50:.3f} / {r99:.3f} ms, stdio {s50:.3f} / {s99:.3f} ms, "
              f"WebSocket adds {r50 - s50:+.3f} ms at p50, {r99 - s99:+.3f} ms at p99")
        if args.docker:
            logs = os.path.join(tmp, "docker-remote")
            remote_bots = [f"riichilab:b{i}" for i in range(4)] if args.riichi_dev else ["remote:bench", BOT, BOT, BOT]
            summary, remote_s = remote_game(args.bin, remote_bots, ["--seed", "7"], logs)
            assert summary["completed"], summary
            started = time.monotonic()
            subprocess.run([args.bin, "--seed", "7", "--no-html", "--logs-dir", os.path.join(tmp, "docker"), BOT, BOT, BOT, BOT],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            docker_s = time.monotonic() - started
            what = "4 riichilab seats (4 connect clients)" if args.riichi_dev else "remote seat + 3 containers"
            print(f"one hanchan (seed 7): {what} {remote_s:.1f} s "
                  f"(remote p50/p99 {summary['decision_times'][0]['median_ms']:.3f}/{summary['decision_times'][0]['p99_ms']:.3f} ms); "
                  f"4 containers {docker_s:.1f} s")


if __name__ == "__main__":
    main()
