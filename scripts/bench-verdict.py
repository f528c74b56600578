#!/usr/bin/env python3
"""Upload to verdict on the grading server (issue 39, item 7): two uploads at once.

Starts `mjai-sim serve` (release build unless MJAI_SIM_BIN names another, SQLite in a
temporary folder, the league playing among four house bots with `--jobs 2`, as a season's
server does; RUNTIME `process` or `docker`), uploads the tsumogiri example's zip twice at
once (two names) and times each until `GET /api/bots/NAME` says `active` or `rejected`.
Repeats ROUNDS times on fresh servers; prints each round and the medians.

Usage: scripts/bench-verdict.py [RUNTIME (process)] [ROUNDS (3)]
"""

import io
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = os.environ.get("MJAI_SIM_BIN", str(ROOT / "target/release/mjai-sim"))
HOUSE = ["builtin:rulebase", "builtin:tsumogiri", "tg=builtin:tsumogiri", "rb=builtin:rulebase"]


def tsumogiri_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.write(ROOT / "examples/tsumogiri/bot.py", "bot.py")
    return buf.getvalue()


def upload(addr: str, token: str, name: str, path: pathlib.Path) -> None:
    subprocess.run(["curl", "-s", "-o", "/dev/null", "-H", f"Authorization: Bearer {token}", "-F", f"name={name}",
                    "-F", f"file=@{path}", f"http://{addr}/api/bots"], check=True)


def status(addr: str, name: str) -> str:
    return json.load(urllib.request.urlopen(f"http://{addr}/api/bots/{name}"))["entry"]["status"]


def one_round(runtime: str) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        zpath = tmp / "tsumogiri.zip"
        zpath.write_bytes(tsumogiri_zip())
        db = str(tmp / "serve.sqlite")
        token = subprocess.run([BIN, "serve", "author", "add", "alice", "--db", db], capture_output=True, text=True,
                               check=True).stdout.strip()
        server = subprocess.Popen(
            [BIN, "serve", "--db", db, "--listen", "127.0.0.1:0", "--jobs", "2", "--runtime", runtime,
             "--work-dir", str(tmp / "work"), *HOUSE],
            stderr=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp)})
        try:
            addr = None
            for line in server.stderr:
                if "on http://" in line:
                    addr = line.split("on http://")[1].split()[0]
                    break
            threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
            names = ["bench-a", "bench-b"]
            start = time.monotonic()
            uploads = [threading.Thread(target=upload, args=(addr, token, n, zpath)) for n in names]
            for u in uploads:
                u.start()
            for u in uploads:
                u.join()
            done = {}
            while len(done) < len(names):
                for n in names:
                    if n not in done and status(addr, n) != "validating":
                        done[n] = (time.monotonic() - start, status(addr, n))
                if time.monotonic() - start > 600:
                    raise SystemExit("no verdict within 10 minutes")
                time.sleep(0.05)
            return [done[n] for n in names]
        finally:
            server.terminate()
            server.wait(timeout=60)


def main() -> None:
    runtime = sys.argv[1] if len(sys.argv) > 1 else "process"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    firsts, lasts = [], []
    for r in range(rounds):
        verdicts = one_round(runtime)
        times = sorted(t for t, _ in verdicts)
        firsts.append(times[0])
        lasts.append(times[-1])
        print(f"round {r + 1}: " + ", ".join(f"{t:.2f} s ({s})" for t, s in verdicts), flush=True)
    print(f"{runtime}: first verdict median {statistics.median(firsts):.2f} s, "
          f"both verdicts median {statistics.median(lasts):.2f} s over {rounds} rounds")


if __name__ == "__main__":
    main()
