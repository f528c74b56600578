"""Trains examples/rl's discard policy with mjai-sim's environment on CPU (numpy only), then
measures it with the in-process arena.

1. Play `--games` hanchans of four builtin:rulebase in `mjai_sim.VecEnv` (a fixed series:
   `games=`, every seat a built-in, logs kept).
2. Behaviour cloning: replay each log through each seat's `policy.View` and collect, at
   every discard of a closed hand not in riichi, the features of the candidate tiles and
   the one rulebase chose; fit the linear softmax policy to them (cross-entropy, Adam).
3. Save weights.json and play `mjai_sim.evaluate` (1v3, `--eval-games` each) against
   builtin:random and builtin:tsumogiri (and builtin:rulebase, for reference).

Usage: python train.py [--games 600] [--eval-games 1000] [--out weights.json]
"""

import argparse
import json
import os
import sys
import time

import numpy as np

import mjai_sim

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from agent import RlAgent  # noqa: E402
from policy import FEATURES, NAMES, Policy, View, candidates, features  # noqa: E402

MAX_CANDIDATES = 14


def rulebase_logs(games: int, seed: int) -> list:
    """The logs of `games` hanchans of four builtin:rulebase, played by the environment."""
    spec = [{"seed": (seed, g), "seats": ["rulebase"] * 4, "names": ["builtin:rulebase"] * 4} for g in range(games)]
    env = mjai_sim.VecEnv(min(64, games), games=spec, keep_logs=True, features=False)
    d = env.reset()  # no seat is decided from Python: the whole series is played here
    return [[json.loads(line) for line in end["log"]] for end in d.ended]


def samples(logs: list) -> tuple:
    """(X, mask, y): candidates' features (n, MAX_CANDIDATES, FEATURES), which exist, and
    the index of the discard rulebase made."""
    xs, ys = [], []
    for log in logs:
        views = [View(s) for s in range(4)]
        declared = [False] * 4
        for e in log:
            if e["type"] == "dahai":
                s = e["actor"]
                v = views[s]
                if not (v.opened or v.riichi[s] or declared[s]):
                    tiles = candidates(v.hand)
                    xs.append(np.pad(features(v, tiles), ((0, MAX_CANDIDATES - len(tiles)), (0, 0))))
                    ys.append((tiles.index(e["pai"]), len(tiles)))
            if e["type"] == "start_kyoku":
                declared = [False] * 4
            declared = [False] * 4 if e["type"] == "dahai" else declared
            if e["type"] == "reach":
                declared[e["actor"]] = True
            for v in views:
                v.see(e)
    x = np.stack(xs).astype(np.float32)
    mask = np.arange(MAX_CANDIDATES)[None, :] < np.array([n for _, n in ys])[:, None]
    return x, mask, np.array([i for i, _ in ys])


def fit(x: np.ndarray, mask: np.ndarray, y: np.ndarray, steps: int = 400, lr: float = 0.05) -> tuple:
    """Linear softmax over the candidates (cross-entropy, full-batch Adam). Returns the
    weights, the final loss and the share of discards predicted exactly."""
    w = np.zeros(FEATURES, dtype=np.float64)
    m, v = np.zeros_like(w), np.zeros_like(w)
    rows = np.arange(len(y))
    for t in range(1, steps + 1):
        logits = np.where(mask, x @ w, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        loss = -np.log(p[rows, y] + 1e-12).mean()
        p[rows, y] -= 1.0
        grad = np.einsum("nc,ncf->f", p, x) / len(y)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    accuracy = float((np.where(mask, x @ w, -np.inf).argmax(axis=1) == y).mean())
    return w, float(loss), accuracy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "weights.json"))
    args = ap.parse_args()

    t0 = time.time()
    logs = rulebase_logs(args.games, args.seed)
    t1 = time.time()
    x, mask, y = samples(logs)
    t2 = time.time()
    w, loss, accuracy = fit(x, mask, y)
    t3 = time.time()
    print(f"self-play: {len(logs)} hanchans in {t1 - t0:.1f} s; {len(y)} discards read in {t2 - t1:.1f} s; "
          f"fit in {t3 - t2:.1f} s: loss {loss:.3f}, rulebase's discard predicted {100 * accuracy:.1f} %")
    for name, value in zip(NAMES, w):
        print(f"  {name:<26} {value:+.3f}")
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"features": NAMES, "weights": [round(float(a), 6) for a in w],
                   "trained": {"games": args.games, "seed": args.seed, "discards": int(len(y)),
                               "loss": round(loss, 4), "accuracy": round(accuracy, 4)}}, f, indent=1)
        f.write("\n")

    if args.eval_games:
        policy = Policy(w)
        for champion in ("builtin:random", "builtin:tsumogiri", "builtin:rulebase"):
            start = time.time()
            st = mjai_sim.evaluate(RlAgent(policy), champion, games=args.eval_games, seed=(1000, 1))
            me = st["bots"][0]
            print(f"rl vs {champion}: {args.eval_games} games in {time.time() - start:.0f} s: "
                  f"mean rank {me['avg_rank']:.3f} [{me['avg_rank_ci'][0]:.3f}, {me['avg_rank_ci'][1]:.3f}], "
                  f"pt {me['avg_pt']:+.1f} [{me['avg_pt_ci'][0]:+.1f}, {me['avg_pt_ci'][1]:+.1f}], "
                  f"ranks {me['rank_counts']}, win rate {me['win_rate']:.3f}, deal-in rate {me['deal_in_rate']:.3f}")


if __name__ == "__main__":
    main()
