"""A PettingZoo ``ParallelEnv`` over :class:`mjai_sim.VecEnv`: one table, every seat an agent
(``player_0`` .. ``player_3``, or three), all agents acting at once each step (needs ``pip
install pettingzoo``).

- Observations: ``{"observation": features (planes, 34) float32, "action_mask": int8
  (120,)}`` for every agent; an agent the game is not asking now sees zeros (an all-zero
  mask), and its action that step is ignored (any value; PettingZoo's test samples 0).
- ``step(actions)``: a dict agent -> index of the action space; every agent the game asks
  must answer legally (an illegal index raises ``ValueError``: nothing is applied). Seats
  that may claim one discard answer in the same step.
- One episode is one game: every agent terminates at ``end_game`` with its placement
  points (plus each hand's deltas with ``hand_rewards=True``, as they come); ``infos``
  then hold the game's outcome under ``"game"``.
- ``reset(seed=S)`` starts a game on wall seed ``[S, 0]``; without a seed the next seed
  comes from the environment's ``np_random``.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from ._agents import table_agents
from ._env import NUM_ACTIONS, VecEnv

__all__ = ["MahjongParallelEnv"]


class MahjongParallelEnv(ParallelEnv):
    """Every seat of one table as a PettingZoo parallel agent (see the module's docstring)."""

    metadata: Dict[str, Any] = {"name": "mjai_sim_mahjong_parallel_v0", "render_modes": []}

    def __init__(self, rules: str = "tenhou", hand_rewards: bool = False) -> None:
        self._rules, self._hand_rewards = rules, hand_rewards
        self.possible_agents, self.observation_spaces, self.action_spaces, self._shape = table_agents(rules)
        self.agents = []
        self._np_random, _ = seeding.np_random(None)
        self._env: Optional[VecEnv] = None
        self._d: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(seed) if seed is not None else int(self._np_random.integers(2**62))
        self._env = VecEnv(1, rules=self._rules, seed=game_seed, hand_rewards=self._hand_rewards)
        self.agents = self.possible_agents[:]
        self._d = self._env.reset()
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> Dict[str, Dict[str, np.ndarray]]:
        out = {a: {"observation": np.zeros(self._shape, dtype=np.float32),
                   "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)} for a in self.possible_agents}
        if self._d is not None:
            for row, seat in enumerate(self._d.seat.tolist()):
                out[self.possible_agents[seat]] = {"observation": self._d.obs[row].copy(),
                                                   "action_mask": self._d.mask[row].astype(np.int8)}
        return out

    def step(self, actions: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool],
                                                      Dict[str, bool], Dict[str, Any]]:
        if self._env is None or not self.agents:
            raise RuntimeError("step after the game ended or before reset(): call reset()")
        answers = []
        for row, seat in enumerate(self._d.seat.tolist()):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must answer this step (it has a decision pending)")
            a = int(actions[agent])
            if not (0 <= a < NUM_ACTIONS and self._d.mask[row, a]):
                raise ValueError(f"{agent}: action {a} is not legal now (legal: {np.flatnonzero(self._d.mask[row]).tolist()})")
            answers.append(a)
        d = self._env.step(np.array(answers, dtype=np.int64))
        agents = self.agents
        rewards = {a: float(d.rewards[0, s]) for s, a in enumerate(self.possible_agents) if a in agents}
        done = bool(d.dones[0])
        infos: Dict[str, Any] = {a: ({"game": d.ended[0]} if done else {}) for a in agents}
        terminations = {a: done for a in agents}
        truncations = {a: False for a in agents}
        if done:
            self._d = None
            self.agents = []
        else:
            self._d = d
        return self._observations(), rewards, terminations, truncations, infos

    def render(self) -> None:
        return None

    def close(self) -> None:
        self._env = None
