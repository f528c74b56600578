"""Tournaments from Python: ``mjai_sim.tournament(...)`` runs ``mjai-sim tournament`` and
returns its standings (``standings.json``'s schema, README "Tournament standings") as a
:class:`Standings`, a plain ``dict`` that pandas can turn into a table."""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from . import _cli
from .simulator import GAME_OPTIONS

PathLike = Union[str, "os.PathLike[str]"]

#: Keyword arguments of :func:`tournament` beyond its named ones, and their CLI options:
#: those of one game (:data:`mjai_sim.simulator.GAME_OPTIONS`) and the tournament's own.
TOURNAMENT_OPTIONS: Dict[str, str] = {
    **GAME_OPTIONS,
    "keep_bots": "--keep-bots",
    "no_logs": "--no-logs",
    "no_html": "--no-html",
    "uma": "--uma",
    "timeout": "--timeout",
    "lease": "--lease",
    "db_patience": "--db-patience",
}


class Standings(dict):  # type: ignore[type-arg]
    """A tournament's standings: exactly ``standings.json``'s content as a ``dict``
    (``games``, ``sets``, ``uma``, ``bootstrap``, ``bots``, ``pairs``, ``skipped_records``,
    ``rating_history``), plus :meth:`to_frame` for pandas."""

    @property
    def bots(self) -> List[Dict[str, Any]]:
        """One dict per bot, in the tournament's bot order."""
        return list(self.get("bots", []))

    def to_frame(self, table: str = "bots") -> Any:
        """The bots (``table="bots"``, indexed by name) or the pairs (``"pairs"``) as a
        ``pandas.DataFrame``; intervals stay ``[low, high]`` lists (or ``None``).

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
            ValueError: an unknown ``table``.
        """
        try:
            import pandas as pd  # type: ignore[import-untyped]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Standings.to_frame() needs pandas: pip install pandas") from e
        if table == "bots":
            return pd.DataFrame(self.get("bots", [])).set_index("name")
        if table == "pairs":
            return pd.DataFrame(self.get("pairs", []))
        raise ValueError(f"table must be 'bots' or 'pairs', not {table!r}")


class _Progress:
    """A progress bar on stderr, from the binary's ``tournament-started`` and ``progress``
    messages: games done / total, games/s, ETA. Redrawn in place on a terminal; elsewhere
    (a notebook's captured stderr, CI logs) one line when it moved and at least 5 s passed.
    The binary's own stderr lines are printed above it."""

    def __init__(self, out: TextIO, enabled: bool) -> None:
        self.out = out
        self.enabled = enabled
        self.tty = bool(getattr(out, "isatty", lambda: False)())
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.first_done: Optional[int] = None
        self.counts: Optional[Tuple[int, int]] = None
        self.shown = ""
        self.last_line_at = 0.0
        self.last_done = -1
        self.finished = False

    def line(self, text: str) -> None:
        """A line of the binary's stderr: printed above the bar."""
        if not self.enabled:
            return
        with self.lock:
            if self.tty and self.shown:
                self.out.write("\r\033[K")
            self.out.write(text + "\n")
            if self.tty and self.shown:
                self.out.write(self.shown)
            self.out.flush()

    def message(self, message: Dict[str, Any]) -> None:
        """A JSON message of the binary: ``tournament-started`` and ``progress`` move the bar."""
        reason = message.get("reason")
        if reason not in ("tournament-started", "progress"):
            return
        total = message.get("total")
        if total is None:  # a league: no total, no bar
            return
        with self.lock:
            self.counts = (int(message.get("done", 0)), int(total))
        self.poll()

    def poll(self, final: bool = False) -> None:
        """Redraws the bar (``final``: for the last time, ending its line)."""
        if not self.enabled or self.finished:
            return
        with self.lock:
            counts = self.counts
        if counts is None:
            return
        done, total = counts
        if self.first_done is None:
            self.first_done = done
            self.started = time.monotonic()
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = (done - self.first_done) / elapsed
        width = 30
        filled = int(width * done / total) if total else 0
        eta = f"{(total - done) / rate:.0f}s" if rate > 0 and total else "?"
        text = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:.1f}/s  ETA {eta}"
        with self.lock:
            if self.finished:
                return
            self.finished = final
            if self.tty:
                self.out.write("\r\033[K" + text + ("\n" if final else ""))
                self.shown = "" if final else text
                self.out.flush()
            elif done != self.last_done and (final or time.monotonic() - self.last_line_at >= 5.0):
                self.out.write(f"mjai-sim: {text}\n")
                self.out.flush()
                self.last_line_at = time.monotonic()
                self.last_done = done


def _bot_args(bots: Union[Sequence[PathLike], Mapping[str, PathLike]]) -> List[str]:
    if isinstance(bots, Mapping):
        return [f"{name}={os.fspath(path)}" for name, path in bots.items()]
    if isinstance(bots, (str, bytes)):
        raise TypeError("bots must be a list of bots (or a dict name -> bot), not one string")
    return [os.fspath(b) for b in bots]


def _seed_arg(seed: Union[None, int, Tuple[int, int], Sequence[int]]) -> List[str]:
    if seed is None:
        return []
    if isinstance(seed, int):
        return ["--seed", str(seed)]
    return ["--seed", ",".join(str(int(s)) for s in seed)]


def tournament(
    bots: Union[Sequence[PathLike], Mapping[str, PathLike], None] = None,
    sets: int = 1,
    seed: Union[None, int, Tuple[int, int]] = None,
    jobs: Optional[int] = None,
    dir: Optional[PathLike] = None,
    format: str = "duplicate",
    db: Optional[str] = None,
    *,
    resume: Optional[PathLike] = None,
    progress: bool = True,
    **options: Any,
) -> Standings:
    """Plays a tournament (``mjai-sim tournament``) and returns its standings.

    Args:
        bots: the bots, as on the command line: a list of ``"path.zip"``, folders,
            ``"builtin:NAME"`` or ``"NAME=BOT"``; or a dict ``{name: bot}``. With
            ``format="1v3"`` (``"1v2"``): ``[challenger, champion]``.
        sets: duplicate sets (4 hanchans each, one wall seed, seats rotated; 3 hanchans
            of three bots under a three-player preset, ``rules="riichi-dev-3p"``).
        seed: wall seed base ``nonce`` or ``(nonce, key)`` (set ``i`` plays
            ``(nonce + i, key)``); random when ``None``.
        jobs: games at once (default: the CLI's, 2 per CPU with submissions).
        dir: the tournament folder (default ``logs/<tournament id>/``): ``tournament.sqlite``,
            ``games/<index>/``, ``standings.json``, ``standings.md``.
        format: ``"duplicate"``, ``"1v3"`` (Mortal's one-vs-three) or, under a
            three-player preset, ``"1v2"``.
        db: keep the tournament in this database (``postgres://...`` or ``sqlite:PATH``) so
            that ``mjai-sim worker`` processes elsewhere play it too (``--db``).
        resume: continue the tournament in this folder instead (``--resume``; ``bots``,
            ``sets``, ``seed``, ``dir``, ``format`` and ``db`` must then be left out).
        progress: draw a progress bar (and the binary's own lines) on ``sys.stderr``.
        **options: more CLI options, see :data:`TOURNAMENT_OPTIONS` (``rules``,
            ``runtime``, ``timeout``, ``keep_bots``, ``uma=(90, 45, 0, -135)``, ...;
            ``rules="riichi-dev-3p"`` plays three-player games, uma then three numbers,
            default ``(90, 0, -90)``).

    Returns:
        The standings (``standings.json``); also written to ``dir``.

    Raises:
        MjaiSimError: a bot is refused at intake (the message names the bot: ``"mine:
            mine.zip: bot.py is inside the folder ..."``; nothing is written), the
            tournament cannot start, or it stopped on an error; the CLI's one line.
        KeyboardInterrupt: after Ctrl-C: games being played are stopped, every finished
            game is kept; ``tournament(resume=dir)`` plays the rest.
        TypeError: an unknown keyword argument.
    """
    args: List[str] = ["tournament"]
    if resume is not None:
        if bots is not None or dir is not None or db is not None or seed is not None:
            raise TypeError("resume= continues a tournament with its stored options: leave out bots, seed, dir and db")
        args += ["--resume", os.fspath(resume)]
    else:
        if bots is None:
            raise TypeError("tournament() needs bots (or resume=DIR)")
        args += _bot_args(bots)
        args += ["--sets", str(int(sets)), "--format", format, *_seed_arg(seed)]
        if dir is not None:
            args += ["--dir", os.fspath(dir)]
        if db is not None:
            args += ["--db", db]
    if jobs is not None:
        args += ["--jobs", str(int(jobs))]
    args += _cli.option_args(options, TOURNAMENT_OPTIONS)

    bar = _Progress(sys.stderr, progress)
    done = _cli.run(args, on_line=bar.line, on_message=bar.message, on_poll=bar.poll, poll_seconds=0.5)
    bar.poll(final=True)
    if _cli.is_interrupted(done):
        raise KeyboardInterrupt
    result = done.result
    if result is None:
        raise _cli.failure(done)
    standings = Standings(result["standings"])
    error = done.error
    if error is not None and error.get("code") == "games_failed":
        failed = [f"game {f['index']} failed {f['attempts']} times: {f['error']}" for f in result.get("failed", [])]
        warnings.warn("some games failed twice: " + "; ".join(failed), RuntimeWarning, stacklevel=2)
    elif error is not None:
        raise _cli.failure(done)
    return standings


def standings(dir: PathLike) -> Standings:
    """The standings of a tournament folder, finished or still running
    (``mjai-sim standings DIR``).

    Raises:
        MjaiSimError: no tournament there (the CLI's one line, code ``not_found``).
    """
    done = _cli.run(["standings", os.fspath(dir)])
    result = done.result
    if done.returncode != 0 or result is None:
        raise _cli.failure(done)
    return Standings(result["standings"])
