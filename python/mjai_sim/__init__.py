"""mjai-sim from Python: the ``mjai-sim`` referee binary (installed with this package) and
a Python face over it.

- :class:`Simulator` — a drop-in for mjai 0.2.1's ``mjai.Simulator``:
  ``import mjai_sim as mjai; mjai.Simulator(submissions, logs_dir="./logs").run()``.
- :func:`tournament` — duplicate or one-vs-three tournaments; returns :class:`Standings`
  (``standings.json`` as a ``dict``, ``to_frame()`` for pandas).
- :func:`verify`, :func:`export_tenhou6`, :func:`view` — functions of an mjai log.
- :func:`connect` — play a ``remote:NAME`` seat of a game from this machine.
- :func:`dataset` — logs as a pandas DataFrame of decisions or riichi waits (needs pyarrow).
- :class:`VecEnv` — the training environment: N tables stepped in process (the extension
  module ``mjai_sim._env``), legal masks, features and rewards as numpy arrays;
  :func:`sample_legal` draws random legal actions from a mask.
- :func:`evaluate` — the in-process arena: a Python agent (``react_batch``) or a built-in
  against another, the CLI's standings (mean rank, pt, intervals).
- :mod:`mjai_sim.exceptions` — :class:`MjaiSimError`, :class:`EngineRuntimeError` (mjai's
  name and ``player_id``), :class:`VerifyError`.

Every call but the environment's runs the binary (found by :func:`find_mjai_sim_bin`) as a
child process.
Docs: docs/python.md in the repository.
"""

from __future__ import annotations

from . import exceptions
from .arena import IllegalAction, evaluate
from ._cli import find_mjai_sim_bin
from .dataset import dataset
from .env import NUM_ACTIONS, Decisions, VecEnv, action_name, sample_legal
from .exceptions import EngineRuntimeError, MjaiSimError, TimeoutExpired, VerifyError
from .logs import Verdict, export_tenhou6, verify, view
from .remote import connect
from .simulator import GAME_OPTIONS, Simulator, run_game
from .tournament import TOURNAMENT_OPTIONS, Standings, standings, tournament

__all__ = [
    "Simulator",
    "run_game",
    "tournament",
    "standings",
    "Standings",
    "verify",
    "Verdict",
    "export_tenhou6",
    "view",
    "dataset",
    "connect",
    "VecEnv",
    "Decisions",
    "NUM_ACTIONS",
    "action_name",
    "sample_legal",
    "evaluate",
    "IllegalAction",
    "find_mjai_sim_bin",
    "exceptions",
    "MjaiSimError",
    "EngineRuntimeError",
    "TimeoutExpired",
    "VerifyError",
    "GAME_OPTIONS",
    "TOURNAMENT_OPTIONS",
    "__version__",
]


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mjai-sim")
    except Exception:  # not installed (run from a source tree)
        return "0+unknown"


__version__ = _version()
