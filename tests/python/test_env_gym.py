"""``mjai_sim.gym.MahjongEnv`` (issue 55): Gymnasium's own checker, and whole games played
with masked random actions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mjai_sim.gym import MahjongEnv


@pytest.mark.parametrize("rules", ["tenhou", "riichi-dev-3p"])
def test_gymnasiums_checker_accepts_the_environment(rules: str) -> None:
    check_env(MahjongEnv(rules=rules), skip_render_check=True)


@pytest.mark.parametrize("rules,uma", [("tenhou", {90.0, 45.0, 0.0, -135.0}), ("riichi-dev-3p", {90.0, 0.0, -90.0})])
def test_masked_random_play_finishes_games_with_placement_points(rules: str, uma: set) -> None:
    env = MahjongEnv(rules=rules, opponents="tsumogiri")
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        total, terminated, steps = 0.0, False, 0
        while not terminated:
            assert env.observation_space.contains(obs)
            action = env.action_space.sample(mask=info["action_mask"].astype(np.int8))
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated and "illegal_action" not in info
            total += reward
            steps += 1
        assert total in uma, (total, info["game"])
        assert info["game"]["points"][seed % (4 if rules == "tenhou" else 3)] == total
        assert steps > 20


def test_an_illegal_action_loses_or_raises() -> None:
    env = MahjongEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -135.0 and info["illegal_action"]
    strict = MahjongEnv(illegal="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
