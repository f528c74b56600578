"""Functions of an mjai log: ``verify`` (replay through the engine), ``export_tenhou6``
(tenhou.net/6 JSON) and ``view`` (the HTML viewer), each over ``mjai-sim``'s subcommand."""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from . import _cli
from .exceptions import MjaiSimError, VerifyError

PathLike = Union[str, "os.PathLike[str]"]

_OK = re.compile(
    r"ok under --rules (?P<rules>[\w-]+), (?P<events>\d+) events, (?P<kyokus>\d+) kyoku reproduced; "
    r"final scores (?P<scores>\[.*\])$"
)
_PARTIAL = re.compile(r"ok under --rules (?P<rules>[\w-]+), (?P<kyokus>\d+) kyoku verified, partial game$")
_LINE = re.compile(r"\bline (\d+)\b")


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
        rules: ``"tenhou"`` or ``"mjai-app"`` (logs of mjai.app's engine).

    Returns:
        The verdict of a log the engine reproduces.

    Raises:
        VerifyError: the engine disagrees with the log, or it is not an mjai log; the
            message is the CLI's one line and ``line`` the log line it names.
        MjaiSimError: the log cannot be read, or a bad ``rules``.
    """
    log = os.fspath(path)
    done = _cli.run(["verify", log, "--rules", rules])
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    prefix = f"{log}: "
    texts = [line[len(prefix) :] if line.startswith(prefix) else line for line in lines]
    notes = [t[len("note: ") :] for t in texts if t.startswith("note: ")]
    verdicts = [t for t in texts if not t.startswith("note: ")]
    if done.returncode == 0 and verdicts:
        text = verdicts[-1]
        m = _OK.match(text)
        if m:
            return Verdict(
                True,
                m["rules"],
                int(m["kyokus"]),
                int(m["events"]),
                list(ast.literal_eval(m["scores"])),
                False,
                text,
                notes,
            )
        m = _PARTIAL.match(text)
        if m:
            return Verdict(True, m["rules"], int(m["kyokus"]), None, None, True, text, notes)
        raise MjaiSimError(f"unexpected verify output: {text}", done.returncode, done.command)
    if done.returncode == 1 and verdicts:  # a disagreement: printed on stdout, one line
        text = verdicts[-1]
        m = _LINE.search(text)
        raise VerifyError(text, int(m.group(1)) if m else None, 1, done.command, "\n".join(done.stderr_tail))
    error = _cli.failure(done)
    m = _LINE.search(error.message)
    if "is not an mjai log" in error.message:
        raise VerifyError(error.message, int(m.group(1)) if m else None, done.returncode, done.command, error.stderr)
    raise error


def export_tenhou6(path: PathLike) -> Dict[str, Any]:
    """The game of the mjai log at ``path`` as tenhou.net/6 JSON (``mjai-sim export
    --format tenhou6``): ``title``, ``name``, ``rule``, ``log``, ``sc`` and ``notes``.
    ``errors.json`` beside the log, when present, explains chombos.

    Raises:
        MjaiSimError: unreadable or malformed log (the CLI's one line).
    """
    done = _cli.run(["export", os.fspath(path), "--format", "tenhou6"])
    if done.returncode != 0:
        raise _cli.failure(done)
    game: Dict[str, Any] = json.loads(done.stdout)
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
    if done.returncode != 0:
        raise _cli.failure(done)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if not lines:
        raise MjaiSimError("mjai-sim view printed no path", done.returncode, done.command)
    return Path(lines[-1])
