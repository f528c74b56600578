"""A PettingZoo AEC environment over :class:`mjai_sim.VecEnv`: one table, every seat an agent
(``player_0`` .. ``player_3``, or three), in the order the game asks them (needs ``pip
install pettingzoo``; the rest of ``mjai_sim`` does not).

- ``observe(agent)``: ``{"observation": features (planes, 34) float32, "action_mask": int8
  (120,)}`` (PettingZoo's classic-games form); an agent with no decision pending sees zeros.
- ``step(action)``: the selected agent's index of the action space. When several seats may
  claim one discard they are selected one after the other and the table moves once all
  have answered; an illegal index raises ``ValueError``.
- One episode is one game: every agent terminates at ``end_game`` with its placement points
  (plus each hand's deltas with ``hand_rewards=True``, as they come).
- ``reset(seed=S)`` starts a game on wall seed ``[S, 0]``; without a seed the next seed comes
  from the environment's ``np_random``.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ._agents import table_agents
from ._env import NUM_ACTIONS, VecEnv

__all__ = ["MahjongAECEnv"]


class MahjongAECEnv(AECEnv):
    """Every seat of one table as a PettingZoo agent (see the module's docstring)."""

    metadata: Dict[str, Any] = {"name": "mjai_sim_mahjong_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules: str = "tenhou", hand_rewards: bool = False) -> None:
        super().__init__()
        self._rules, self._hand_rewards = rules, hand_rewards
        self.possible_agents, self.observation_spaces, self.action_spaces, self._shape = table_agents(rules)
        self._np_random, _ = seeding.np_random(None)
        self._env: Optional[VecEnv] = None
        self._d: Any = None
        self._rows: Dict[int, int] = {}
        self._answers: Dict[int, int] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(seed) if seed is not None else int(self._np_random.integers(2**62))
        self._env = VecEnv(1, rules=self._rules, seed=game_seed, hand_rewards=self._hand_rewards)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending(self._env.reset())

    def _pending(self, d: Any) -> None:
        self._d = d
        self._rows = {int(s): i for i, s in enumerate(d.seat)}
        self._answers = {}
        self.agent_selection = self.possible_agents[int(d.seat[0])]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        row = self._rows.get(seat)
        if row is None or seat in self._answers or self._d is None:
            return {"observation": np.zeros(self._shape, dtype=np.float32),
                    "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
        return {"observation": self._d.obs[row].copy(), "action_mask": self._d.mask[row].astype(np.int8)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        row = self._rows[seat]
        action = int(action)
        if not (0 <= action < NUM_ACTIONS and self._d.mask[row, action]):
            raise ValueError(f"{agent}: action {action} is not legal now (legal: {np.flatnonzero(self._d.mask[row]).tolist()})")
        self._cumulative_rewards[agent] = 0.0
        self._answers[seat] = action
        self.rewards = {a: 0.0 for a in self.agents}
        waiting = [s for s in self._rows if s not in self._answers]
        if waiting:
            self.agent_selection = self.possible_agents[waiting[0]]
            self._accumulate_rewards()
            return
        d = self._env.step(np.array([self._answers[int(s)] for s in self._d.seat], dtype=np.int64))
        self.rewards = {a: float(d.rewards[0, s]) for s, a in enumerate(self.possible_agents)}
        if d.dones[0]:
            game = d.ended[0]
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"game": game}
            self._d, self._rows, self._answers = None, {}, {}
            self.agent_selection = self.agents[0]
        else:
            self._pending(d)
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        self._env = None
