#!/usr/bin/env python3
"""examples/mlbot evaluated in process against the batched containers (issue 55), in one run.

The same 1v3 schedule (``mjai-sim tournament --format 1v3``: sets of four games on one wall,
the challenger in each seat once) of examples/mlbot against three ``builtin:rulebase``:

  in process  ``mjai_sim.evaluate(Batched(), "builtin:rulebase", games=G, format="1v3",
              seed=(51, 0), num_envs=E)``: examples/mlbot's ``Batched`` (its torch policy,
              one forward pass per cycle) through ``react_batch``, on the referee's engine
              in this process
  containers  ``mjai-sim tournament --format 1v3 mlbot.zip builtin:rulebase --image ml
              --sets G/4 --seed 51,0 --tables K --timeout 30``: the same code as a batched
              submission (its mjai-sim.toml says ``batch = true``) in one ml-image container

``--runs`` times each, alternated; prints each run's wall time, the medians' hanchans per
hour and their ratio, whether both gave the same games (every log's events after
``start_game``, whose names differ) and both standings' mean rank of mlbot.

Usage: PY scripts/bench-evaluate.py [--games 64] [--runs 3] [--tables 16] [--num-envs 16]
PY: a Python with torch 2.2.2, mjai 0.2.1, mahjong 1.2.1 and the mjai-sim wheel (the ml
image's pins; docs/performance.md "Training environment" says how it was made). Needs the
ml image (`mjai-sim image build --ml`) and Docker.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

import mjai_sim

ROOT = pathlib.Path(__file__).resolve().parent.parent
MLBOT = ROOT / "examples" / "mlbot"
SEED = (51, 0)


def mlbot_zip(path: pathlib.Path) -> pathlib.Path:
    """examples/mlbot as a batched submission: its three files and ``batch = true``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in ("bot.py", "features.py", "model.pt"):
            z.write(MLBOT / name, name)
        z.writestr("mjai-sim.toml", "batch = true\n")
    return path


def in_process(games: int, num_envs: int, out: pathlib.Path) -> tuple:
    sys.path.insert(0, str(MLBOT))
    import bot  # examples/mlbot/bot.py

    start = time.perf_counter()
    standings = mjai_sim.evaluate(bot.Batched(), "builtin:rulebase", games=games, format="1v3", seed=SEED,
                                  logs=out, num_envs=num_envs)
    return time.perf_counter() - start, standings["bots"][0]["avg_rank"]


def containers(binary: str, zip_path: pathlib.Path, games: int, tables: int, out: pathlib.Path) -> tuple:
    cmd = [binary, "tournament", "--format", "1v3", str(zip_path), "builtin:rulebase", "--image", "ml",
           "--sets", str(games // 4), "--seed", f"{SEED[0]},{SEED[1]}", "--tables", str(tables),
           "--timeout", "30", "--dir", str(out), "--json"]
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-2000:]}")
    standings = json.loads(run.stdout)
    mlbot = next(b for b in standings["bots"] if b["name"] != "rulebase")
    return wall, mlbot["avg_rank"]


def events(path: pathlib.Path) -> list:
    """A log's events after ``start_game`` (whose names differ between the two runs)."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [e for e in lines if e.get("type") != "start_game"]


def same_games(inproc: pathlib.Path, tour: pathlib.Path, games: int) -> bool:
    return all(events(inproc / f"game-{g:05}" / "mjai_log.json") == events(tour / f"games/{g:06}/mjai_log.json")
               for g in range(games))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=64, help="games of each run, a multiple of 4 (default 64)")
    p.add_argument("--runs", type=int, default=3, help="runs of each, alternated (default 3)")
    p.add_argument("--tables", type=int, default=16, help="containers: games at once (default 16)")
    p.add_argument("--num-envs", type=int, default=16, help="in process: games at once (default 16)")
    p.add_argument("--bin", default=os.environ.get("MJAI_SIM_BIN", ""), help="the mjai-sim binary")
    a = p.parse_args()
    binary = a.bin or mjai_sim.find_mjai_sim_bin()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-evaluate-"))
    zip_path = mlbot_zip(tmp / "mlbot.zip")
    walls = {"in process": [], "containers": []}
    ranks = {}
    for n in range(a.runs):  # alternated, so that a change of load hits both
        wall, ranks["in process"] = in_process(a.games, a.num_envs, tmp / f"inproc-{n}")
        walls["in process"].append(wall)
        wall, ranks["containers"] = containers(binary, zip_path, a.games, a.tables, tmp / f"tour-{n}")
        walls["containers"].append(wall)
        print(f"run {n}: in process {walls['in process'][-1]:.1f} s, containers {wall:.1f} s", file=sys.stderr)
    same = same_games(tmp / "inproc-0", tmp / "tour-0", a.games)
    print(f"{time.strftime('%Y-%m-%d')}: examples/mlbot 1v3 against 3 x builtin:rulebase, {a.games} games "
          f"(seed {SEED[0]},{SEED[1]}), medians of {a.runs} runs; same games: {same}; "
          f"mlbot's mean rank: in process {ranks['in process']:.3f}, containers {ranks['containers']:.3f}")
    print("| path | wall s (each run) | hanchans/hour (median) |")
    print("|---|---|---|")
    rates = {}
    for label, ws in walls.items():
        rates[label] = a.games * 3600 / statistics.median(ws)
        extra = f"num_envs={a.num_envs}" if label == "in process" else f"--tables {a.tables}"
        print(f"| {label} ({extra}) | {', '.join(f'{w:.1f}' for w in ws)} | {rates[label]:,.0f} |")
    print(f"in process / containers: {rates['in process'] / rates['containers']:.1f}x hanchans per hour")


if __name__ == "__main__":
    main()
