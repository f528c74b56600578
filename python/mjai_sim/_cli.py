"""Finding and running the ``mjai-sim`` binary that the wheel installs.

The wheel carries the binary as a script (maturin ``bindings = "bin"``), so pip puts it in
the scripts folder of the environment the package went into (``<venv>/bin/mjai-sim``). Every
Python function here runs it as a child process with ``--message-format json``: the binary
then writes one JSON message per line on stdout (docs/message-format.md), each with a
``reason``: progress, each hand, the final ``result``, and an ``error`` with a stable ``code``
that :func:`failure` maps to :mod:`mjai_sim.exceptions`. Nothing here reads the human text
on stderr (it is only copied through, and kept for the exceptions' ``stderr``).

Ctrl-C: the child runs in its own process group, so a terminal's Ctrl-C reaches Python only;
Python then sends the child exactly one SIGINT (the CLI's clean stop: games done are kept,
containers removed, exit 130), waits for it, and raises ``KeyboardInterrupt``. A second
Ctrl-C while waiting forwards a second SIGINT (the CLI then quits at once, as on a terminal).
This also works where only Python receives the signal (Jupyter's "interrupt kernel").
On Linux the child also gets SIGTERM (its clean stop) if the Python process dies, so a
killed notebook leaves no game running.
"""

from __future__ import annotations

import collections
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence

from .exceptions import EngineRuntimeError, MjaiSimError, VerifyError

#: Environment variable naming the binary to run instead of the installed one.
BIN_ENV = "MJAI_SIM_BIN"

#: The option that makes the binary write JSON messages on stdout.
JSON_MESSAGES = ["--message-format", "json"]

#: Error codes of a game that could not start through a seat or the runtime
#: (:class:`EngineRuntimeError`, as mjai raises it); any other code is a :class:`MjaiSimError`.
_NOT_A_GAME_ERROR = {"bad_option", "internal"}

#: Error codes of a log ``verify`` refuses (:class:`VerifyError`).
_LOG_REFUSED = {"verify_mismatch", "not_mjai_log"}

Message = Dict[str, Any]


def _exe_name() -> str:
    return "mjai-sim" + (sysconfig.get_config_var("EXE") or "")


def _user_scripts() -> Optional[str]:
    if sys.version_info >= (3, 10):
        scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        scheme = "nt_user"
    elif sys.platform == "darwin" and getattr(sys, "_framework", None):
        scheme = "osx_framework_user"
    else:
        scheme = "posix_user"
    try:
        return sysconfig.get_path("scripts", scheme=scheme)
    except KeyError:
        return None


def find_mjai_sim_bin() -> str:
    """Returns the path of the ``mjai-sim`` binary this package runs.

    Looked up in order: ``$MJAI_SIM_BIN``; the scripts folder of this interpreter's
    environment (where pip installs the wheel's binary); the folder of ``sys.executable``;
    ``bin/`` beside the package (``pip install --target``); the user scheme's scripts folder
    (``pip install --user``); finally ``PATH``.

    Raises:
        FileNotFoundError: no binary was found (the message lists where it looked).
    """
    exe = _exe_name()
    env = os.environ.get(BIN_ENV)
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        raise FileNotFoundError(f"{BIN_ENV}={env} is not an executable file")
    folders: List[str] = [
        sysconfig.get_path("scripts"),
        os.path.dirname(sys.executable),
        str(Path(__file__).resolve().parent.parent / "bin"),
    ]
    user = _user_scripts()
    if user:
        folders.append(user)
    for folder in folders:
        path = os.path.join(folder, exe)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    on_path = shutil.which(exe)
    if on_path:
        return on_path
    raise FileNotFoundError(
        f"no {exe} binary in {', '.join(folders)} or on PATH; reinstall the package "
        f"(pip install .) or set {BIN_ENV}"
    )


def _load_prctl() -> Optional[Callable[..., int]]:
    """libc's ``prctl``, looked up once in this process (never in a forked child, where
    ``dlopen`` is not safe while other threads run)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
        return prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: SIGTERM to this process when its parent dies (``prctl(PR_SET_PDEATHSIG)``)."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


@dataclass
class Completed:
    """What a finished ``mjai-sim`` run left: exit status, its JSON messages (stdout, one
    per line), the tail of stderr."""

    returncode: int
    messages: List[Message] = field(default_factory=list)
    stderr_tail: List[str] = field(default_factory=list)
    command: List[str] = field(default_factory=list)
    #: stdout's lines, for a command run with ``plain=True`` (no JSON messages).
    stdout_lines: List[str] = field(default_factory=list)

    def last(self, reason: str) -> Optional[Message]:
        """The last message of this ``reason`` (``"result"``, ``"error"``), or ``None``."""
        for m in reversed(self.messages):
            if m.get("reason") == reason:
                return m
        return None

    @property
    def result(self) -> Optional[Message]:
        """The ``result`` message, or ``None`` when the command produced nothing."""
        return self.last("result")

    @property
    def error(self) -> Optional[Message]:
        """The ``error`` message (the run failed, or its result is partial), or ``None``."""
        return self.last("error")


def run(
    args: Sequence[str],
    *,
    echo: bool = False,
    on_line: Optional[Callable[[str], None]] = None,
    on_message: Optional[Callable[[Message], None]] = None,
    on_poll: Optional[Callable[[], None]] = None,
    poll_seconds: float = 0.25,
    plain: bool = False,
) -> Completed:
    """Runs ``mjai-sim ARGS --message-format json`` to its end and returns what it left.

    Args:
        args: the arguments after the binary (``--message-format json`` is added, unless
            ``plain``).
        plain: for a command without JSON messages (``connect``): stdout's lines are kept
            as text in :attr:`Completed.stdout_lines`.
        echo: copy each stderr line to ``sys.stderr`` as it comes (unless ``on_line`` is
            given, which then decides).
        on_line: called with each stderr line (without its newline), from a reader thread.
        on_message: called with each JSON message of stdout as it comes, from a reader thread.
        on_poll: called every ``poll_seconds`` while the child runs (progress display).

    Raises:
        KeyboardInterrupt: after Ctrl-C, once the child has stopped cleanly.
        FileNotFoundError: the binary is missing.
        MjaiSimError: a stdout line is not a JSON message (a bug of the binary).
    """
    command = [find_mjai_sim_bin(), *map(str, args), *([] if plain else JSON_MESSAGES)]
    out_lines: List[str] = []
    tail: Deque[str] = collections.deque(maxlen=200)
    messages: List[Message] = []
    bad_lines: List[str] = []

    def read_err(stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            tail.append(line)
            if on_line is not None:
                on_line(line)
            elif echo:
                sys.stderr.write(line + "\n")
                sys.stderr.flush()
        stream.close()

    def read_out(stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            if plain:
                out_lines.append(line)
                continue
            try:
                message = json.loads(line)
            except ValueError:
                bad_lines.append(line)
                continue
            if not isinstance(message, dict) or "reason" not in message:
                bad_lines.append(line)
                continue
            messages.append(message)
            if on_message is not None:
                on_message(message)
        stream.close()

    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_die_with_parent if _PRCTL is not None else None,
    )
    readers = [
        threading.Thread(target=read_err, args=(proc.stderr,), daemon=True, name="mjai-sim stderr"),
        threading.Thread(target=read_out, args=(proc.stdout,), daemon=True, name="mjai-sim stdout"),
    ]
    for t in readers:
        t.start()
    interrupted = False
    try:
        while True:
            try:
                try:
                    proc.wait(timeout=poll_seconds if on_poll is not None else None)
                    break
                except subprocess.TimeoutExpired:
                    if on_poll is not None:
                        on_poll()
            except KeyboardInterrupt:  # in wait() or in on_poll()
                # Ctrl-C: one SIGINT per Ctrl-C to the child (its clean stop), then wait.
                interrupted = True
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)
    finally:
        if proc.poll() is None:  # an exception other than Ctrl-C: stop the child cleanly
            proc.send_signal(signal.SIGTERM)
            proc.wait()
        for t in readers:
            t.join(timeout=10)
    done = Completed(proc.returncode, messages, list(tail), command, out_lines)
    if interrupted:
        raise KeyboardInterrupt
    if bad_lines:
        raise MjaiSimError(
            f"mjai-sim wrote a line that is not a JSON message (a bug, please report it): {bad_lines[0][:200]}",
            done.returncode,
            command,
            "\n".join(tail),
        )
    return done


def failure(done: Completed, game: bool = False) -> MjaiSimError:
    """The exception for a failed run, from its ``error`` message's ``code``.

    ``verify_mismatch`` and ``not_mjai_log`` give :class:`VerifyError` (with the log
    ``line``). With ``game`` (one game), any code but ``bad_option`` and ``internal`` gives
    :class:`EngineRuntimeError`, as mjai raises it for a game that cannot start: its
    ``player_id`` is the ``seat`` of a refused BOT (``bad_submission``), else -1 (Docker
    unreachable, no image). Everything else gives :class:`MjaiSimError`; a run that ended
    without an ``error`` message (killed, crashed before its first line) too.
    """
    stderr = "\n".join(done.stderr_tail)
    error = done.error
    if error is None:
        message = f"mjai-sim exited with status {done.returncode} without an error message (see .stderr)"
        return MjaiSimError(message, done.returncode, done.command, stderr)
    code = str(error.get("code", "other"))
    message = str(error.get("message", ""))
    if code in _LOG_REFUSED:
        return VerifyError(message, error.get("line"), done.returncode, done.command, stderr, code=code)
    if game and code not in _NOT_A_GAME_ERROR:
        seat = error.get("seat")
        player = int(seat) if seat is not None else -1
        return EngineRuntimeError(message, player, done.returncode, done.command, stderr, code=code)
    return MjaiSimError(message, done.returncode, done.command, stderr, code=code)


def is_interrupted(done: Completed) -> bool:
    """Whether SIGINT or SIGTERM stopped the run (its ``error`` code ``interrupted``)."""
    error = done.error
    return error is not None and error.get("code") == "interrupted"


def option_args(options: Mapping[str, Any], known: Mapping[str, str]) -> List[str]:
    """CLI arguments for keyword options: ``known`` maps a keyword to its ``--flag``.

    ``None`` and ``False`` leave an option out; ``True`` gives the bare flag; a list or tuple
    is joined with commas (``seed=(10000, 2000)`` -> ``--seed 10000,2000``).

    Raises:
        TypeError: an unknown keyword (the message lists the known ones).
    """
    out: List[str] = []
    for key, value in options.items():
        flag = known.get(key)
        if flag is None:
            raise TypeError(f"unexpected keyword argument {key!r} (known: {', '.join(sorted(known))})")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            out += [flag, ",".join(str(v) for v in value)]
        else:
            out += [flag, str(value)]
    return out
