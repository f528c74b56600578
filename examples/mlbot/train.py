"""Trains examples/mlbot's policy by imitation: which tile `builtin:rulebase` discards, read
from `mjai-sim dataset --kind decisions` (one row per decision, with what the seat could
see: features.py turns a row into the network's input exactly as bot.py does in play).

    python3 examples/mlbot/train.py --games 300 --out examples/mlbot/model.pt
    python3 examples/mlbot/train.py --dataset decisions.parquet --out model.pt

Without --dataset it plays GAMES self-play hanchans of four builtin:rulebase
(`mjai-sim selfplay`) and exports them (`mjai-sim dataset`): the mjai-sim binary is
MJAI_SIM_BIN, else `mjai-sim` on PATH, else target/release/mjai-sim of this checkout. Needs
torch, and pyarrow to read the Parquet file: the ml image has both (torch 2.2.2, numpy
1.26.4, pyarrow 19.0.1); on a host, a venv with those pins and mjai 0.2.1. Deterministic for
a given --seed.
"""

import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot import policy  # noqa: E402
from features import KINDS, features, kind  # noqa: E402


def mjai_sim() -> str:
    here = pathlib.Path(__file__).resolve().parent.parent.parent / "target/release/mjai-sim"
    return os.environ.get("MJAI_SIM_BIN") or shutil.which("mjai-sim") or str(here)


def selfplay_dataset(games: int, seed: int, tmp: pathlib.Path) -> pathlib.Path:
    """Plays `games` hanchans of four builtin:rulebase in process and exports their decisions."""
    logs, out = tmp / "logs", tmp / "decisions.parquet"
    bots = ["builtin:rulebase"] * 4
    quiet = {"stdout": subprocess.DEVNULL}
    subprocess.run([mjai_sim(), "selfplay", *bots, "--games", str(games), "--seed", str(seed), "--logs-dir", str(logs)], check=True, **quiet)
    subprocess.run([mjai_sim(), "dataset", str(logs), "--kind", "decisions", "-o", str(out)], check=True, **quiet)
    return out


def samples(path: pathlib.Path) -> list:
    """(features, legal mask, label) for each discard a seat chose, not counting the forced
    discards after its riichi tile."""
    columns = ["seat", "tehai", "dora_markers", "discards", "discards_riichi", "melds", "reach", "legal_actions", "action"]
    rows, out = pq.read_table(path, columns=columns).to_pylist(), []
    for row in rows:
        action = json.loads(row["action"])
        if action["type"] != "dahai" or any(row["discards_riichi"][row["seat"]]):
            continue
        legal = [0.0] * KINDS
        for a in map(json.loads, row["legal_actions"]):
            if a["type"] == "dahai":
                legal[kind(a["pai"])] = 1.0
        out.append((features(row), legal, kind(action["pai"])))
    print(f"train: {len(out)} discards from {len(rows)} decisions in {path}")
    return out


def train(rows: list, epochs: int, seed: int):
    random.Random(seed).shuffle(rows)
    split = len(rows) // 10
    test, learn = rows[:split], rows[split:]
    tensor = lambda part, i, dt: torch.tensor([r[i] for r in part], dtype=dt)  # noqa: E731
    x, m, y = tensor(learn, 0, torch.float32), tensor(learn, 1, torch.float32), tensor(learn, 2, torch.long)
    tx, tm, ty = tensor(test, 0, torch.float32), tensor(test, 1, torch.float32), tensor(test, 2, torch.long)
    torch.manual_seed(seed)
    model = policy()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(epochs):
        order = torch.randperm(len(x))
        for start in range(0, len(x), 512):
            i = order[start : start + 512]
            logits = model(x[i]).masked_fill(m[i] == 0, -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            agree = (model(tx).masked_fill(tm == 0, -1e9).argmax(1) == ty).float().mean().item()
        print(f"epoch {epoch + 1}: loss {loss.item():.3f}, held-out agreement with rulebase {agree:.1%}")
    return model


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", type=pathlib.Path, help="a Parquet file of `mjai-sim dataset --kind decisions`")
    p.add_argument("--games", type=int, default=300, help="self-play hanchans without --dataset")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).with_name("model.pt"))
    args = p.parse_args()
    torch.set_num_threads(2)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.dataset or selfplay_dataset(args.games, args.seed, pathlib.Path(tmp))
        rows = samples(path)
    if not rows:
        sys.exit(f"train: no discards in {path}")
    model = train(rows, args.epochs, args.seed)
    torch.save(model.state_dict(), args.out)
    print(f"train: wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
