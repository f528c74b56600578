"""``verify``, ``export_tenhou6`` and ``view`` on a game's log, the binary found in the
virtualenv, and ``python -m mjai_sim``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import mjai_sim
from conftest import log_with_a_bad_discard


def test_binary_comes_from_the_wheel_in_this_environment() -> None:
    path = mjai_sim.find_mjai_sim_bin()
    assert Path(path).parent == Path(sysconfig.get_path("scripts"))
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    assert version.split() == ["mjai-sim", mjai_sim.__version__]
    via_module = subprocess.run([sys.executable, "-m", "mjai_sim", "--version"], capture_output=True, text=True)
    assert via_module.stdout == version


def test_env_override_must_name_a_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJAI_SIM_BIN", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="MJAI_SIM_BIN"):
        mjai_sim.find_mjai_sim_bin()


def test_builtin_game_summary(builtin_game: Path) -> None:
    summary = json.loads((builtin_game / "summary.json").read_text())
    assert summary["completed"] is True
    assert summary["seed"] == [7, 3]
    assert not (builtin_game / "game.html").exists()  # html=False by default: mjai's files only


def test_verify_accepts_a_game(builtin_game: Path) -> None:
    verdict = mjai_sim.verify(builtin_game / "mjai_log.json")
    assert verdict.ok and not verdict.partial
    assert verdict.rules == "tenhou"
    events = (builtin_game / "mjai_log.json").read_text().splitlines()
    assert verdict.events == len(events)
    summary = json.loads((builtin_game / "summary.json").read_text())
    assert verdict.kyokus == summary["kyoku_count"]
    assert verdict.final_scores == summary["scores"]
    assert mjai_sim.verify(builtin_game / "mjai_log.json", rules="mjai-app").rules == "mjai-app"


def test_verify_raises_at_the_changed_line(builtin_game: Path, tmp_path: Path) -> None:
    bad, n = log_with_a_bad_discard(builtin_game, tmp_path)
    lines = (builtin_game / "mjai_log.json").read_text().splitlines()
    with pytest.raises(mjai_sim.VerifyError) as caught:
        mjai_sim.verify(bad)
    assert caught.value.line is not None and caught.value.line <= n + 1
    assert "\n" not in caught.value.message

    garbage = tmp_path / "garbage.json"
    garbage.write_text(lines[0] + "\nnot json\n")
    with pytest.raises(mjai_sim.VerifyError) as caught:
        mjai_sim.verify(garbage)
    assert caught.value.line == 2

    with pytest.raises(mjai_sim.MjaiSimError, match="cannot read"):
        mjai_sim.verify(tmp_path / "missing.json")


def test_export_tenhou6_returns_the_dict(builtin_game: Path) -> None:
    game = mjai_sim.export_tenhou6(builtin_game / "mjai_log.json")
    assert {"title", "name", "rule", "log", "sc"} <= game.keys()
    summary = json.loads((builtin_game / "summary.json").read_text())
    assert len(game["log"]) == summary["kyoku_count"]
    assert game["sc"][0::2] == summary["scores"]


def test_view_writes_the_page(builtin_game: Path, tmp_path: Path) -> None:
    page = mjai_sim.view(builtin_game, output=tmp_path / "g.html")
    assert page == tmp_path / "g.html"
    html = page.read_text()
    assert html.lstrip().lower().startswith("<!doctype html")
    default = mjai_sim.view(builtin_game)
    assert default == builtin_game / "game.html" and default.exists()
    os.remove(default)
    with pytest.raises(mjai_sim.MjaiSimError):
        mjai_sim.view(tmp_path / "nothing-here.json")
