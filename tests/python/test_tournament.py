"""``mjai_sim.tournament()``: standings as plain dicts with the standings.json schema
(README "Tournament standings"), pandas frames, a progress bar, and Ctrl-C keeping the games
done. Built-in bots only (in process, no Docker)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

import mjai_sim

# The fields of standings.json, from the README's schema table ("Tournament standings").
TOP_KEYS = {"games", "sets", "uma", "bootstrap", "bots", "pairs", "skipped_records", "rating_history"}
BOT_KEYS = {
    "name", "games", "sets", "retired", "avg_rank", "avg_rank_ci", "avg_pt", "avg_pt_ci", "rank_dist",
    "rank_counts", "mean_score", "weng_lin", "elo", "kyokus", "win_rate", "deal_in_rate", "riichi_rate",
    "call_rate", "tsumo_rate", "tenpai_at_draw_rate", "avg_win_points", "avg_deal_in_points", "chombos",
    "decisions", "decision_median_ms", "decision_p99_ms",
}  # fmt: skip
PAIR_KEYS = {"a", "b", "games", "sets", "rank_diff", "rank_diff_ci", "a_above"}
BOOTSTRAP_KEYS = {"resamples", "seed", "level"}


def test_duplicate_tournament_returns_standings_dicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = {"rb": "builtin:rulebase", "rnd": "builtin:random", "tg": "builtin:tsumogiri", "tg2": "builtin:tsumogiri"}
    standings = mjai_sim.tournament(bots, sets=3, seed=(100, 7), jobs=1, dir=tmp_path / "t")
    assert isinstance(standings, dict) and isinstance(standings, mjai_sim.Standings)
    # Plain JSON data, equal to the file the CLI wrote.
    assert json.loads(json.dumps(standings)) == standings
    assert standings == json.loads((tmp_path / "t" / "standings.json").read_text())
    assert TOP_KEYS <= standings.keys()
    assert standings["games"] == 12 and standings["sets"] == 3
    assert BOOTSTRAP_KEYS <= standings["bootstrap"].keys()
    assert [b["name"] for b in standings["bots"]] == ["rb", "rnd", "tg", "tg2"]
    for bot in standings["bots"]:
        assert BOT_KEYS <= bot.keys(), BOT_KEYS - bot.keys()
        assert bot["games"] == 12 and sum(bot["rank_counts"]) == 12
    assert len(standings["pairs"]) == 6
    for pair in standings["pairs"]:
        assert PAIR_KEYS <= pair.keys()
    # A game folder per game, as the CLI writes them.
    assert len(list((tmp_path / "t" / "games").glob("*/mjai_log.json"))) == 12
    # The progress bar's last line (stderr is not a terminal here: plain lines).
    err = capsys.readouterr().err
    assert "12/12 games" in err
    assert "mjai-sim: tournament in " in err

    frame = standings.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.index) == ["rb", "rnd", "tg", "tg2"]
    assert frame.loc["rb", "games"] == 12
    assert len(standings.to_frame("pairs")) == 6

    # The standings of a finished folder read back the same, and resuming it plays nothing more.
    assert mjai_sim.standings(tmp_path / "t") == standings
    assert mjai_sim.tournament(resume=tmp_path / "t", progress=False) == standings
    with pytest.raises(TypeError, match="resume"):
        mjai_sim.tournament(bots, resume=tmp_path / "t")


def test_one_vs_three_and_options(tmp_path: Path) -> None:
    standings = mjai_sim.tournament(
        ["builtin:rulebase", "builtin:tsumogiri"],
        sets=2,
        seed=5,
        dir=tmp_path / "t",
        format="1v3",
        uma=(30, 10, -10, -30),
        no_logs=True,
        progress=False,
    )
    assert standings["games"] == 8
    assert standings["uma"] == [30, 10, -10, -30]
    # The champion sits in three seats of each game: 24 seats; the challenger in 8.
    assert [b["games"] for b in standings["bots"]] == [8, 24]
    assert not (tmp_path / "t" / "games").exists()


def test_three_player_tournament_and_one_vs_two(tmp_path: Path) -> None:
    bots = ["builtin:rulebase", "builtin:random", "builtin:tsumogiri"]
    standings = mjai_sim.tournament(bots, sets=2, seed=3, dir=tmp_path / "d", rules="riichi-dev-3p", progress=False)
    assert (standings["games"], standings["uma"]) == (6, [90, 0, -90])
    assert all(len(b["rank_counts"]) == 3 and b["games"] == 6 for b in standings["bots"])
    one = mjai_sim.tournament(bots[:2], sets=1, seed=3, dir=tmp_path / "o", format="1v2", rules="riichi-dev-3p",
                              no_logs=True, progress=False)
    # The champion sits in two seats of each of the 3 games; the challenger in one.
    assert [b["games"] for b in one["bots"]] == [3, 6]
    with pytest.raises(mjai_sim.MjaiSimError, match="1v2"):
        mjai_sim.tournament(bots[:2], dir=tmp_path / "x", format="1v3", rules="riichi-dev-3p", progress=False)


def test_refused_bot_in_a_tournament(zips: dict, tmp_path: Path) -> None:
    with pytest.raises(mjai_sim.MjaiSimError) as caught:
        mjai_sim.tournament([zips["nested"], "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"],
                            dir=tmp_path / "t", runtime="process", progress=False)  # fmt: skip
    assert "bot.py" in caught.value.message
    assert "\n" not in caught.value.message
    assert not (tmp_path / "t").exists()  # intake refuses before anything is written


INTERRUPTED_SCRIPT = """
import signal
import sys
import mjai_sim

# Python's own Ctrl-C handler even when SIGINT came ignored (a test run started in the
# background by a non-interactive shell: Python then installs none, and Ctrl-C is lost)
signal.signal(signal.SIGINT, signal.default_int_handler)

try:
    mjai_sim.tournament(["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:random"],
                        sets=2000, seed=1, jobs=1, dir=sys.argv[1], no_html=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt")
    sys.exit(0)
print("finished")
"""


def test_ctrl_c_stops_the_tournament_and_keeps_the_games_done(tmp_path: Path) -> None:
    script = tmp_path / "t.py"
    script.write_text(textwrap.dedent(INTERRUPTED_SCRIPT))
    folder = tmp_path / "t"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    # Wait (bounded) until games are being recorded, then Ctrl-C the Python process only,
    # as a terminal or Jupyter's "interrupt kernel" would reach it.
    deadline = time.monotonic() + 120
    while not any(folder.glob("games/*/summary.json")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no game finished in 120 s"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.strip() == "KeyboardInterrupt"
    assert "interrupted; continue with `mjai-sim tournament --resume" in err
    assert "panicked" not in err

    con = sqlite3.connect(folder / "tournament.sqlite")
    states = dict(con.execute("SELECT state, count(*) FROM games GROUP BY state").fetchall())
    results = con.execute("SELECT count(DISTINCT game_idx) FROM results").fetchone()[0]
    con.close()
    done = states.get("done", 0)
    assert 0 < done < 8000
    assert results == done
    assert states.get("running", 0) == 0
    # The standings written at the stop, and read back from the folder, count the games kept.
    kept = json.loads((folder / "standings.json").read_text())
    assert kept["games"] == done
    assert mjai_sim.standings(folder)["games"] == done


def test_progress_bar_redraws_in_place_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty

    script = (
        "import mjai_sim, sys\n"
        "s = mjai_sim.tournament(['builtin:rulebase'] * 4, sets=3, seed=3, jobs=1, dir=sys.argv[1])\n"
        "print('games', s['games'])\n"
    )
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "t")], stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer closed it
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=120) == 0
    text = b"".join(chunks).decode()
    assert "\r\033[K[" in text  # redrawn in place
    assert "12/12 games" in text
    assert "games 12" in text
    assert "# Standings" not in text  # the final table is returned as data, not echoed
