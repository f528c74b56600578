#!/usr/bin/env python3
"""Peak memory of the grading server and of a worker around one large submission (issue 41,
item 4): its validation (serve) and a league game (worker), per binary, medians of RUNS runs.

Both use the process runtime (the bots run as local processes: what is measured is
mjai-sim's own memory, not Docker's) and a zip of examples/tsumogiri's bot.py plus SIZE MB of
incompressible weights (stored, not deflated), made once.

- serve: `mjai-sim serve` on SQLite (`--jobs 0`, one validation at a time); idle RSS read
  1 s after start, the zip uploaded with curl, then the server's VmRSS sampled every 20 ms
  until its validation ends; printed: idle RSS and VmHWM (the high-water mark) after the
  verdict, and their difference.
- worker: a throwaway PostgreSQL cluster (initdb, pg_ctl, as `postgres` when run as root);
  `mjai-sim worker --db URL --jobs 1` started first and left idle for 2 s (idle RSS), then
  `mjai-sim tournament --db URL --runtime process --sets 1 --jobs 0` with the big bot and
  three built-ins: the worker plays its 4 games; printed: idle RSS and VmHWM once they are
  done, and their difference.

Usage: scripts/bench-submission-rss.py [--size MB (300)] [--runs N (3)] [--what serve,worker]
           BINARY [BINARY...]
"""

import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def kib(pid: int, field: str) -> int:
    text = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+) kB", text).group(1))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_zip(path: pathlib.Path, size_mb: float) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.write(ROOT / "examples/tsumogiri/bot.py", "bot.py")
        with z.open("weights.bin", "w", force_zip64=True) as w:
            left = int(size_mb * 1e6)
            while left > 0:
                n = min(left, 1 << 20)
                w.write(os.urandom(n))
                left -= n


def drain(stream) -> None:
    threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()


def serve_once(binary: str, zpath: pathlib.Path, tmp: pathlib.Path) -> tuple[int, int]:
    db = str(tmp / "serve.sqlite")
    token = subprocess.run([binary, "serve", "author", "add", "alice", "--db", db], capture_output=True, text=True,
                           check=True).stdout.strip()
    env = {**os.environ, "TMPDIR": str(tmp)}
    server = subprocess.Popen(
        [binary, "serve", "--db", db, "--listen", "127.0.0.1:0", "--jobs", "0", "--runtime", "process",
         "--max-validations", "1", "--work-dir", str(tmp / "work"), "builtin:tsumogiri"],
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        addr = None
        for line in server.stderr:
            if "on http://" in line:
                addr = line.split("on http://")[1].split()[0]
                break
        drain(server.stderr)
        time.sleep(1)
        idle = kib(server.pid, "VmRSS")
        subprocess.run(["curl", "-s", "-o", "/dev/null", "-H", f"Authorization: Bearer {token}", "-F", "name=big",
                        "-F", f"file=@{zpath}", f"http://{addr}/api/bots"], check=True)
        deadline = time.time() + 600
        while time.time() < deadline:
            page = json.load(urllib.request.urlopen(f"http://{addr}/api/bots/big"))
            if page["entry"]["status"] != "validating":
                break
            time.sleep(0.2)
        status = page["entry"]["status"]
        if status != "active":
            raise SystemExit(f"{binary}: the big bot's validation ended {status}")
        return idle, kib(server.pid, "VmHWM")
    finally:
        server.terminate()
        server.wait(timeout=60)


class Postgres:
    def __init__(self, tmp: pathlib.Path):
        self.bin = pathlib.Path(shutil.which("initdb")).parent
        for v in sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)):
            self.bin = v
        self.dir = tmp / "pg"
        self.data, self.sock = self.dir / "data", self.dir / "sock"
        self.data.mkdir(parents=True)
        self.sock.mkdir()
        self.as_pg = os.geteuid() == 0
        if self.as_pg:
            os.chmod(tmp.parent, 0o755)  # the postgres user walks down to its data folder
            os.chmod(tmp, 0o755)
            os.chmod(self.dir, 0o755)
            for p in (self.data, self.sock):
                shutil.chown(p, "postgres", "postgres")
                os.chmod(p, 0o700)
        self.port = free_port()
        self.run("initdb", "-D", str(self.data), "-U", "mjai", "--auth=trust", "-E", "UTF8", "--no-sync")
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.sock} -c fsync=off -c synchronous_commit=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.data / "log"), "-w", "start")
        self.url = f"postgres://mjai@127.0.0.1:{self.port}/postgres"

    def run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.as_pg:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, cwd="/")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")


def worker_once(binary: str, zpath: pathlib.Path, tmp: pathlib.Path) -> tuple[int, int]:
    pg = Postgres(tmp)
    env = {**os.environ, "TMPDIR": str(tmp)}
    try:
        worker = subprocess.Popen([binary, "worker", "--db", pg.url, "--jobs", "1", "--poll", "0.2", "--name", "bench",
                                   "--work-dir", str(tmp / "work")], stderr=subprocess.PIPE, text=True, env=env)
        drain(worker.stderr)
        try:
            time.sleep(2)
            idle = kib(worker.pid, "VmRSS")
            coord = subprocess.run(
                [binary, "tournament", "--db", pg.url, "--runtime", "process", "--sets", "1", "--jobs", "0",
                 "--seed", "5,1", "--json", "--dir", str(tmp / "coord"), f"big={zpath}", "builtin:tsumogiri",
                 "builtin:rulebase", "builtin:tsumogiri"], capture_output=True, text=True, env=env, timeout=900)
            if coord.returncode != 0:
                raise SystemExit(f"{binary}: tournament failed: {coord.stderr[-2000:]}")
            games = json.loads(coord.stdout)["bots"][0]["games"]
            if games != 4:
                raise SystemExit(f"{binary}: the big bot played {games} games, not 4")
            return idle, kib(worker.pid, "VmHWM")
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=60)
    finally:
        pg.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=float, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--what", default="serve,worker")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as top:
        zpath = pathlib.Path(top) / "big.zip"
        make_zip(zpath, args.size)
        print(f"zip {zpath.stat().st_size / 1e6:.1f} MB", flush=True)
        for what in args.what.split(","):
            once = {"serve": serve_once, "worker": worker_once}[what]
            for binary in args.binaries:
                rows = []
                for run in range(args.runs):
                    with tempfile.TemporaryDirectory(dir=top) as tmp:
                        idle, peak = once(binary, zpath, pathlib.Path(tmp))
                    rows.append((idle / 1024, peak / 1024, (peak - idle) / 1024))
                    print(f"  {what} {binary} run {run + 1}: idle {rows[-1][0]:.0f} MiB, peak {rows[-1][1]:.0f} MiB, "
                          f"peak - idle {rows[-1][2]:.0f} MiB", flush=True)
                med = [statistics.median(r[i] for r in rows) for i in range(3)]
                print(f"{what} {binary}: median of {len(rows)}: idle {med[0]:.0f} MiB, peak {med[1]:.0f} MiB, "
                      f"peak - idle {med[2]:.0f} MiB (range {min(r[2] for r in rows):.0f}-{max(r[2] for r in rows):.0f})",
                      flush=True)


if __name__ == "__main__":
    sys.exit(main())
