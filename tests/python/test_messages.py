"""The package reads the binary's JSON messages (``--message-format json``,
docs/message-format.md): each error ``code`` becomes the package's exception, results come
as data, and no human text is parsed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import mjai_sim
from conftest import log_with_a_bad_discard
from mjai_sim import EngineRuntimeError, MjaiSimError, VerifyError
from mjai_sim import _cli

PACKAGE = Path(mjai_sim.__file__).resolve().parent


def done(returncode: int, *messages: Dict[str, Any]) -> _cli.Completed:
    return _cli.Completed(returncode, list(messages), ["a stderr line"], ["mjai-sim", "x"])


def error(code: str, message: str = "the line", **fields: Any) -> Dict[str, Any]:
    return {"reason": "error", "code": code, "message": message, **fields}


def test_codes_map_to_the_exceptions() -> None:
    e = _cli.failure(done(1, error("bad_submission", "seat 2: no bot.py", seat=2)), game=True)
    assert type(e) is EngineRuntimeError and e.player_id == 2 and e.code == "bad_submission"
    assert e.msg == "seat 2: no bot.py" and e.stderr == "a stderr line"
    e = _cli.failure(done(1, error("docker_unavailable")), game=True)
    assert type(e) is EngineRuntimeError and e.player_id == -1
    # Not errors of a game that cannot start: a bad option, a crash.
    for code in ("bad_option", "internal"):
        e = _cli.failure(done(1, error(code)), game=True)
        assert type(e) is MjaiSimError and e.code == code
    # Outside a game, a refused BOT is a plain MjaiSimError (a tournament names the bot).
    e = _cli.failure(done(1, error("bad_submission", "nope: unknown", bot="nope")))
    assert type(e) is MjaiSimError and e.message == "nope: unknown"
    for code, line in (("verify_mismatch", 12), ("not_mjai_log", 2)):
        e = _cli.failure(done(1, error(code, line=line)))
        assert type(e) is VerifyError and e.line == line and e.code == code
    # A run that wrote no error message (killed): its status, and stderr kept, no guess from it.
    e = _cli.failure(done(137))
    assert type(e) is MjaiSimError and e.code is None and "137" in e.message
    assert e.stderr == "a stderr line"
    # The last error wins: a result then an error is a partial outcome.
    partial = done(2, {"reason": "result", "command": "play"}, error("restart_limit"))
    assert partial.result == {"reason": "result", "command": "play"}
    assert partial.error is not None and partial.error["code"] == "restart_limit"
    assert _cli.is_interrupted(done(130, error("interrupted")))
    assert not _cli.is_interrupted(partial)


def test_a_refused_zip_carries_its_code_and_seat(zips: Dict[str, Path], tmp_path: Path) -> None:
    bots = [zips["tsumogiri"], zips["nested"], zips["tsumogiri"], zips["tsumogiri"]]
    with pytest.raises(EngineRuntimeError) as caught:
        mjai_sim.Simulator(bots, logs_dir=tmp_path, runtime="process", quiet=True).run()
    assert caught.value.code == "bad_submission"
    assert caught.value.player_id == 1
    # The same line the binary prints for people.
    run = subprocess.run(
        [mjai_sim.find_mjai_sim_bin(), *map(str, bots), "--runtime", "process", "--logs-dir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert f"mjai-sim: {caught.value.msg}" in run.stderr.splitlines()


def test_option_and_missing_input_errors_carry_their_codes(tmp_path: Path) -> None:
    with pytest.raises(MjaiSimError) as caught:
        mjai_sim.Simulator(["builtin:tsumogiri"] * 4, logs_dir=tmp_path, timeout=0.0, quiet=True).run()
    assert caught.value.code == "bad_option"
    with pytest.raises(MjaiSimError) as caught:
        mjai_sim.standings(tmp_path)
    assert caught.value.code == "not_found"
    assert str(tmp_path) in caught.value.message


def test_verify_mismatch_is_a_verify_error_with_its_line(builtin_game: Path, tmp_path: Path) -> None:
    bad, n = log_with_a_bad_discard(builtin_game, tmp_path)
    with pytest.raises(VerifyError) as caught:
        mjai_sim.verify(bad)
    assert caught.value.code == "verify_mismatch"
    assert caught.value.line is not None and 2 <= caught.value.line <= n + 1
    # The human verdict line is the path, then the same message.
    human = subprocess.run([mjai_sim.find_mjai_sim_bin(), "verify", str(bad)], capture_output=True, text=True)
    assert human.stdout.strip() == f"{bad}: {caught.value.message}"


def test_the_package_passes_the_flag_and_reads_no_human_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: List[List[str]] = []
    real_popen = subprocess.Popen

    def spy(command: List[str], *args: Any, **kwargs: Any) -> Any:
        calls.append(list(command))
        return real_popen(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    mjai_sim.Simulator(["builtin:tsumogiri"] * 4, logs_dir=tmp_path / "g", seed=(1, 2), quiet=True).run()
    mjai_sim.verify(tmp_path / "g" / "mjai_log.json")
    assert calls and all(c[-2:] == ["--message-format", "json"] for c in calls)
    for source in PACKAGE.glob("*.py"):
        text = source.read_text()
        assert "literal_eval" not in text, source
        assert not re.search(r"^import re$", text, re.M), f"{source}: regexes over output"


def test_three_submissions_play_a_three_player_game(tmp_path: Path) -> None:
    bots = ["builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase"]
    summary = mjai_sim.Simulator(bots, logs_dir=tmp_path / "g", seed=(3, 0), rules="riichi-dev-3p", quiet=True).run()
    assert summary["completed"] is True
    assert len(summary["scores"]) == 3 and sum(summary["scores"]) == 105_000
    assert sorted(summary["rank"]) == [1, 2, 3]
    verdict = mjai_sim.verify(tmp_path / "g" / "mjai_log.json", rules="riichi-dev-3p")
    assert verdict.final_scores == summary["scores"]
    with pytest.raises(MjaiSimError) as caught:
        mjai_sim.Simulator(bots, logs_dir=tmp_path / "h", quiet=True).run()
    assert caught.value.code == "bad_option"
    assert "riichi-dev-3p" in caught.value.message
