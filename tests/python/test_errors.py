"""Failures cross into Python as exceptions carrying the CLI's one-line message, and never
as a Rust panic: a refused zip, an unknown built-in, a bad option, Docker unreachable."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

import mjai_sim
from mjai_sim import EngineRuntimeError, MjaiSimError


def cli_line(args: List[str], env: Dict[str, str] | None = None) -> str:
    """The binary's own error line for ARGS (stderr's last `mjai-sim: ` or `error: ` line,
    prefix removed), to compare with the exception's message."""
    run = subprocess.run([mjai_sim.find_mjai_sim_bin(), *args], capture_output=True, text=True, env=env)
    assert run.returncode == 1, run.stderr
    assert "panicked" not in run.stderr
    lines = run.stderr.splitlines()
    own = [line for line in lines if line.startswith("mjai-sim: ")]
    if own:
        return own[-1][len("mjai-sim: ") :]
    return next(line for line in lines if line.startswith("error: "))[len("error: ") :]


def test_refused_zip_raises_engine_runtime_error_naming_the_seat(zips: Dict[str, Path], tmp_path: Path) -> None:
    # bot.py under a folder inside the zip: the usual packaging mistake; mjai-sim refuses it at intake.
    bots = [zips["tsumogiri"], zips["tsumogiri"], zips["nested"], zips["tsumogiri"]]
    sim = mjai_sim.Simulator(bots, logs_dir=tmp_path / "logs", runtime="process", quiet=True)
    with pytest.raises(mjai_sim.exceptions.EngineRuntimeError) as caught:
        sim.run()
    e = caught.value
    assert e.player_id == 2
    assert e.returncode == 1
    assert e.msg == str(e) == cli_line(sim.command())
    assert e.msg.startswith("seat 2: ") and "bot.py" in e.msg
    assert "\n" not in e.msg


def test_unknown_builtin_names_its_seat(tmp_path: Path) -> None:
    bots = ["builtin:tsumogiri", "builtin:no-such-bot", "builtin:tsumogiri", "builtin:tsumogiri"]
    with pytest.raises(EngineRuntimeError) as caught:
        mjai_sim.Simulator(bots, logs_dir=tmp_path, quiet=True).run()
    assert caught.value.player_id == 1
    assert "no-such-bot" in caught.value.msg


def test_bad_option_is_one_line_not_an_engine_error(tmp_path: Path) -> None:
    bots = ["builtin:tsumogiri"] * 4
    sim = mjai_sim.Simulator(bots, logs_dir=tmp_path, timeout=0.0, quiet=True)
    with pytest.raises(MjaiSimError) as caught:
        sim.run()
    assert not isinstance(caught.value, EngineRuntimeError)
    assert "--timeout" in caught.value.message
    assert caught.value.message == cli_line(sim.command())
    assert "\n" not in caught.value.message

    with pytest.raises(MjaiSimError, match="--rules"):
        mjai_sim.Simulator(bots, logs_dir=tmp_path, rules="no-such-rules", quiet=True).run()


def test_unknown_keyword_is_a_type_error(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="no_such_option"):
        mjai_sim.Simulator(["builtin:tsumogiri"] * 4, logs_dir=tmp_path, no_such_option=1)
    with pytest.raises(TypeError, match="no_such_option"):
        mjai_sim.tournament(["builtin:tsumogiri"] * 4, no_such_option=1)


def test_docker_unreachable_is_one_line(zips: Dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-docker.sock")
    bots = [zips["tsumogiri"]] * 4
    sim = mjai_sim.Simulator(bots, logs_dir=tmp_path / "logs", quiet=True)
    with pytest.raises(MjaiSimError) as caught:
        sim.run()
    e = caught.value
    # The game cannot start, through no seat's fault: mjai's exception, player_id -1.
    assert isinstance(e, EngineRuntimeError) and e.player_id == -1
    assert "Docker" in e.message or "docker" in e.message
    assert e.message == cli_line(sim.command(), env=dict(os.environ))
    assert "panicked" not in e.stderr


def test_a_crashing_bot_is_a_chombo_not_an_exception(zips: Dict[str, Path], tmp_path: Path) -> None:
    # mjai-sim's rules: a bot that crashes pays a chombo, every bot restarts, the game completes.
    bots = [zips["crash"], "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"]
    summary = mjai_sim.Simulator(bots, logs_dir=tmp_path, runtime="process", quiet=True, max_restarts=100).run()
    assert summary["completed"] is True
    assert summary["chombos"][0] > 0
    errors = json.loads((tmp_path / "errors.json").read_text())
    assert errors and {e["player_id"] for e in errors} == {0}


def test_abandoned_game_returns_with_a_warning(zips: Dict[str, Path], tmp_path: Path) -> None:
    # Exit 2 (abandoned after --max-restarts): mjai returns after its 10 runs; so does run(), warning.
    bots = [zips["crash"], "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"]
    with pytest.warns(RuntimeWarning, match="abandoned after 1 restarts"):
        summary = mjai_sim.Simulator(bots, logs_dir=tmp_path, runtime="process", quiet=True, max_restarts=1).run()
    assert summary["completed"] is False
    assert summary["restarts"] >= 1
