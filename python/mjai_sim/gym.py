"""A Gymnasium environment over :class:`mjai_sim.VecEnv`: one table, one seat decided by the
agent, the others played by built-in bots (needs ``pip install gymnasium``; the rest of
``mjai_sim`` does not).

>>> import gymnasium, numpy as np
>>> from mjai_sim.gym import MahjongEnv
>>> env = MahjongEnv(rules="tenhou", opponents="rulebase")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

- Observation: the features of :class:`VecEnv` (``Box(0, 1, (planes, 34), float32)``).
- Action: ``Discrete(120)``, the environment's action space; the legal ones are
  ``info["action_mask"]`` (bool, 120), as Gymnasium's masked sampling takes them
  (``env.action_space.sample(mask=info["action_mask"].astype(np.int8))``).
- An episode is one game: ``terminated`` at its end, ``reward`` the seat's placement points
  (and its hand deltas with ``hand_rewards=True``) as they come.
- An illegal action ends the episode at once with the last place's points (``illegal="lose"``,
  PettingZoo's convention for its classic games), or raises ``ValueError``
  (``illegal="raise"``).
- ``reset(seed=S)`` starts a game on wall seed ``[S, 0]``; without a seed the next seed comes
  from the environment's ``np_random``. ``seat=None`` (default): the agent's seat rotates
  with the seed (``S % seats``); a number fixes it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._env import NUM_ACTIONS, VecEnv

__all__ = ["MahjongEnv"]


class MahjongEnv(gym.Env):
    """One seat of one table of mjai-sim's own games (see the module's docstring)."""

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        rules: str = "tenhou",
        opponents: Any = "rulebase",
        seat: Optional[int] = None,
        hand_rewards: bool = False,
        illegal: str = "lose",
    ) -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: expected 'lose' or 'raise'")
        probe = VecEnv(1, rules=rules, learners=seat if seat is not None else 0, opponents=opponents)
        self._rules, self._opponents, self._seat = rules, opponents, seat
        self._hand_rewards, self._illegal = hand_rewards, illegal
        self._seats = probe.seats
        self._last_place = -135.0 if probe.seats == 4 else -90.0
        self.observation_space = spaces.Box(0.0, 1.0, shape=probe.obs_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._env: Optional[VecEnv] = None
        self._d: Any = None
        self._learner = 0

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self._learner = self._seat if self._seat is not None else game_seed % self._seats
        self._env = VecEnv(1, rules=self._rules, seed=game_seed, learners=self._learner,
                           opponents=self._opponents, hand_rewards=self._hand_rewards)
        self._d = self._env.reset()
        return self._d.obs[0].copy(), self._info(self._d)

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, dict]:
        if self._env is None:
            raise RuntimeError("step before reset: call reset() first")
        action = int(action)
        if not (0 <= action < NUM_ACTIONS and self._d.mask[0, action]):
            if self._illegal == "raise":
                raise ValueError(f"action {action} is not legal now (legal: {np.flatnonzero(self._d.mask[0]).tolist()})")
            self._env = None
            info = {"action_mask": np.zeros(NUM_ACTIONS, dtype=bool), "illegal_action": True}
            return np.zeros(self.observation_space.shape, dtype=np.float32), self._last_place, True, False, info
        d = self._env.step(np.array([action], dtype=np.int64))
        reward = float(d.rewards[0, self._learner])
        if d.dones[0]:
            self._env = None
            info = {"action_mask": np.zeros(NUM_ACTIONS, dtype=bool), "game": d.ended[0]}
            return np.zeros(self.observation_space.shape, dtype=np.float32), reward, True, False, info
        self._d = d
        return d.obs[0].copy(), reward, False, False, self._info(d)

    @staticmethod
    def _info(d: Any) -> dict:
        return {"action_mask": d.mask[0].copy()}
