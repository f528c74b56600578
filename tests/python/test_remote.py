"""``mjai_sim.connect`` (issue 29): the bridge from Python plays a remote seat of a real game.

A one-game ``mjai-sim`` with ``remote:alice`` in seat 0 prints the command its author runs;
``mjai_sim.connect`` runs the unchanged examples/tsumogiri bot.py here and relays it until
the game says ``bye``. A wrong token raises at once.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

import mjai_sim
from mjai_sim._cli import find_mjai_sim_bin

from conftest import EXAMPLES

COMMAND = re.compile(r"mjai-sim connect (ws://\S+) --token (\S+) BOT")


def start_game(logs: Path) -> tuple[subprocess.Popen, str, str]:
    """A game with ``remote:alice`` in seat 0 and three built-ins; its URL and token."""
    game = subprocess.Popen(
        [find_mjai_sim_bin(), "--seed", "4", "--start-timeout", "30", "--logs-dir", str(logs),
         "remote:alice", "builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert game.stderr is not None
    deadline = time.monotonic() + 60
    for line in game.stderr:  # the command is printed before the game waits for the bridge
        found = COMMAND.search(line)
        if found:
            return game, found.group(1), found.group(2)
        assert time.monotonic() < deadline, "no connect command printed"
    pytest.fail(f"the game ended without printing a connect command: {game.wait()}")


def test_connect_plays_a_remote_seat_to_the_end(tmp_path: Path) -> None:
    game, url, token = start_game(tmp_path / "game")
    try:
        with pytest.raises(mjai_sim.MjaiSimError, match="403"):
            mjai_sim.connect(url, token[:-1] + ("x" if token[-1] != "x" else "y"), EXAMPLES / "tsumogiri",
                             bot_stderr=tmp_path / "wrong.stderr.txt")
        lines = mjai_sim.connect(url, token, EXAMPLES / "tsumogiri", bot_stderr=tmp_path / "bot.stderr.txt")
        assert game.wait(timeout=120) == 0
    finally:
        if game.poll() is None:
            game.kill()
    assert len(lines) == 1 and lines[0].startswith("game over: seat 0, rank "), lines
    summary = (tmp_path / "game" / "summary.json").read_text()
    assert '"remote:alice"' in summary
