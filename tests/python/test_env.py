"""The training environment ``mjai_sim.VecEnv`` (issue 55), from the installed wheel's
extension module: shapes, masks against the legal mjai actions, autoreset, finished games,
three players, determinism by seed, refused input."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mjai_sim


def play(env: mjai_sim.VecEnv, games: int, seed: int = 0):
    """Random legal indices until ``games`` games have finished; returns the steps' decisions
    and the finished games."""
    rng = np.random.default_rng(seed)
    d = env.reset()
    trace, ended = [d], []
    while env.games_finished < games:
        d = env.step(mjai_sim.sample_legal(d.mask, rng))
        trace.append(d)
        ended += d.ended
    return trace, ended


def test_reset_and_step_give_arrays_of_the_documented_shapes() -> None:
    env = mjai_sim.VecEnv(8, rules="tenhou", seed=0)
    assert env.num_actions == mjai_sim.NUM_ACTIONS == 120
    assert env.obs_shape == (58, 34) and env.seats == 4 and env.num_envs == 8
    d = env.reset()
    rows = len(d)
    assert rows == 8, "each table's dealer decides first"
    assert d.mask.shape == (rows, 120) and d.mask.dtype == np.bool_
    assert d.table.tolist() == list(range(8)) and d.seat.tolist() == [0] * 8
    assert d.obs.shape == (rows, 58, 34) and d.obs.dtype == np.float32
    assert ((d.obs >= 0) & (d.obs <= 1)).all()
    assert d.obs[:, :4, :].sum() > 0, "own hands are encoded"
    assert d.rewards.shape == (8, 4) and d.dones.shape == (8,) and not d.dones.any()
    d2 = env.step(mjai_sim.sample_legal(d.mask, np.random.default_rng(1)))
    assert d2.mask.shape[1] == 120 and len(d2) == d2.table.shape[0] == d2.seat.shape[0]


def test_masks_are_the_legal_mjai_actions() -> None:
    env = mjai_sim.VecEnv(4, rules="tenhou", seed=3)
    rng = np.random.default_rng(0)
    d = env.reset()
    names = set()
    for _ in range(300):
        for i in range(len(d)):
            legal = json.loads(d.legal(i))
            indices = np.flatnonzero(d.mask[i])
            assert len(indices) == len(legal), (legal, indices)
            chosen = [json.loads(env.action(i, int(k))) for k in indices]
            assert sorted(map(json.dumps, chosen)) == sorted(map(json.dumps, legal))
            names.update(mjai_sim.action_name(int(k)).split(":")[0] for k in indices)
            events = json.loads(d.events(i))
            assert events, "a decision always follows new events"
            assert all(e.get("pai") != "?" or e["type"] == "tsumo" for e in events)
        d = env.step(mjai_sim.sample_legal(d.mask, rng))
    assert {"dahai", "tsumogiri", "none"} <= names


def test_mjai_dicts_are_accepted_and_bad_input_raises_without_applying() -> None:
    env = mjai_sim.VecEnv(2, seed=5)
    d = env.reset()
    with pytest.raises(ValueError, match="step got 1 actions for 2 pending decisions"):
        env.step(np.array([0]))
    with pytest.raises(ValueError, match=r"row 0 \(table 0, seat 0\): action index 119 is not legal"):
        env.step(np.array([119, 119]))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.array([0.5, 1.5]))
    with pytest.raises(TypeError, match=r"actions\[1\]"):
        env.step([0, 1.5])
    with pytest.raises(ValueError, match="row 1") as caught:
        env.step([json.loads(d.legal(0))[0], {"type": "pon"}])
    e = caught.value
    assert (e.row, e.table, e.seat) == (1, 1, 0) and e.reason and e.reason in str(e)
    with pytest.raises(RuntimeError, match="reset"):
        mjai_sim.VecEnv(1).step([0])
    with pytest.raises(ValueError, match="unknown rules preset"):
        mjai_sim.VecEnv(1, rules="mortal")
    with pytest.raises(ValueError, match="unknown built-in bot"):
        mjai_sim.VecEnv(1, learners=0, opponents="nope")
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        mjai_sim.VecEnv(1, rules="riichi-dev-3p", learners=[3])
    log_before = [len(env.log(t)) for t in range(2)]
    actions = [json.loads(d.legal(0))[-1], json.loads(d.legal(1))[-1]]
    d2 = env.step(actions)
    assert [len(env.log(t)) for t in range(2)] != log_before
    with pytest.raises(RuntimeError, match="stale"):
        d.events(0)
    assert d2.events(0)


def test_tables_restart_by_themselves_and_games_finish_with_placement_rewards() -> None:
    env = mjai_sim.VecEnv(4, rules="tenhou", seed=1, keep_logs=True)
    rng = np.random.default_rng(0)
    d = env.reset()
    trace, ended = [d], []
    while env.games_finished < 6:
        d = env.step(mjai_sim.sample_legal(d.mask, rng))
        trace.append(d)
        ended += d.ended
        for t in np.flatnonzero(d.dones):
            row = int(np.flatnonzero(d.table == t)[0])
            assert json.loads(d.events(row))[0]["type"] == "start_game", "the table's next game has started"
    assert env.games_finished == len(ended) >= 6
    sums = np.zeros((4, 4), dtype=np.float64)
    done_steps = 0
    for d in trace:
        sums += d.rewards
        done_steps += int(d.dones.sum())
    assert done_steps == len(ended)
    uma = {1: 90.0, 2: 45.0, 3: 0.0, 4: -135.0}
    for g in ended:
        assert g["points"] == [uma[r] for r in g["ranks"]]
        assert json.loads(g["log"][-1]) == {"type": "end_game"}
        assert json.loads(g["log"][0])["seed"] == [1, g["game"]]
        assert g["game"] % 4 == g["table"]
        assert not g["chombos"]
    assert abs(sums.sum()) < 1e-6, "uma sums to zero over finished games"


def test_three_player_tables_use_their_own_planes_and_kita() -> None:
    env = mjai_sim.VecEnv(4, rules="riichi-dev-3p", seed=2, keep_logs=True, hand_rewards=True)
    assert env.seats == 3 and env.obs_shape == (50, 34)
    trace, ended = play(env, 4)
    assert trace[0].rewards.shape == (4, 3)
    assert all(len(g["scores"]) == 3 and sorted(g["ranks"]) == [1, 2, 3] for g in ended)
    kita = [i for i in range(120) if mjai_sim.action_name(i) == "kita"][0]
    assert any(d.mask[:, kita].any() for d in trace), "kita is offered"
    assert not any(d.mask[:, 39:45].any() for d in trace), "no chi in sanma"
    assert all(d.seat.max() <= 2 for d in trace)


def test_the_same_seed_gives_the_same_games_and_learners_choose_seats() -> None:
    def run(seed: int):
        env = mjai_sim.VecEnv(3, seed=seed, learners="rotating", opponents="tsumogiri")
        trace, ended = play(env, 3, seed=7)
        return [(d.table.tolist(), d.seat.tolist(), d.mask.tobytes(), d.obs.tobytes()) for d in trace], ended

    a, ended = run(11)
    b, _ = run(11)
    c, _ = run(12)
    assert a == b
    assert a != c
    threaded = mjai_sim.VecEnv(3, seed=11, learners="rotating", opponents="tsumogiri", threads=2)
    assert threaded.threads == 2 and mjai_sim.VecEnv(1).threads == 1 and mjai_sim.VecEnv(1, threads=0).threads >= 1
    trace, _ = play(threaded, 3, seed=7)
    assert [(d.table.tolist(), d.seat.tolist(), d.mask.tobytes(), d.obs.tobytes()) for d in trace] == a, \
        "the tables stepped on two threads play the same games"
    for g in ended:
        assert g["learners"] == [s == g["game"] % 4 for s in range(4)]
    env = mjai_sim.VecEnv(2, learners=[1, 3], opponents=["random", "x", "rulebase", "x"], features=False)
    d = env.reset()
    assert d.obs is None
    assert set(d.seat.tolist()) <= {1, 3}


def tsumogiri(legal: list) -> dict:
    """builtin:tsumogiri's answer (the engine's default answer): the drawn tile, else a
    pass where passing is legal, else the first discard."""
    drawn = [a for a in legal if a["type"] == "dahai" and a["tsumogiri"]]
    if drawn:
        return drawn[0]
    if not legal or {"type": "none"} in legal:
        return {"type": "none"}
    return next((a for a in legal if a["type"] == "dahai"), legal[0])


@pytest.mark.parametrize("rules,bots", [
    ("tenhou", ["builtin:tsumogiri", "builtin:rulebase", "builtin:random", "builtin:rulebase"]),
    ("riichi-dev-3p", ["builtin:tsumogiri", "builtin:random", "builtin:rulebase"]),
])
def test_games_equal_mjai_sim_selfplays_logs(tmp_path, rules: str, bots: list) -> None:
    """Seat 0 answered from Python as builtin:tsumogiri (as mjai dicts), the others by the
    environment's own bots: each game's log is `mjai-sim selfplay`'s with the same seed,
    line for line."""
    import subprocess

    env = mjai_sim.VecEnv(2, rules=rules, seed=21, learners=[0], opponents=bots, names=bots, keep_logs=True)
    d = env.reset()
    ended = []
    while not {0, 1} <= {g["game"] for g in ended}:
        d = env.step([tsumogiri(json.loads(d.legal(i))) for i in range(len(d))])
        ended += d.ended
    cmd = [mjai_sim.find_mjai_sim_bin(), "selfplay", *bots, "--seed", "21", "--games", "2",
           "--rules", rules, "--logs-dir", str(tmp_path)]
    subprocess.run(cmd, check=True, capture_output=True)
    for g in (g for g in ended if g["game"] < 2):
        lines = (tmp_path / f"game-{g['game']:05d}" / "mjai_log.json").read_text().splitlines()
        assert g["log"] == lines, f"game {g['game']}"
