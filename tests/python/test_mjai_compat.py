"""A script written for ``mjai.Simulator`` (mjai 0.2.1) runs unchanged under
``import mjai_sim as mjai``: one real hanchan in Docker between four mjai.app-style zips.

The expected names below were read from mjai 0.2.1's source, ``mjai/game.py`` (the wheel
``mjai-0.2.1-cp311-...whl`` on PyPI), not produced by mjai-sim:

- ``mjai_log.json``: ``merge_logs``, line 86;
- ``errors.json``: line 97;
- ``player_logs.{idx}.{stderr,stdout}.txt``: lines 101-110 (``for player_idx in range(4)``,
  ``for log_type in ["stderr", "stdout"]``);
- ``summary.json``: line 116, holding ``_summarize_mjai_log``'s dict (lines 408-456):
  ``kyoku`` (a list of ``start_kyoku_scores``, ``end_kyoku_scores``, ``kyoku_info``,
  ``error_info``, lines 444-451; ``kyoku_info`` = ``bakaze``, ``kyoku``, ``honba``,
  ``kyotaku``, ``oya``, lines 431-437), ``kyoku_count`` (454) and ``rank`` (455).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict

import mjai_sim

MJAI_FILES = {
    "mjai_log.json",
    "errors.json",
    "summary.json",
    *(f"player_logs.{i}.{kind}.txt" for i in range(4) for kind in ("stderr", "stdout")),
}
MJAI_SUMMARY_KEYS = {"kyoku", "kyoku_count", "rank"}
MJAI_KYOKU_KEYS = {"start_kyoku_scores", "end_kyoku_scores", "kyoku_info", "error_info"}
MJAI_KYOKU_INFO_KEYS = {"bakaze", "kyoku", "honba", "kyotaku", "oya"}

# As a bot author writes it for mjai 0.2.1, but for the import line.
MJAI_SCRIPT = """
import sys
import mjai_sim as mjai

submissions = sys.argv[1:5]
try:
    mjai.Simulator(submissions, logs_dir="./logs", timeout=2.0, port=28090, seed=(10000, 2000)).run()
except mjai.exceptions.EngineRuntimeError as e:
    print("cannot start:", e.msg, e.player_id)
    sys.exit(1)
print("done")
"""


def test_mjai_script_plays_a_docker_game_with_mjai_file_names(zips: Dict[str, Path], tmp_path: Path) -> None:
    script = tmp_path / "run_game.py"
    script.write_text(textwrap.dedent(MJAI_SCRIPT))
    bots = [zips["tsumogiri"], zips["shanten"], zips["mjaibot"], zips["tsumogiri"]]
    run = subprocess.run(
        [sys.executable, str(script), *map(str, bots)], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("done")
    assert "panicked" not in run.stderr

    logs = tmp_path / "logs"
    assert {p.name for p in logs.iterdir()} == MJAI_FILES

    summary = json.loads((logs / "summary.json").read_text())
    assert MJAI_SUMMARY_KEYS <= summary.keys()
    assert summary["kyoku_count"] == len(summary["kyoku"]) > 0
    assert sorted(summary["rank"]) == [1, 2, 3, 4]
    for kyoku in summary["kyoku"]:
        assert MJAI_KYOKU_KEYS <= kyoku.keys()
        assert MJAI_KYOKU_INFO_KEYS <= kyoku["kyoku_info"].keys()
    assert summary["completed"] is True

    events = [json.loads(line) for line in (logs / "mjai_log.json").read_text().splitlines() if line.strip()]
    assert events[0]["type"] == "start_game" and events[0]["seed"] == [10000, 2000]
    assert events[-1]["type"] == "end_game"
    # mjai's error entries (game.py lines 237-251): error_type, exception, player_id. The
    # example bots make none, unless the machine is so loaded that one misses its 2 s.
    errors = json.loads((logs / "errors.json").read_text())
    assert isinstance(errors, list)
    for e in errors:
        assert {"error_type", "exception", "player_id"} <= e.keys()
        assert e["error_type"] == "timeout", e
    # mjai's own bots answered on stdout: every seat's answers were logged.
    for seat in range(4):
        assert (logs / f"player_logs.{seat}.stdout.txt").read_text().count('"type"') > 0

    # The binary's own verify accepts the log.
    check = subprocess.run(
        [mjai_sim.find_mjai_sim_bin(), "verify", str(logs / "mjai_log.json")], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert ": ok under --rules tenhou," in check.stdout


def test_exception_names_match_mjai() -> None:
    import mjai_sim as mjai

    assert mjai.exceptions.EngineRuntimeError is mjai_sim.EngineRuntimeError
    e = mjai.exceptions.EngineRuntimeError("Cannot start the game: Invalid Agent detected.", 2)
    assert (e.msg, e.player_id) == ("Cannot start the game: Invalid Agent detected.", 2)
    assert mjai.exceptions.TimeoutExpired(1).player_id == 1


def test_simulator_signature_matches_mjai(tmp_path: Path) -> None:
    import inspect

    params = inspect.signature(mjai_sim.Simulator.__init__).parameters
    # mjai/game.py lines 43-50.
    assert list(params)[:6] == ["self", "submissions", "logs_dir", "timeout", "port", "seed"]
    assert params["timeout"].default == 2.0
    assert params["port"].default == 28090
    assert params["seed"].default == (10000, 2000)
    # run(self, dup_index: int = 0), line 57.
    assert inspect.signature(mjai_sim.Simulator.run).parameters["dup_index"].default == 0
