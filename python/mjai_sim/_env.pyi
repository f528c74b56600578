# Type stubs of the extension module mjai_sim._env (src/python; docs/python.md, "Training environment").
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

NUM_ACTIONS: int

def action_name(index: int) -> str: ...
def standings(
    names: Sequence[str],
    records: Sequence[Dict[str, Any]],
    rules: str = "tenhou",
    uma: Optional[Sequence[float]] = None,
    seed: int = 0,
) -> str: ...

class Decisions:
    mask: npt.NDArray[np.bool_]
    table: npt.NDArray[np.int64]
    seat: npt.NDArray[np.int64]
    obs: Optional[npt.NDArray[np.float32]]
    rewards: npt.NDArray[np.float32]
    dones: npt.NDArray[np.bool_]
    ended: List[Dict[str, Any]]
    def __len__(self) -> int: ...
    def events(self, row: int) -> str: ...
    def legal(self, row: int) -> str: ...
    def riichi_dev(self, row: int) -> str: ...
    def observation(self, row: int) -> Any: ...

class VecEnv:
    def __init__(
        self,
        num_envs: int,
        rules: str = "tenhou",
        seed: int = 0,
        learners: Union[None, str, int, Sequence[int]] = None,
        opponents: Union[None, str, Sequence[str]] = None,
        *,
        hand_rewards: bool = False,
        uma: Optional[Sequence[float]] = None,
        keep_logs: bool = False,
        features: bool = True,
        names: Optional[Sequence[str]] = None,
        games: Optional[Sequence[Dict[str, Any]]] = None,
        threads: int = 1,
        riichi_dev: bool = False,
    ) -> None: ...
    def reset(self) -> Decisions: ...
    def step(self, actions: Union[npt.ArrayLike, Sequence[Union[int, str, Dict[str, Any]]]]) -> Decisions: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def obs_shape(self) -> Tuple[int, int]: ...
    @property
    def threads(self) -> int: ...
    @property
    def games_finished(self) -> int: ...
    def log(self, table: int) -> List[str]: ...
    def events(self, row: int) -> str: ...
    def legal(self, row: int) -> str: ...
    def action(self, row: int, index: int) -> str: ...
