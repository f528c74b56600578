"""A Gymnasium ``VectorEnv`` over :class:`mjai_sim.VecEnv`: ``num_envs`` tables, one seat of
each decided by the agent (the others built-in bots), stepped together in Rust (needs
``pip install gymnasium``).

>>> from mjai_sim.vector import MahjongVectorEnv
>>> envs = MahjongVectorEnv(64, opponents="rulebase", seat="rotating")
>>> obs, info = envs.reset(seed=0)           # obs (64, planes, 34); info["action_mask"] (64, 120)
>>> obs, rewards, terminations, truncations, info = envs.step(actions)

- Each sub-environment is :class:`mjai_sim.gym.MahjongEnv`'s: observation ``Box(0, 1,
  (planes, 34), float32)``, action ``Discrete(120)`` with the legal ones in
  ``info["action_mask"]`` (bool, one row per table), an episode per game, reward the seat's
  placement points (plus hand deltas with ``hand_rewards=True``). A hand of the next game
  that ends before its learner's first decision is rewarded at that game's first step,
  never to the game that just ended.
- One learner seat per table, so every step has exactly one decision per table.
- Autoreset in the same step (``metadata["autoreset_mode"]`` is ``SAME_STEP``): a table
  whose game ended has ``terminations[t]`` set, its reward the final one, its observation
  and mask already the next game's; ``info["final_info"]["game"][t]`` holds the finished
  game (scores, ranks, points), ``info["final_obs"][t]`` zeros (no decision at the end).
- ``reset(seed=S)``: table ``t``'s ``k``-th game plays wall ``[S, t + k * num_envs]`` (the
  series of :class:`VecEnv`); without a seed, one drawn from ``np_random``.
- An illegal action raises ``ValueError`` naming the table (nothing is applied).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._env import NUM_ACTIONS, VecEnv

__all__ = ["MahjongVectorEnv"]


class MahjongVectorEnv(VectorEnv):
    """``num_envs`` tables, one agent seat each (see the module's docstring)."""

    metadata: Dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        rules: str = "tenhou",
        opponents: Any = "rulebase",
        seat: Union[int, str] = "rotating",
        hand_rewards: bool = False,
    ) -> None:
        if not (isinstance(seat, int) or seat == "rotating"):
            raise ValueError(f"seat={seat!r}: a seat number or 'rotating'")
        probe = VecEnv(num_envs, rules=rules, learners=seat, opponents=opponents)
        self._options = dict(rules=rules, learners=seat, opponents=opponents, hand_rewards=hand_rewards)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=probe.obs_shape, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._np_random, _ = seeding.np_random(None)
        self._env: Optional[VecEnv] = None
        self._d: Any = None
        self._carry = np.zeros(num_envs)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[np.ndarray, dict]:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        series = int(seed) if seed is not None else int(self._np_random.integers(2**62))
        self._env = VecEnv(self.num_envs, seed=series, **self._options)
        self._d = self._env.reset()
        self._carry = np.zeros(self.num_envs)
        return self._d.obs.copy(), {"action_mask": self._d.mask.copy()}

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if self._env is None:
            raise RuntimeError("step before reset: call reset() first")
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        d = self._env.step(actions)
        tables = np.arange(self.num_envs)
        learner = self._d.seat  # the deciding seat of each table, before this step
        rewards = d.rewards[tables, learner].astype(np.float64) + self._carry
        self._carry = np.zeros(self.num_envs)
        for end in d.ended:
            # what the next game paid before its learner's first decision (a hand that
            # ended first) is the next episode's: it goes to that episode's first step
            t = end["table"]
            pre = d.rewards[t] - np.asarray(end["rewards"], dtype=np.float32)
            rewards[t] -= pre[learner[t]]
            self._carry[t] = pre[d.seat[t]]
        terminations = d.dones.copy()
        info: Dict[str, Any] = {"action_mask": d.mask.copy()}
        if terminations.any():
            games = np.empty(self.num_envs, dtype=object)
            for end in d.ended:
                games[end["table"]] = end
            info["final_info"] = {"game": games, "_game": terminations.copy()}
            info["_final_info"] = terminations.copy()
            info["final_obs"] = np.zeros((self.num_envs,) + self.single_observation_space.shape, dtype=np.float32)
            info["_final_obs"] = terminations.copy()
        self._d = d
        return d.obs.copy(), rewards, terminations, np.zeros(self.num_envs, dtype=bool), info

    def close_extras(self, **kwargs: Any) -> None:
        self._env = None
