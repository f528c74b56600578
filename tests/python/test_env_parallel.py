"""``mjai_sim.parallel.MahjongParallelEnv`` and ``mjai_sim.vector.MahjongVectorEnv`` (issue
55): PettingZoo's own parallel API test, whole games with masked random actions, and the
vector env's spaces, autoreset and rewards."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from mjai_sim.parallel import MahjongParallelEnv
from mjai_sim.vector import MahjongVectorEnv


@pytest.mark.parametrize("rules", ["tenhou", "riichi-dev-3p"])
def test_pettingzoos_parallel_api_test_accepts_the_environment(rules: str) -> None:
    parallel_api_test(MahjongParallelEnv(rules=rules), num_cycles=3000)


@pytest.mark.parametrize("rules,seats", [("tenhou", 4), ("riichi-dev-3p", 3)])
def test_a_parallel_game_pays_each_agent_its_points(rules: str, seats: int) -> None:
    env = MahjongParallelEnv(rules=rules)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(1)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    while env.agents:
        actions = {}
        for a in env.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            actions[a] = int(rng.choice(legal)) if len(legal) else 0
        assert any(obs[a]["action_mask"].any() for a in env.agents), "some agent is asked each step"
        obs, rewards, terminations, _, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
        steps += 1
    game = infos["player_0"]["game"]
    assert steps > 100 and all(terminations.values())
    assert [totals[f"player_{s}"] for s in range(seats)] == game["points"]
    with pytest.raises(RuntimeError):
        env.step({})


def test_a_parallel_illegal_index_raises() -> None:
    env = MahjongParallelEnv()
    obs, _ = env.reset(seed=0)
    asked = next(a for a in env.agents if obs[a]["action_mask"].any())
    bad = int(np.flatnonzero(obs[asked]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step({a: bad if a == asked else 0 for a in env.agents})


def test_the_vector_env_steps_one_seat_per_table_with_autoreset() -> None:
    envs = MahjongVectorEnv(6, opponents="rulebase", seat="rotating")
    obs, info = envs.reset(seed=9)
    assert obs.shape == (6, 58, 34) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (6, 120) and info["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(0)
    finished, total = [], np.zeros(6)
    while len(finished) < 8:
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        assert envs.action_space.contains(actions)
        obs, rewards, terminations, truncations, info = envs.step(actions)
        assert not truncations.any() and envs.observation_space.contains(obs)
        total += rewards
        for t in np.flatnonzero(terminations):
            game = info["final_info"]["game"][t]
            seat = game["game"] % 4  # rotating: game g's learner sits in seat g % 4
            assert game["learners"] == [s == seat for s in range(4)]
            assert total[t] == game["points"][seat]
            total[t] = 0.0
            finished.append(game["game"])
    assert len(set(finished)) == len(finished)
    with pytest.raises(ValueError, match="not legal"):
        envs.step(np.full(6, 120))  # outside the action space


def test_the_vector_env_pays_each_episode_its_own_hand_rewards() -> None:
    """With hand rewards, an episode's rewards sum to its game's placement points plus the
    seat's score change in thousands (for the first place, less the riichi sticks left on
    the table at the end, which its final score holds): nothing of the next game leaks into
    the episode that ends."""
    envs = MahjongVectorEnv(4, opponents="rulebase", seat=2, hand_rewards=True)
    _, info = envs.reset(seed=4)
    rng = np.random.default_rng(1)
    total, checked = np.zeros(4), 0
    while checked < 8:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        _, rewards, terminations, _, info = envs.step(actions)
        total += rewards
        for t in np.flatnonzero(terminations):
            game = info["final_info"]["game"][t]
            want = game["points"][2] + (game["scores"][2] - 25000) / 1000
            sticks = want - total[t]  # riichi sticks left at the end: the first place's only
            if game["ranks"][2] == 1:
                assert sticks >= -1e-3 and abs(sticks - round(sticks)) < 1e-3, (game, total[t])
            else:
                assert abs(sticks) < 1e-3, (game, total[t])
            total[t] = 0.0
            checked += 1
