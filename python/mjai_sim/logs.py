"""Functions of an mjai log: ``verify`` (replay through the engine), ``export_tenhou6``
(tenhou.net/6 JSON) and ``view`` (the HTML viewer), each over ``mjai-sim``'s subcommand."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from . import _cli

PathLike = Union[str, "os.PathLike[str]"]


@dataclass
class Verdict:
    """What ``mjai-sim verify`` found for a log it accepts.

    Attributes:
        ok: always ``True`` (a refused log raises :class:`VerifyError`).
        rules: the preset it was replayed under.
        kyokus: kyoku reproduced (or verified, for a partial game).
        events: events compared (``None`` for a partial game).
        final_scores: final scores in points (``None`` for a partial game).
        partial: the log stops after an ``end_kyoku`` (an excerpt).
        notes: converter conventions noted (logs converted by mjai-reviewer).
        message: the CLI's verdict line.
    """

    ok: bool
    rules: str
    kyokus: int
    events: Optional[int]
    final_scores: Optional[List[int]]
    partial: bool
    message: str
    notes: List[str] = field(default_factory=list)


def verify(path: PathLike, rules: str = "tenhou") -> Verdict:
    """Replays the mjai log at ``path`` through the engine (``mjai-sim verify``).

    Args:
        path: an mjai log (one JSON event per line, e.g. ``mjai_log.json``).
        rules: ``"tenhou"`` or ``"mjai-app"`` (logs of mjai.app's engine), or a
            three-player preset (``"riichi-dev-3p"``, ``"tenhou-3p"``) for a sanma log.

    Returns:
        The verdict of a log the engine reproduces.

    Raises:
        VerifyError: the engine disagrees with the log (code ``verify_mismatch``), or it is
            not an mjai log (``not_mjai_log``); the message is the CLI's one line and
            ``line`` the log line it names.
        MjaiSimError: the log cannot be read, or a bad ``rules``.
    """
    done = _cli.run(["verify", os.fspath(path), "--rules", rules])
    result = done.result
    if done.returncode != 0 or result is None:
        raise _cli.failure(done)
    final = result.get("final_scores")
    return Verdict(
        True,
        result["rules"],
        int(result["kyokus"]),
        result.get("events"),
        list(final) if final is not None else None,
        bool(result["partial"]),
        result["message"],
        list(result.get("notes", [])),
    )


def export_tenhou6(path: PathLike) -> Dict[str, Any]:
    """The game of the mjai log at ``path`` as tenhou.net/6 JSON (``mjai-sim export
    --format tenhou6``): ``title``, ``name``, ``rule``, ``log``, ``sc`` and ``notes``.
    ``errors.json`` beside the log, when present, explains chombos.

    Raises:
        MjaiSimError: unreadable or malformed log (the CLI's one line).
    """
    done = _cli.run(["export", os.fspath(path), "--format", "tenhou6"])
    result = done.result
    if done.returncode != 0 or result is None:
        raise _cli.failure(done)
    game: Dict[str, Any] = result["game"]
    return game


def view(path: PathLike, output: Optional[PathLike] = None) -> Path:
    """Writes the self-contained HTML viewer of a game (``mjai-sim view``) and returns
    its path.

    Args:
        path: a game folder (``mjai_log.json`` and, when present, ``errors.json`` and
            ``player_logs.*``) or an mjai log file.
        output: the page to write (default: ``DIR/game.html`` for a folder, the log's
            path with ``.html`` for a file).

    Raises:
        MjaiSimError: unreadable input, not an mjai log, unwritable output.
    """
    args = ["view", os.fspath(path)]
    if output is not None:
        args += ["-o", os.fspath(output)]
    done = _cli.run(args)
    result = done.result
    if done.returncode != 0 or result is None:
        raise _cli.failure(done)
    return Path(result["path"])
