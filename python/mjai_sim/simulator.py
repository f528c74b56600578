"""``mjai_sim.Simulator``: a drop-in for ``mjai.Simulator`` (mjai 0.2.1, ``mjai/game.py``).

mjai's class (``mjai/game.py`` lines 42-66) takes ``submissions, logs_dir, timeout=2.0,
port=28090, seed=(10000, 2000)``; ``run()`` plays one hanchan in Docker and writes
``mjai_log.json``, ``errors.json``, ``player_logs.{0..3}.{stdout,stderr}.txt`` and
``summary.json`` (``kyoku``, ``kyoku_count``, ``rank``) into ``logs_dir`` (``merge_logs``,
lines 69-117; ``_summarize_mjai_log``, lines 408-456). This one runs the ``mjai-sim``
binary, which writes the same files (and more keys in ``summary.json``).
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _cli
from .exceptions import MjaiSimError

PathLike = Union[str, "os.PathLike[str]"]

#: Keyword arguments of :class:`Simulator` beyond mjai's, and the CLI option each maps to.
GAME_OPTIONS: Dict[str, str] = {
    "rules": "--rules",
    "clock": "--clock",
    "time_bank": "--time-bank",
    "runtime": "--runtime",
    "transport": "--transport",
    "image": "--image",
    "start_timeout": "--start-timeout",
    "max_restarts": "--max-restarts",
    "game_timeout": "--game-timeout",
    "max_submission_mb": "--max-submission-mb",
    "memory": "--memory",
    "cpus": "--cpus",
    "pids": "--pids",
    "gpus": "--gpus",
}


class Simulator:
    """One hanchan between four submissions, as ``mjai.Simulator`` (or three, with
    ``rules="riichi-dev-3p"`` or ``"tenhou-3p"``: a three-player game).

    Args:
        submissions: the four bots, seat 0 (first dealer) to seat 3: a ``.zip`` with
            ``bot.py`` at its root (mjai.app's format), a folder holding ``bot.py``, or
            ``"builtin:NAME"``; three with a three-player preset (every per-seat list of
            the summary then has three entries).
        logs_dir: output folder (created if missing).
        timeout: seconds for one decision (``--timeout``).
        port: accepted for mjai compatibility and unused (no ports: bots talk over pipes).
        seed: the wall seed ``(nonce, key)`` (``--seed NONCE,KEY``), as mjai's.
        quiet: do not copy the binary's progress lines (one per hand) to ``sys.stderr``.
        html: also write ``game.html`` (the viewer) in ``logs_dir``; off by default so that
            the folder holds exactly mjai's files (:func:`mjai_sim.view` writes it later).
        **options: more CLI options, see :data:`GAME_OPTIONS`:
            ``rules="tenhou"|"mjai-app"|"riichi-dev-3p"|"tenhou-3p"``,
            ``clock="mjai-app"|"riichi-dev"`` (riichi.dev's clock: a 15 s bank refilled each
            hand, a timeout plays the default action with no penalty; ``timeout`` still sets
            the decision time, so pass ``timeout=3.0`` for riichi.dev's), ``time_bank``
            (seconds), ``runtime="docker"|"process"``, ``transport="stdio"|"http"``, ``image``,
            ``start_timeout`` (seconds), ``max_restarts``, ``max_submission_mb``, ``memory``
            (``"4g"``), ``cpus``, ``pids``, ``gpus``.

    Raises:
        TypeError: an unknown keyword argument.
    """

    def __init__(
        self,
        submissions: Sequence[PathLike],
        logs_dir: PathLike,
        timeout: float = 2.0,
        port: int = 28090,
        seed: Tuple[int, int] = (10000, 2000),
        *,
        quiet: bool = False,
        html: bool = False,
        **options: Any,
    ) -> None:
        self.submissions: List[str] = [os.fspath(s) for s in submissions]
        self.logs_dir = Path(logs_dir)
        self.timeout = timeout
        self.port = port
        self.seed = tuple(seed)
        self.quiet = quiet
        self.html = html
        self.options = dict(options)
        _cli.option_args(self.options, GAME_OPTIONS)  # unknown keywords fail here, as a TypeError

    def command(self) -> List[str]:
        """The ``mjai-sim`` arguments :meth:`run` uses (after the binary; :meth:`run` adds
        ``--message-format json``)."""
        return [
            *self.submissions,
            "--logs-dir",
            str(self.logs_dir),
            "--seed",
            ",".join(str(int(s)) for s in self.seed),
            "--timeout",
            repr(float(self.timeout)),
            *([] if self.html else ["--no-html"]),
            *_cli.option_args(self.options, GAME_OPTIONS),
        ]

    def run(self, dup_index: int = 0) -> Dict[str, Any]:
        """Plays the game; returns ``summary.json``'s content (mjai returns ``None``).

        ``dup_index`` is accepted for mjai compatibility and unused (as in mjai 0.2.1).
        A bot that crashes, times out or answers illegally pays a chombo and the game goes
        on with every bot restarted (mjai-sim's rules; mjai replays the hand); a game
        abandoned after ``max_restarts`` restarts returns with a warning, as mjai returns
        after its 10 runs.

        Raises:
            EngineRuntimeError: the game cannot start (the CLI's ``error`` message): because
                of a seat (``player_id``: a refused submission, an unknown built-in; code
                ``bad_submission``) or not (``player_id`` -1: ``docker_unavailable``,
                ``image_unavailable``).
            MjaiSimError: any other failure (``bad_option``, a crash, a built-in bot's chombo:
                code ``internal``), with the CLI's one-line message; ``EngineRuntimeError`` is
                a subclass. The host failing mid-game (code ``host_fault``) is an
                ``EngineRuntimeError`` with ``player_id`` -1.
            KeyboardInterrupt: after Ctrl-C, once the bots are stopped (logs so far kept).
        """
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        done = _cli.run(self.command(), echo=not self.quiet)
        if _cli.is_interrupted(done):
            raise KeyboardInterrupt
        result = done.result
        if result is None:
            raise _cli.failure(done, game=True)
        error = done.error
        if error is not None and error.get("code") == "internal":
            raise _cli.failure(done)  # a built-in bot's chombo: a bug in mjai-sim, never a result
        if error is not None:  # restart_limit or game_failed: the game ended early, files kept
            warnings.warn(f"mjai-sim: {error.get('message', '')}", RuntimeWarning, stacklevel=2)
        summary_path = Path(result.get("logs_dir", self.logs_dir)) / "summary.json"
        try:
            with summary_path.open(encoding="utf-8") as f:
                summary: Dict[str, Any] = json.load(f)
        except (OSError, ValueError) as e:
            raise MjaiSimError(f"no readable {summary_path} after the game: {e}", done.returncode, done.command) from e
        return summary


def run_game(
    submissions: Sequence[PathLike],
    logs_dir: PathLike,
    seed: Optional[Tuple[int, int]] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Plays one hanchan and returns its summary: ``Simulator(...).run()`` in one call,
    with a random seed when ``seed`` is ``None``."""
    if seed is None:
        seed = (int.from_bytes(os.urandom(4), "little"), 0)
    return Simulator(submissions, logs_dir, seed=seed, **options).run()
