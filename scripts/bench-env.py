#!/usr/bin/env python3
"""Steps per second of the training environment (issue 55), in one run on this machine:

- ``mjai_sim.VecEnv`` (the installed wheel's extension), every seat decided from Python,
  random legal actions sampled in numpy from the mask (``mjai_sim.sample_legal``), full
  hanchans, four players (``tenhou``) and three (``riichi-dev-3p``); with features (the
  default) and without;
- RiichiEnv 0.4.11's own environment (``RiichiEnv(game_mode="4p-red-half" |
  "3p-red-half")``), random legal actions (``random.choice`` over each active player's
  ``legal_actions()``), full hanchans, in its own virtualenv (created under the target
  folder when missing, as scripts/test creates riichienv 0.4.8's);
- the floor: ``mjai-sim selfplay`` with built-in bots (``random``, the nearest to a random
  policy, and ``rulebase``), its hanchans/s.

A step is one decision answered (a row of the mask; one entry of RiichiEnv's action dict).
Each figure is the median of ``--runs`` measurements of ``--seconds`` each.

``--riichi-dev`` measures only the cost of riichi.dev's observation per row: ``VecEnv``
with features, four and three players, ``riichi_dev=False`` and ``True`` run by run in turn.

Usage: python scripts/bench-env.py [--seconds 5] [--runs 3] [--envs 64] [--threads 1,2]
       [--bin MJAI_SIM] [--riichienv-python PATH] [--riichi-dev]
       (run with the Python that has the mjai_sim wheel; ``--threads``: one row per count of
       ``VecEnv(threads=...)``; selfplay plays on one thread)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import mjai_sim

REPO = Path(__file__).resolve().parents[1]

RIICHIENV_LOOP = r"""
import json, random, sys, time
from riichienv import RiichiEnv
mode, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
steps = games = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    env = RiichiEnv(game_mode=mode)
    obs = env.reset()
    while not env.done():
        actions = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
        obs = env.step(actions)
        steps += len(actions)
    games += 1
print(json.dumps({"steps": steps, "games": games, "seconds": time.perf_counter() - start}))
"""


def bench_vecenv(rules: str, envs: int, seconds: float, seed: int, **options) -> dict:
    env = mjai_sim.VecEnv(envs, rules=rules, seed=seed, **options)
    rng = np.random.default_rng(seed)
    d = env.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = mjai_sim.sample_legal(d.mask, rng)
        steps += len(actions)
        d = env.step(actions)
    elapsed = time.perf_counter() - start
    return {"steps": steps, "games": env.games_finished, "seconds": elapsed}


def bench_riichienv(python: str, mode: str, seconds: float, seed: int) -> dict:
    import json

    out = subprocess.run([python, "-c", RIICHIENV_LOOP, mode, str(seconds), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def bench_selfplay(binary: str, bots: list, rules: str, games: int, seed: int) -> dict:
    cmd = [binary, "selfplay", *bots, "--games", str(games), "--seed", str(seed), "--rules", rules]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = re.search(r"(\d+) games, \d+ hands in ([\d.]+) s", out)
    if not m:
        raise SystemExit(f"cannot read selfplay's summary: {out[:300]}")
    return {"steps": 0, "games": int(m.group(1)), "seconds": float(m.group(2))}


def riichienv_python(path: str) -> str:
    if path:
        return path
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    venv = target / "py-riichienv-0.4.11"
    python = venv / "bin" / "python"
    check = "import importlib.metadata as m; assert m.version('riichienv') == '0.4.11'"
    if subprocess.run([str(python), "-c", check], capture_output=True).returncode != 0:
        print(f"creating {venv} (riichienv 0.4.11)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "riichienv==0.4.11"], check=True)
    return str(python)


def median_row(name: str, runs: list) -> tuple:
    steps = statistics.median(r["steps"] / r["seconds"] for r in runs)
    games = statistics.median(r["games"] / r["seconds"] for r in runs)
    return name, steps, games


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--bin", default="")
    p.add_argument("--riichienv-python", default="")
    p.add_argument("--selfplay-games", type=int, default=0, help="games per selfplay run (default: about --seconds)")
    p.add_argument("--threads", type=lambda v: [int(x) for x in v.split(",")], default=[1, 2],
                   help="VecEnv's threads, comma-separated: one row each (default 1,2)")
    p.add_argument("--riichi-dev", action="store_true", help="only VecEnv with riichi_dev off and on")
    a = p.parse_args()
    if a.riichi_dev:
        print_table(a, riichi_dev_rows(a))
        return
    binary = a.bin or mjai_sim.find_mjai_sim_bin()
    rpython = riichienv_python(a.riichienv_python)
    rows = []
    for players, rules, mode in ((4, "tenhou", "4p-red-half"), (3, "riichi-dev-3p", "3p-red-half")):
        variants = []
        for threads in a.threads:
            label = "1 thread" if threads == 1 else f"threads={threads}"
            variants += [
                (f"mjai_sim.VecEnv({a.envs}) {players}p, features, {label}", {"threads": threads}),
                (f"mjai_sim.VecEnv({a.envs}) {players}p, no features, {label}", {"features": False, "threads": threads}),
            ]
        for name, options in variants:
            runs = [bench_vecenv(rules, a.envs, a.seconds, seed, **options) for seed in range(a.runs)]
            rows.append(median_row(name, runs))
            print(f"  {rows[-1][0]}: {rows[-1][1]:,.0f} steps/s", file=sys.stderr)
        runs = [bench_riichienv(rpython, mode, a.seconds, seed) for seed in range(a.runs)]
        rows.append(median_row(f"RiichiEnv 0.4.11 {mode}", runs))
        print(f"  {rows[-1][0]}: {rows[-1][1]:,.0f} steps/s", file=sys.stderr)
        bots = ["builtin:random"] * players
        games = a.selfplay_games or max(20, int(a.seconds * (200 if players == 4 else 300)))
        runs = [bench_selfplay(binary, bots, rules, games, seed) for seed in range(a.runs)]
        rows.append(median_row(f"mjai-sim selfplay {players}x builtin:random", runs))
        runs = [bench_selfplay(binary, ["builtin:rulebase"] * players, rules, games, seed)
                for seed in range(a.runs)]
        rows.append(median_row(f"mjai-sim selfplay {players}x builtin:rulebase", runs))
    print_table(a, rows)


def riichi_dev_rows(a: argparse.Namespace) -> list:
    """``VecEnv`` with features, ``riichi_dev`` off and on, the runs of both in turn."""
    rows = []
    for players, rules in ((4, "tenhou"), (3, "riichi-dev-3p")):
        runs: dict = {False: [], True: []}
        for seed in range(a.runs):
            for on in (False, True):
                runs[on].append(bench_vecenv(rules, a.envs, a.seconds, seed, riichi_dev=on))
        for on in (False, True):
            rows.append(median_row(f"mjai_sim.VecEnv({a.envs}) {players}p, features, riichi_dev={on}", runs[on]))
            print(f"  {rows[-1][0]}: {rows[-1][1]:,.0f} steps/s", file=sys.stderr)
    return rows


def print_table(a: argparse.Namespace, rows: list) -> None:
    print(f"medians of {a.runs} runs of {a.seconds:g} s ({a.envs} tables), {time.strftime('%Y-%m-%d')}")
    print("| what | steps/s | hanchans/s |")
    print("|---|---|---|")
    for name, steps, games in rows:
        print(f"| {name} | {steps:,.0f} | {games:,.1f} |" if steps else f"| {name} | — | {games:,.1f} |")


if __name__ == "__main__":
    main()
