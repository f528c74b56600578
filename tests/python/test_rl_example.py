"""examples/rl (issue 55): the policy trained by its train.py, played in process through
``mjai_sim.evaluate``, beats builtin:random and builtin:tsumogiri; its weights name the
features policy.py computes; the behaviour-cloning steps learn from a few self-play games.
Pure Python and numpy (bot.py's zip needs mjai; README.md has its tournament run)."""

from __future__ import annotations

import json
import sys

import numpy as np

import mjai_sim

from conftest import EXAMPLES

sys.path.insert(0, str(EXAMPLES / "rl"))
import agent as A  # noqa: E402
import policy as P  # noqa: E402
import train as T  # noqa: E402


def test_the_trained_policy_beats_random_and_tsumogiri() -> None:
    for champion in ("builtin:random", "builtin:tsumogiri"):
        st = mjai_sim.evaluate(A.RlAgent(), champion, games=40, seed=(500, 2))
        me = st["bots"][0]
        assert me["avg_rank"] < 1.5 and me["avg_rank_ci"][1] < 2.0, (champion, me["avg_rank"], me["avg_rank_ci"])
        assert me["win_rate"] > 0.1 and me["chombos"] == 0


def test_the_weights_name_the_features() -> None:
    saved = json.loads((EXAMPLES / "rl" / "weights.json").read_text())
    assert saved["features"] == P.NAMES and len(saved["weights"]) == P.FEATURES


def test_behaviour_cloning_learns_from_rulebase_games() -> None:
    logs = T.rulebase_logs(8, seed=3)
    assert len(logs) == 8 and all(log[-1]["type"] == "end_game" for log in logs)
    x, mask, y = T.samples(logs)
    assert x.shape[1:] == (T.MAX_CANDIDATES, P.FEATURES) and len(y) > 1000
    assert mask[np.arange(len(y)), y].all(), "every label is one of its row's candidates"
    _, loss, accuracy = T.fit(x, mask, y, steps=100)
    chance = float((1.0 / mask.sum(axis=1)).mean())
    assert accuracy > chance + 0.2, (accuracy, chance)
