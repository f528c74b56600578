#!/usr/bin/env python3
"""Decision round trip of a remote seat (WebSocket over loopback) against stdio, in one run.

Plays GAMES hanchans `remote:bench EX EX EX` where EX is examples/tsumogiri run by the
process runtime (stdio) and the remote seat is the same bot.py run by `mjai-sim connect`
(a second process, as on an author's machine). Both are measured by the referee in the
same games (summary.json's decision_times: write to answer, per seat); prints p50 and p99
of each side and the difference. With --docker, also times one hanchan with the remote
seat against three containers, and the same hanchan with four containers.

Usage: scripts/bench-remote.py [--games 5] [--bin target/release/mjai-sim] [--docker]
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


def remote_game(binary, bots, options, logs):
    """Plays one game with seat 0 remote; returns (summary, seconds)."""
    started = time.monotonic()
    game = subprocess.Popen(
        [binary, *options, "--no-html", "--logs-dir", logs, *bots],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    command = None
    for line in game.stderr:
        m = re.search(r"mjai-sim connect (\S+) --token (\S+) BOT", line)
        if m:
            command = m.groups()
            break
    if command is None:
        sys.exit("the game printed no connect command")
    url, token = command
    bridge = subprocess.Popen(
        [binary, "connect", url, "--token", token, "--bot-stderr", os.path.join(logs, "bridge.stderr.txt"), BOT],
        stdout=subprocess.DEVNULL,
    )
    game.stderr.read()
    game.wait()
    bridge.wait(timeout=60)
    seconds = time.monotonic() - started
    with open(os.path.join(logs, "summary.json")) as f:
        return json.load(f), seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mjai-sim"))
    parser.add_argument("--docker", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(args.games):
            logs = os.path.join(tmp, f"g{g}")
            summary, _ = remote_game(
                args.bin, ["remote:bench", BOT, BOT, BOT], ["--runtime", "process", "--seed", str(100 + g)], logs
            )
            assert summary["completed"] and summary["chombos"] == [0, 0, 0, 0], summary
            d = summary["decision_times"]
            rows.append((d[0], [d[1], d[2], d[3]]))
        print(f"{args.games} hanchans, seat 0 remote (WebSocket on 127.0.0.1), seats 1-3 stdio (process runtime)")
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
            summary, remote_s = remote_game(args.bin, ["remote:bench", BOT, BOT, BOT], ["--seed", "7"], logs)
            assert summary["completed"], summary
            started = time.monotonic()
            subprocess.run([args.bin, "--seed", "7", "--no-html", "--logs-dir", os.path.join(tmp, "docker"), BOT, BOT, BOT, BOT],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            docker_s = time.monotonic() - started
            print(f"one hanchan (seed 7): remote seat + 3 containers {remote_s:.1f} s "
                  f"(remote p50/p99 {summary['decision_times'][0]['median_ms']:.3f}/{summary['decision_times'][0]['p99_ms']:.3f} ms); "
                  f"4 containers {docker_s:.1f} s")


if __name__ == "__main__":
    main()
