#!/usr/bin/env python3
"""Peak memory of the grading server while it takes one large upload (issue 27, item 6).

Starts `mjai-sim serve` (release build, SQLite in a temporary folder, no league games, the
process runtime), makes a zip of bot.py and SIZE MB of incompressible weights, uploads it with
curl and samples the server's resident memory (VmRSS, /proc) every 20 ms until curl returns;
then waits for the validation game and reads VmHWM. So that the upload is measured alone, the
server validates one bot at a time and a "blocker" bot (it sleeps 15 s before it reads its
first line) is uploaded first: the big zip's validation waits in the queue meanwhile. Prints:
the RSS before, the peak during the upload, the status, and the high-water mark after its
validation (which loads the submission: the runtime holds a submission's files in memory).

Usage: scripts/bench-upload-rss.py [SIZE_MB (default 300)]
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = os.environ.get("MJAI_SIM_BIN", str(ROOT / "target/release/mjai-sim"))


def kib(pid: int, field: str) -> int:
    text = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+) kB", text).group(1))


def main() -> None:
    size_mb = float(sys.argv[1]) if len(sys.argv) > 1 else 300
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        zpath = tmp / "big.zip"
        with zipfile.ZipFile(zpath, "w", zipfile.ZIP_STORED) as z:
            z.write(ROOT / "examples/tsumogiri/bot.py", "bot.py")
            with z.open("weights.bin", "w", force_zip64=True) as w:
                left = int(size_mb * 1e6)
                while left > 0:
                    n = min(left, 1 << 20)
                    w.write(os.urandom(n))
                    left -= n
        db = str(tmp / "serve.sqlite")
        token = subprocess.run([BIN, "serve", "author", "add", "alice", "--db", db], capture_output=True, text=True, check=True).stdout.strip()
        blocker = tmp / "blocker.zip"
        with zipfile.ZipFile(blocker, "w") as z:
            z.writestr("bot.py", "import time\ntime.sleep(15)\n" + (ROOT / "examples/tsumogiri/bot.py").read_text())
        env = {**os.environ, "TMPDIR": str(tmp)}
        server = subprocess.Popen(
            [BIN, "serve", "--db", db, "--listen", "127.0.0.1:0", "--jobs", "0", "--runtime", "process", "--max-validations", "1",
             "--work-dir", str(tmp / "work"), "builtin:tsumogiri"],
            stderr=subprocess.PIPE, text=True, env=env)
        try:
            addr = None
            for line in server.stderr:
                if "on http://" in line:
                    addr = line.split("on http://")[1].split()[0]
                    break
            threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
            subprocess.run(["curl", "-s", "-o", "/dev/null", "-H", f"Authorization: Bearer {token}", "-F", "name=blocker",
                            "-F", f"file=@{blocker}", f"http://{addr}/api/bots"], check=True)
            time.sleep(1)  # the blocker's validation has started (it holds the only slot for 15 s)
            before = kib(server.pid, "VmRSS")
            curl = subprocess.Popen(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", f"Authorization: Bearer {token}",
                                     "-F", "name=big", "-F", f"file=@{zpath}", f"http://{addr}/api/bots"], stdout=subprocess.PIPE, text=True)
            peak = before
            while curl.poll() is None:
                peak = max(peak, kib(server.pid, "VmRSS"))
                time.sleep(0.02)
            status = curl.stdout.read()
            for _ in range(600):
                page = json.load(urllib.request.urlopen(f"http://{addr}/api/bots/big"))
                if page["entry"]["status"] != "validating":
                    break
                time.sleep(0.5)
            print(f"zip {zpath.stat().st_size / 1e6:.1f} MB: status {status}; server RSS {before / 1024:.0f} MiB before, "
                  f"peak {peak / 1024:.0f} MiB during the upload; after validation ({page['entry']['status']}): "
                  f"high-water mark {kib(server.pid, 'VmHWM') / 1024:.0f} MiB")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
