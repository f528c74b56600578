"""``mjai_sim.evaluate`` (issue 55): the in-process arena against the CLI's tournaments and
self-play on the same walls, Python agents through ``react_batch``, the standings' shape,
illegal answers named."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import mjai_sim
from mjai_sim._cli import find_mjai_sim_bin
from mjai_sim.batch import Tables


class Tsumogiri:
    """A batched Python agent: discards each drawn tile, passes on everything else (the
    same answers as builtin:tsumogiri)."""

    name = "py-tsumogiri"

    def __init__(self) -> None:
        self.calls = 0
        self.requests = 0

    def react_batch(self, requests):
        self.calls += 1
        self.requests += len(requests)
        out = []
        for r in requests:
            assert set(r) == {"table", "seat", "events", "legal"}
            last = r["events"][-1]
            if last["type"] == "tsumo" and last["actor"] == r["seat"]:
                out.append({"type": "dahai", "actor": r["seat"], "pai": last["pai"], "tsumogiri": True})
            else:
                out.append({"type": "none"})
        return out


def test_builtin_against_builtin_gives_the_tournaments_standings(tmp_path: Path) -> None:
    cli = mjai_sim.tournament(["builtin:tsumogiri", "builtin:rulebase"], format="1v3", sets=3, seed=(40, 7),
                              dir=tmp_path / "t", no_logs=True, progress=False)
    mine = mjai_sim.evaluate("builtin:tsumogiri", "builtin:rulebase", games=12, seed=(40, 7), num_envs=5)
    assert mine == dict(cli)
    assert [b["games"] for b in mine["bots"]] == [12, 36]
    same = mjai_sim.tournament(["builtin:random", "builtin:random"], format="1v3", sets=2, seed=3,
                               dir=tmp_path / "r", no_logs=True, progress=False)
    assert mjai_sim.evaluate("builtin:random", "builtin:random", games=8, seed=3) == dict(same)
    assert [b["name"] for b in same["bots"]] == ["random", "random#2"]


def test_the_standings_have_the_tournaments_shape() -> None:
    st = mjai_sim.evaluate("builtin:random", "builtin:tsumogiri", games=8, seed=3)
    assert isinstance(st, mjai_sim.Standings)
    assert set(st) == {"games", "sets", "uma", "bootstrap", "bots", "pairs", "skipped_records", "rating_history",
                       "not_counted"}
    assert (st["games"], st["sets"], st["uma"]) == (8, 2, [90.0, 45.0, 0.0, -135.0])
    assert [b["name"] for b in st["bots"]] == ["random", "tsumogiri"]  # the CLI's names
    challenger = st["bots"][0]
    assert 1.0 <= challenger["avg_rank"] <= 4.0 and sum(challenger["rank_counts"]) == 8
    low, high = challenger["avg_rank_ci"]
    assert low <= challenger["avg_rank"] <= high
    assert st["pairs"][0]["games"] == 8


def test_a_python_agent_plays_as_its_builtin_twin(tmp_path: Path) -> None:
    agent = Tsumogiri()
    mine = mjai_sim.evaluate(agent, "builtin:rulebase", games=8, seed=11, names=("x", "rb"), logs=tmp_path / "py")
    twin = mjai_sim.evaluate("builtin:tsumogiri", "builtin:rulebase", games=8, seed=11, names=("x", "rb"),
                             logs=tmp_path / "builtin")
    assert mine == twin
    assert agent.calls > 100 and agent.requests >= agent.calls
    # batched: several tables' requests in one call
    assert agent.requests > agent.calls
    for g in range(8):
        a = (tmp_path / "py" / f"game-{g:05}" / "mjai_log.json").read_text().splitlines()
        b = (tmp_path / "builtin" / f"game-{g:05}" / "mjai_log.json").read_text().splitlines()
        assert a[1:] == b[1:] and len(a) > 100
        # start_game names a Python agent by its name, a built-in builtin:NAME
        assert json.loads(a[0])["names"][g % 4] == "x" and json.loads(b[0])["names"][g % 4] == "builtin:tsumogiri"


def test_a_python_tsumogiri_against_builtin_tsumogiri() -> None:
    mine = mjai_sim.evaluate(Tsumogiri(), "builtin:tsumogiri", games=8, seed=6)
    twin = mjai_sim.evaluate("builtin:tsumogiri", "builtin:tsumogiri", games=8, seed=6,
                             names=("py-tsumogiri", "tsumogiri"))
    assert mine == twin
    # four tsumogiri never win (every hand is drawn); on these walls the challenger, twice
    # in each seat, finishes each rank twice
    assert mine["bots"][0]["win_rate"] == 0 and mine["bots"][0]["rank_counts"] == [2, 2, 2, 2]


def test_logs_are_selfplays_on_the_same_wall(tmp_path: Path) -> None:
    # set 0 plays wall [nonce, key]: selfplay's game KEY of the series NONCE; game 0 of a
    # 1v3 set has the challenger in seat 0
    mjai_sim.evaluate("builtin:rulebase", "builtin:tsumogiri", games=4, seed=(21, 0), logs=tmp_path / "e")
    subprocess.run([find_mjai_sim_bin(), "selfplay", "builtin:rulebase", "builtin:tsumogiri", "builtin:tsumogiri",
                    "builtin:tsumogiri", "--seed", "21", "--logs-dir", str(tmp_path / "s")],
                   check=True, stdout=subprocess.DEVNULL)
    mine = (tmp_path / "e" / "game-00000" / "mjai_log.json").read_text()
    assert mine == (tmp_path / "s" / "mjai_log.json").read_text()
    assert json.loads(mine.splitlines()[0])["names"][0] == "builtin:rulebase"
    assert sorted(p.name for p in (tmp_path / "e").iterdir()) == [f"game-{g:05}" for g in range(4)]
    assert mjai_sim.verify(tmp_path / "e" / "game-00003" / "mjai_log.json").ok


def test_batch_tables_and_the_same_object_on_both_sides() -> None:
    class One:
        def __init__(self, seat):
            self.seat = seat

        def react(self, line):
            last = json.loads(line)[-1]
            if last["type"] == "tsumo" and last["actor"] == self.seat:
                return json.dumps({"type": "dahai", "actor": self.seat, "pai": last["pai"], "tsumogiri": True})
            return json.dumps({"type": "none"})

    tables = Tables(One)
    st = mjai_sim.evaluate(tables, tables, games=4, format="duplicate", seed=2, names=("a", "b"))
    assert [b["games"] for b in st["bots"]] == [8, 8]
    twin = mjai_sim.evaluate("builtin:tsumogiri", "builtin:tsumogiri", games=4, format="duplicate", seed=2,
                             names=("a", "b"))
    assert st == twin


def test_three_players_play_one_vs_two() -> None:
    st = mjai_sim.evaluate(Tsumogiri(), "builtin:rulebase", games=6, rules="riichi-dev-3p", seed=4)
    assert [b["games"] for b in st["bots"]] == [6, 12]
    assert len(st["bots"][0]["rank_counts"]) == 3
    with pytest.raises(ValueError, match="four-player"):
        mjai_sim.evaluate("builtin:tsumogiri", "builtin:rulebase", games=6, format="duplicate", rules="riichi-dev-3p")


def test_an_illegal_answer_names_the_game_seat_and_action() -> None:
    class Bad(Tsumogiri):
        def react_batch(self, requests):
            out = super().react_batch(requests)
            for r, a in zip(requests, out):
                if a["type"] == "dahai":
                    a["actor"] = (r["seat"] + 1) % 4  # another seat's discard
                    return out
            return out

    with pytest.raises(mjai_sim.IllegalAction) as caught:
        mjai_sim.evaluate(Bad(), "builtin:rulebase", games=4, seed=1)
    e = caught.value
    assert e.agent == "py-tsumogiri" and e.action["type"] == "dahai"
    assert f"game {e.game} (table {e.table}, seat {e.seat})" in str(e)
    assert e.seat == e.game % 4  # 1v3: the challenger sits in seat g of the set's game g


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        mjai_sim.evaluate("builtin:tsumogiri", "builtin:rulebase", games=6)
    with pytest.raises(ValueError, match="format"):
        mjai_sim.evaluate("builtin:tsumogiri", "builtin:rulebase", games=4, format="2v2")
    with pytest.raises(ValueError, match="builtin:NAME"):
        mjai_sim.evaluate("rulebase", "builtin:rulebase", games=4)
    with pytest.raises(TypeError, match="react_batch"):
        mjai_sim.evaluate(object(), "builtin:rulebase", games=4)
    with pytest.raises(ValueError, match="nope"):
        mjai_sim.evaluate("builtin:nope", "builtin:rulebase", games=4)
