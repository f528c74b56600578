"""What the PettingZoo wrappers (:mod:`mjai_sim.aec`, :mod:`mjai_sim.parallel`) share: one
table's agents (``player_0`` .. ``player_3``, or three) and their spaces."""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
from gymnasium import spaces

from ._env import NUM_ACTIONS, VecEnv


def table_agents(rules: str) -> Tuple[List[str], Dict[str, spaces.Space], Dict[str, spaces.Space], Tuple[int, ...]]:
    """The agents of a table under ``rules`` and their spaces: (agent names, observation
    space by agent: ``{"observation": features float32, "action_mask": int8 (120,)}``,
    action space by agent: ``Discrete(120)``, the features' shape). Raises ``ValueError``
    for an unknown rules preset."""
    probe = VecEnv(1, rules=rules)
    agents = [f"player_{s}" for s in range(probe.seats)]
    observation = spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, shape=probe.obs_shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
    })
    return (
        agents,
        {a: observation for a in agents},
        {a: spaces.Discrete(NUM_ACTIONS) for a in agents},
        tuple(probe.obs_shape),
    )
