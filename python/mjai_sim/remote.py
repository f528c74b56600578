"""Remote bots: play a ``remote:NAME`` seat from this machine (``mjai-sim connect``)."""

from __future__ import annotations

import os
import sys
from typing import List, Sequence, Union

from . import _cli
from .exceptions import MjaiSimError

PathLike = Union[str, "os.PathLike[str]"]


def connect(
    url: str,
    token: str,
    bot: Union[PathLike, Sequence[str]],
    *,
    bot_stderr: PathLike = "mjai-sim-connect.stderr.txt",
    reconnect_for: float = 60.0,
) -> List[str]:
    """Runs ``bot`` here and relays it to the game at ``url`` until the game side says
    there are no more games (``mjai-sim connect URL --token TOKEN BOT``).

    Args:
        url: the ``ws://HOST:PORT/remote/NAME`` the game printed.
        token: the seat's token the game printed (sent in the Authorization header).
        bot: a ``.zip`` or a folder holding ``bot.py`` (an mjai.app submission, unchanged),
            or a command as a list (``["python3", "mybot.py"]``: the seat is appended).
        bot_stderr: the file the bot's stderr is appended to.
        reconnect_for: seconds without a connection after which the bridge gives up.

    Returns:
        One line per game played (``game over: seat S, rank R, P points, C chombos ...``),
        also written to ``sys.stdout`` when the bridge ends (its stderr is echoed as it comes).

    Raises:
        MjaiSimError: the token was refused, the game was unreachable for
            ``reconnect_for`` seconds, or the bot is not a submission.
    """
    args = ["connect", url, "--token", token, "--bot-stderr", os.fspath(bot_stderr)]
    args += ["--reconnect-for", str(reconnect_for)]
    if isinstance(bot, (str, os.PathLike)):
        args.append(os.fspath(bot))
    else:
        args += ["--", *map(str, bot)]
    done = _cli.run(args, echo=True, plain=True)
    lines = [line for line in done.stdout_lines if line.startswith("game over:")]
    for line in lines:
        sys.stdout.write(line + "\n")
    if done.returncode != 0:
        said = [line for line in done.stderr_tail if line.strip()]
        message = said[-1] if said else f"mjai-sim connect exited with status {done.returncode}"
        raise MjaiSimError(message, done.returncode, done.command, "\n".join(done.stderr_tail))
    return lines
