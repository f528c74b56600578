#!/usr/bin/env python3
"""Batched bots against one kept container per seat (docs/performance.md "Batched bots").

For each bot, the same 1v3 tournament against three builtin:tsumogiri, in the same run:
  kept     `tournament --format 1v3 BOT.zip builtin:tsumogiri --keep-bots --no-batch --jobs J`
  batched  `tournament --format 1v3 BOT.zip builtin:tsumogiri --tables K` (the same zip:
           its mjai-sim.toml says `batch = true`)
both with `--timeout 30` (a timeout's chombo would change the games compared)
`--runs` times each, alternated, and prints for the run of median wall time hanchans per
hour, host CPU-seconds per hanchan (all of the machine's busy time
during the run, from /proc/stat: the referee, the containers and whatever else runs), the
peak memory of the bot's containers per table (cgroup), and whether both runs gave the same
games (mjai_log.json of every game).

Bots:
  mlbot   examples/mlbot (a small network; the cost is Python and the relay)
  mortal  a network the size of Mortal's (1012x34 input planes, 40 residual blocks of 192
          channels, random weights from a fixed seed, generated here); it plays tsumogiri
          and runs one forward pass per own discard (batched: one per cycle)

Usage: scripts/bench-batch.py [--sets N] [--mortal-sets N] [--jobs J] [--tables K] [--timeout S]
                              [--gpus all] [--only mlbot|mortal] [--keep DIR]
Needs the release build and the ml image (`mjai-sim image build --ml`). Docker only.
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("MJAI_SIM_BIN", str(ROOT / "target/release/mjai-sim"))

MORTAL_BOT = r'''"""A network the size of Mortal's, random weights; plays tsumogiri (scripts/bench-batch.py)."""
import json
import sys

import torch

PLANES, WIDTH, BLOCKS, KINDS = 1012, 192, 40, 34
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv1d(WIDTH, WIDTH, 3, padding=1)
        self.b = torch.nn.Conv1d(WIDTH, WIDTH, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.b(torch.relu(self.a(x))))


def network():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv1d(PLANES, WIDTH, 3, padding=1), *[Block() for _ in range(BLOCKS)],
                              torch.nn.Flatten(), torch.nn.Linear(WIDTH * KINDS, KINDS))
    return net.to(DEVICE).eval()


NET = network()


def forward(n):
    with torch.no_grad():
        return NET(torch.zeros(n, PLANES, KINDS, device=DEVICE)).cpu()


def own_draw(seat, events):
    last = events[-1]
    return last.get("type") == "tsumo" and last.get("actor") == seat, last


def act(seat, events):
    mine, last = own_draw(seat, events)
    if mine:
        return {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
    return {"type": "none"}


def think_batch(requests):
    asking = sum(own_draw(r["seat"], r["events"])[0] for r in requests)
    if asking:
        forward(asking)
    print(f"cycle {len(requests)} {asking}", file=sys.stderr, flush=True)
    return [act(r["seat"], r["events"]) for r in requests]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--batch"]:
        from mjai_sim.batch import serve_batched
        serve_batched(think_batch)
    else:
        seat = int(sys.argv[1])
        for line in sys.stdin:
            events = json.loads(line)
            if own_draw(seat, events)[0]:
                forward(1)
            print(json.dumps(act(seat, events)), flush=True)
'''


def make_zip(path, files):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def busy_jiffies():
    """The machine's busy CPU time so far, in seconds (/proc/stat: all but idle and iowait)."""
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


class Peaks(threading.Thread):
    """Samples the memory peak of every mjai-sim container (cgroup) every 0.2 s."""

    FILES = ["/sys/fs/cgroup/system.slice/docker-{}.scope/memory.peak", "/sys/fs/cgroup/docker/{}/memory.peak",
             "/sys/fs/cgroup/memory/docker/{}/memory.max_usage_in_bytes"]

    def __init__(self):
        super().__init__(daemon=True)
        self.peaks, self.running = {}, True

    def run(self):
        while self.running:
            ids = subprocess.run(["docker", "ps", "-q", "--no-trunc", "--filter", "label=mjai-sim.game"],
                                 capture_output=True, text=True).stdout.split()
            for cid in ids:
                for pattern in self.FILES:
                    try:
                        value = int(open(pattern.format(cid)).read())
                    except (OSError, ValueError):
                        continue
                    self.peaks[cid] = max(self.peaks.get(cid, 0), value)
                    break
            time.sleep(0.2)


def tournament(zip_path, sets, extra, out):
    peaks = Peaks()
    peaks.start()
    cpu, start = busy_jiffies(), time.monotonic()
    cmd = [BIN, "tournament", "--format", "1v3", str(zip_path), "builtin:tsumogiri", "--image", "ml",
           "--sets", str(sets), "--seed", "51", "--dir", str(out), "--json", *extra]
    run = subprocess.run(cmd, capture_output=True, text=True)
    wall, cpu = time.monotonic() - start, busy_jiffies() - cpu
    peaks.running = False
    peaks.join()
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-2000:]}")
    return wall, cpu, peaks.peaks


def logs(out, games):
    return [(out / f"games/{g:06}/mjai_log.json").read_bytes() for g in range(games)]


def chombos(out, games):
    return sum(b'"reason":"error"' in log for log in logs(out, games))


def cycles(out):
    """Requests and forward passes per cycle, from the bot's stderr (`cycle N K` lines)."""
    lines = [line.split() for line in (out / "bot_logs/0-batch.stderr.txt").read_text().splitlines()]
    sizes = [(int(line[1]), int(line[2])) for line in lines if line[:1] == ["cycle"]]
    if not sizes:
        return ""
    return (f"; {len(sizes)} cycles, {statistics.mean(r for r, _ in sizes):.1f} requests and "
            f"{statistics.mean(k for _, k in sizes if k) if any(k for _, k in sizes) else 0:.1f} positions per cycle")


def median_run(runs):
    """The run of median wall time among `runs` (wall, cpu, peaks), and every wall time."""
    ordered = sorted(runs, key=lambda r: r[0])
    return ordered[len(ordered) // 2], [round(r[0], 1) for r in runs]


def compare(name, zip_path, sets, jobs, tables, gpus, timeout, repeat, tmp):
    games = 4 * sets
    common = ["--timeout", str(timeout), *(["--gpus", gpus] if gpus else [])]
    kept_runs, batched_runs = [], []
    for n in range(repeat):  # alternated, so that a change of load hits both
        kept_dir, batched_dir = tmp / f"{name}-kept-{n}", tmp / f"{name}-batched-{n}"
        kept_runs.append(tournament(zip_path, sets, ["--keep-bots", "--no-batch", "--jobs", str(jobs), *common],
                                    kept_dir))
        batched_runs.append(tournament(zip_path, sets, ["--tables", str(tables), *common], batched_dir))
    (kept, kept_walls), (batched, batched_walls) = median_run(kept_runs), median_run(batched_runs)
    print(f"\n{name}: wall s of each run: kept {kept_walls}, batched {batched_walls} (medians below)")
    kept_dir, batched_dir = tmp / f"{name}-kept-0", tmp / f"{name}-batched-0"
    same = logs(kept_dir, games) == logs(batched_dir, games)
    print(f"{name}: {games} games (1v3 against 3 x builtin:tsumogiri), same games: {same}; games with a chombo: "
          f"kept {chombos(kept_dir, games)}, batched {chombos(batched_dir, games)}{cycles(batched_dir)}")
    print("| run | wall s | hanchans/hour | host CPU-s per hanchan | peak memory per table |")
    print("|---|---|---|---|---|")
    rows = {}
    for label, (wall, cpu, peaks), batch in (("kept, --jobs %d" % jobs, kept, False),
                                              ("batched, --tables %d" % tables, batched, True)):
        per_hour = games * 3600 / wall
        # kept: one container per table (the median's); batched: the one container over its tables
        if not peaks:
            memory = float("nan")
        elif batch:
            memory = max(peaks.values()) / min(tables, games) / 2**20
        else:
            memory = statistics.median(peaks.values()) / 2**20
        rows[label] = per_hour
        print(f"| {label} | {wall:.1f} | {per_hour:,.0f} | {cpu / games:.2f} | {memory:,.0f} MiB |")
    kept_rate, batched_rate = rows.values()
    print(f"batched / kept: {batched_rate / kept_rate:.2f}x hanchans per hour")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=4, help="mlbot: duplicate sets of 4 games (default 4)")
    parser.add_argument("--mortal-sets", type=int, default=2, help="the Mortal-size network: sets (default 2)")
    parser.add_argument("--jobs", type=int, default=2, help="kept: games at once (default 2)")
    parser.add_argument("--tables", type=int, default=16, help="batched: games at once (default 16)")
    parser.add_argument("--gpus", help="pass --gpus to both runs (a GPU machine)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="both runs: --timeout (default 30 s: a big network on a loaded CPU can take over 2 s)")
    parser.add_argument("--keep", help="keep the tournaments' folders here")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, alternated; medians (default 3)")
    parser.add_argument("--only", choices=["mlbot", "mortal"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch:
        tmp = pathlib.Path(args.keep or scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        toml = "batch = true\n"
        if args.only != "mortal":
            ml = ROOT / "examples/mlbot"
            files = {n: (ml / n).read_bytes() for n in ("bot.py", "features.py", "model.pt")}
            mlbot = make_zip(tmp / "mlbot.zip", {**files, "mjai-sim.toml": toml})
            compare("mlbot", mlbot, args.sets, args.jobs, args.tables, args.gpus, args.timeout, args.runs, tmp)
        if args.only != "mlbot":
            mortal = make_zip(tmp / "mortal.zip", {"bot.py": MORTAL_BOT, "mjai-sim.toml": toml})
            compare("mortal", mortal, args.mortal_sets, args.jobs, args.tables, args.gpus, args.timeout, args.runs, tmp)


if __name__ == "__main__":
    main()
