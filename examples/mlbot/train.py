"""Trains examples/mlbot's policy by imitation: which tile `builtin:rulebase` discards, from
self-play logs, seen from the discarding seat exactly as the bot sees a game (the events
masked for that seat, replayed through mjai's PlayerState and the bot's own `features`).

    python3 examples/mlbot/train.py --games 300 --out examples/mlbot/model.pt
    python3 examples/mlbot/train.py --logs DIR --out model.pt   # mjai logs you have

Needs torch, numpy and mjai 0.2.1 on the host (e.g. a venv: pip install torch==2.2.2
numpy==1.26.4 mjai==0.2.1) and, without --logs, the mjai-sim binary (MJAI_SIM_BIN or
target/release/mjai-sim) for `mjai-sim selfplay`. Deterministic for a given --seed.
"""

import argparse
import gzip
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile

import torch
from mjai import Bot

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot import KINDS, Table, features, kind, policy  # noqa: E402


def selfplay_logs(games: int, seed: int, out: pathlib.Path) -> list:
    """Plays `games` hanchans of four builtin:rulebase in process; returns their log paths."""
    root = pathlib.Path(__file__).resolve().parent.parent.parent
    binary = os.environ.get("MJAI_SIM_BIN", str(root / "target/release/mjai-sim"))
    subprocess.run(
        [binary, "selfplay", *["builtin:rulebase"] * 4, "--games", str(games), "--seed", str(seed), "--logs-dir", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return find_logs(out)


def find_logs(folder: pathlib.Path) -> list:
    return sorted(p for p in folder.rglob("*") if p.name in ("mjai_log.json", "mjai_log.json.gz"))


def read_events(path: pathlib.Path) -> list:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def masked(event: dict, seat: int) -> dict:
    """The event as `seat` receives it: the other seats' haipai and draws hidden."""
    if event["type"] == "start_kyoku":
        tehais = [t if i == seat else ["?"] * len(t) for i, t in enumerate(event["tehais"])]
        return {**event, "tehais": tehais}
    if event["type"] == "tsumo" and event["actor"] != seat:
        return {**event, "pai": "?"}
    return event


def samples(events: list, seat: int) -> list:
    """(features, legal mask, label) for each discard `seat` chose (not the forced discards
    after an accepted riichi)."""
    bot, table, out = Bot(player_id=seat), Table(), []
    for event in events:
        if event["type"] == "dahai" and event["actor"] == seat and not bot.self_riichi_accepted:
            legal = [0.0] * KINDS
            for tile in bot.tehai_mjai:
                legal[kind(tile)] = 1.0
            out.append((features(bot, table), legal, kind(event["pai"])))
        event = masked(event, seat)
        table.see(event)
        bot.player_state.update(json.dumps(event))
    return out


def dataset(paths: list) -> list:
    rows, skipped = [], 0
    for path in paths:
        events = read_events(path)
        for seat in range(4):
            try:
                rows.extend(samples(events, seat))
            except Exception as e:  # a log PlayerState cannot follow: skip it, say so
                skipped += 1
                print(f"train: skipped {path} seat {seat}: {e}", file=sys.stderr)
    print(f"train: {len(rows)} discards from {len(paths)} logs ({skipped} seat replays skipped)")
    return rows


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
    return model, agree


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--logs", type=pathlib.Path, help="a folder of mjai logs (default: self-play)")
    p.add_argument("--games", type=int, default=300, help="self-play hanchans without --logs")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).with_name("model.pt"))
    args = p.parse_args()
    torch.set_num_threads(2)
    with tempfile.TemporaryDirectory() as tmp:
        paths = find_logs(args.logs) if args.logs else selfplay_logs(args.games, args.seed, pathlib.Path(tmp))
        if not paths:
            sys.exit(f"train: no mjai_log.json under {args.logs}")
        rows = dataset(paths)
    model, _ = train(rows, args.epochs, args.seed)
    torch.save(model.state_dict(), args.out)
    print(f"train: wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
