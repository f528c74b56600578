"""``mjai_sim.aec.MahjongAECEnv`` (issue 55): PettingZoo's own API test, and whole games
played through ``agent_iter`` with masked random actions."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from mjai_sim.aec import MahjongAECEnv


@pytest.mark.parametrize("rules", ["tenhou", "riichi-dev-3p"])
def test_pettingzoos_api_test_accepts_the_environment(rules: str) -> None:
    api_test(MahjongAECEnv(rules=rules), num_cycles=2000)


@pytest.mark.parametrize("rules,seats", [("tenhou", 4), ("riichi-dev-3p", 3)])
def test_a_game_through_agent_iter_pays_each_agent_its_points(rules: str, seats: int) -> None:
    env = MahjongAECEnv(rules=rules)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    turns = 0
    game = None
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            game = info["game"]
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0 and observation["observation"].shape[1] == 34
        env.step(int(rng.choice(legal)))
        turns += 1
    assert env.agents == [] and game is not None and turns > 100
    assert [totals[f"player_{s}"] for s in range(seats)] == game["points"]
    assert sorted(game["ranks"]) == list(range(1, seats + 1))


def test_an_illegal_index_raises() -> None:
    env = MahjongAECEnv()
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
