"""The training environment (issue 55): :class:`VecEnv`, N tables of mjai-sim's own games
stepped in Rust (the extension module ``mjai_sim._env``), its batches as numpy arrays.

>>> import numpy as np, mjai_sim
>>> env = mjai_sim.VecEnv(64, rules="tenhou", seed=0)      # every seat decided from Python
>>> d = env.reset()
>>> rng = np.random.default_rng(0)
>>> while env.games_finished < 10:
...     d = env.step(mjai_sim.sample_legal(d.mask, rng))

The action space, the feature planes, rewards and autoreset: docs/python.md, "Training
environment".
"""

from __future__ import annotations

from typing import Any

from ._env import NUM_ACTIONS, Decisions, VecEnv, action_name

__all__ = ["VecEnv", "Decisions", "NUM_ACTIONS", "action_name", "sample_legal"]


def sample_legal(mask: Any, rng: Any = None) -> Any:
    """One uniformly random legal index per row of ``mask`` (numpy bool, rows x actions).

    Vectorized: a uniform key in [0, 1) per entry plus 1 where legal, the argmax of each
    row (so a legal entry always wins, each with the same chance). ``rng`` is a
    ``numpy.random.Generator`` (default: a fresh one).

    Raises:
        ValueError: a row without any legal index.
    """
    import numpy as np

    if rng is None:
        rng = np.random.default_rng()
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 2:
        raise ValueError(f"mask must be two-dimensional (rows, actions), got shape {mask.shape}")
    if mask.shape[0] and not mask.any(axis=1).all():
        raise ValueError("a row of the mask has no legal index")
    keys = rng.random(mask.shape, dtype=np.float32)
    keys += mask
    return keys.argmax(axis=1).astype(np.int64)
