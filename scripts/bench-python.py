#!/usr/bin/env python3
"""Python overhead of ``mjai_sim.Simulator.run()`` over the bare CLI, one Docker hanchan.

Runs the same game (four ``examples/tsumogiri`` bots in Docker, the same seed) alternately
through the binary the package installed (``subprocess.run``, stdout and stderr discarded)
and through ``mjai_sim.Simulator(...).run()`` (which also passes ``--no-html``, so the CLI
arm does too), RUNS times each, and prints each run, both medians and the overhead.

Usage (with a Python where the wheel is installed, e.g. the venv of scripts/test-python):
    PY/bin/python scripts/bench-python.py [RUNS (default 5)]
Needs the bot image (``mjai-sim image build``, or the first game builds it).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

import mjai_sim
from mjai_sim import _cli

REPO = Path(__file__).resolve().parents[1]
BOT = str(REPO / "examples" / "tsumogiri")
SEED = (20261125, 22)


def cli_run(logs: Path) -> float:
    args = [mjai_sim.find_mjai_sim_bin(), BOT, BOT, BOT, BOT, "--logs-dir", str(logs),
            "--seed", f"{SEED[0]},{SEED[1]}", "--timeout", "2.0", "--no-html"]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def py_run(logs: Path) -> float:
    start = time.perf_counter()
    mjai_sim.Simulator([BOT] * 4, logs_dir=logs, seed=SEED, quiet=True).run()
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cli: List[float] = []
    py: List[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        # One untimed game first: builds the image if missing, warms the page cache.
        cli_run(Path(tmp) / "warmup")
        for i in range(runs):
            # Alternate which arm goes first, so drift of the shared machine hits both alike.
            arms = [("cli", cli_run, cli), ("py", py_run, py)]
            for name, fn, out in arms if i % 2 == 0 else arms[::-1]:
                t = fn(Path(tmp) / f"{name}{i}")
                out.append(t)
                print(f"run {i + 1} {name:>3}: {t:.3f} s", flush=True)
    c, p = statistics.median(cli), statistics.median(py)
    print(f"median of {runs}: bare CLI {c:.3f} s, Simulator.run() {p:.3f} s, "
          f"overhead {p - c:+.3f} s ({(p - c) / c * 100:+.1f} %)")  # fmt: skip
    # The fixed cost of the Python layer alone (reader threads, polling, parsing), on a
    # command that does nothing: `mjai-sim --version`, 50 calls each way.
    binary = mjai_sim.find_mjai_sim_bin()
    bare, wrapped = [], []
    for _ in range(50):
        t = time.perf_counter()
        subprocess.run([binary, "--version"], stdin=subprocess.DEVNULL, capture_output=True, check=True)
        bare.append(time.perf_counter() - t)
        t = time.perf_counter()
        _cli.run(["--version"])
        wrapped.append(time.perf_counter() - t)
    b, w = statistics.median(bare), statistics.median(wrapped)
    print(f"fixed cost per call (mjai-sim --version, median of 50): subprocess.run {b * 1000:.1f} ms, "
          f"mjai_sim's runner {w * 1000:.1f} ms ({(w - b) * 1000:+.1f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
