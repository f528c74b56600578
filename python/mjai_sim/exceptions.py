"""Exceptions raised by :mod:`mjai_sim`.

Every failure of the ``mjai-sim`` binary crosses into Python as one of these, carrying the
command line's one-line message (never a Rust backtrace) and its stable error ``code``
(docs/message-format.md: ``bad_submission``, ``docker_unavailable``, ``verify_mismatch``, ...). Names and attributes of
:class:`EngineRuntimeError` and :class:`TimeoutExpired` follow mjai 0.2.1's
``mjai/exceptions.py`` (lines 1-9), so ``except mjai.exceptions.EngineRuntimeError`` code keeps
working after ``import mjai_sim as mjai``.
"""

from __future__ import annotations

from typing import Optional, Sequence


class MjaiSimError(Exception):
    """The ``mjai-sim`` command failed.

    Attributes:
        message: the command's one-line error message (as the CLI prints it, without the
            ``mjai-sim:`` / ``error:`` prefix).
        returncode: the command's exit status.
        command: the command line that was run.
        stderr: the last lines the command wrote on stderr.
        code: the error's code from the command's ``error`` message (e.g.
            ``"bad_option"``), or ``None`` when it wrote none.
    """

    def __init__(
        self,
        message: str,
        returncode: Optional[int] = None,
        command: Optional[Sequence[str]] = None,
        stderr: str = "",
        *,
        code: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.command = list(command) if command is not None else None
        self.stderr = stderr
        self.code = code

    def __str__(self) -> str:
        return self.message


class EngineRuntimeError(MjaiSimError):
    """A game cannot start (mjai's ``EngineRuntimeError``).

    Raised when the game cannot start (exit 1 with an ``error`` message other than
    ``bad_option``): a seat's fault when the message names it (code ``bad_submission``,
    ``seat`` N: a submission with no ``bot.py`` at the zip's root, too large or unreadable;
    an unknown built-in), else ``player_id`` -1 (``docker_unavailable``,
    ``image_unavailable``, ...).
    Bots that start and then crash, time out or answer illegally are not errors of the game:
    they pay chombos and the game completes (see ``errors.json``), as in mjai-sim's CLI.

    Attributes:
        msg: the one-line message (as mjai's ``EngineRuntimeError.msg``).
        player_id: the seat (0-3) the message names, or -1 when it names none (as mjai's
            ``player_id`` -1 for an error it cannot attribute).
    """

    def __init__(
        self,
        msg: str,
        player_id: int = -1,
        returncode: Optional[int] = None,
        command: Optional[Sequence[str]] = None,
        stderr: str = "",
        *,
        code: Optional[str] = None,
    ) -> None:
        super().__init__(msg, returncode, command, stderr, code=code)
        self.msg = msg
        self.player_id = player_id


class TimeoutExpired(MjaiSimError):
    """mjai's ``TimeoutExpired``, exported for ``except`` clauses written for mjai.

    mjai-sim never raises it from a game: a bot that times out pays a chombo and the game
    goes on (the timeout is recorded in ``errors.json``).
    """

    def __init__(self, player_id: int) -> None:
        super().__init__(f"seat {player_id}: timeout")
        self.player_id = player_id


class VerifyError(MjaiSimError):
    """``mjai-sim verify`` refused a log.

    Attributes:
        line: the 1-based line of the log the refusal names (``None`` when it names none).
    """

    def __init__(
        self,
        message: str,
        line: Optional[int],
        returncode: Optional[int] = None,
        command: Optional[Sequence[str]] = None,
        stderr: str = "",
        *,
        code: Optional[str] = None,
    ) -> None:
        super().__init__(message, returncode, command, stderr, code=code)
        self.line = line


__all__ = ["MjaiSimError", "EngineRuntimeError", "TimeoutExpired", "VerifyError"]
