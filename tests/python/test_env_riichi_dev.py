"""riichi.dev's observation in the training environment (issue 55, item 2):
``VecEnv(..., riichi_dev=True)`` gives each row the observation a ``riichilab:`` seat is
sent, decoded here by riichienv 0.4.8 (the version riichi.dev's bots run), four and three
players. Each observation's ``legal_actions()``, in riichienv's own mjai (``to_mjai()``),
must be legal answers of the row (matched as the referee matches a dialect reply:
``src/riichi_dev/select.rs``), and its ``hand`` must be the seat's tiles, followed here from
the row's mjai events."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any, Dict, List, Optional

import numpy as np
import pytest
import riichienv
from riichienv.convert import tid_to_mjai

import mjai_sim


def taken(action: Dict[str, Any], legal: List[Dict[str, Any]]) -> bool:
    """Whether ``action`` (riichienv's mjai) stands for one of ``legal`` (the row's canonical
    mjai answers) as the referee reads a dialect reply (``select`` in
    ``src/riichi_dev/select.rs``): ``hora``, ``none``, ``reach`` and ``ryukyoku`` by type,
    ``dahai`` by ``pai``, calls by the multiset of ``consumed`` (and ``pai`` when both sides
    have one; an ankan has none), ``kita`` (or ``nukidora``) by type and ``pai``."""
    kind = "kita" if action["type"] == "nukidora" else action["type"]
    pai = action.get("pai")
    for answer in legal:
        if answer["type"] != kind:
            continue
        if kind in ("hora", "none", "reach", "ryukyoku"):
            return True
        if kind in ("dahai", "kita"):
            if pai is None or answer["pai"] == pai:
                return True
            continue
        own = answer.get("pai")
        if "consumed" in action:
            if sorted(action["consumed"]) == sorted(answer["consumed"]) and (pai is None or own in (None, pai)):
                return True
        elif pai is None or (own or answer["consumed"][0].rstrip("r")) == pai:
            return True
    return False


def choose(env: mjai_sim.VecEnv, d: Any, i: int, hand: List[int], three: bool, rng: Any) -> int:
    """An index for row ``i`` that reaches riichi and wins often enough to see them: a win,
    a riichi, else (nine times in ten) the discard leaving the lowest shanten (riichienv's
    own count) or a pass; otherwise a random legal index (calls, kita)."""
    options = {int(k): json.loads(env.action(i, int(k))) for k in np.flatnonzero(d.mask[i])}
    by_type: Dict[str, List[int]] = {}
    for k, a in options.items():
        by_type.setdefault(a["type"], []).append(k)
    for kind in ("hora", "reach"):
        if kind in by_type:
            return by_type[kind][0]
    if rng.random() < 0.1:
        return int(rng.choice(list(options)))
    if "dahai" in by_type:
        shanten = riichienv.calculate_shanten_3p if three else riichienv.calculate_shanten

        def after(k: int) -> int:
            rest = list(hand)
            rest.remove(next(t for t in rest if tid_to_mjai(t) == options[k]["pai"]))
            return shanten(rest)

        return min(by_type["dahai"], key=after)
    return by_type["none"][0] if "none" in by_type else int(rng.choice(list(options)))


class Hand:
    """One seat's hand as mjai tiles, followed from the events it is sent."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.tiles: Counter = Counter()

    def feed(self, event: Dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "start_kyoku":
            self.tiles = Counter(event["tehais"][self.seat])
        elif event.get("actor") != self.seat:
            return
        elif kind == "tsumo":
            self.tiles[event["pai"]] += 1
        elif kind in ("dahai", "kakan", "kita"):
            self.tiles[event["pai"]] -= 1
        elif kind in ("chi", "pon", "daiminkan", "ankan"):
            self.tiles.subtract(event["consumed"])

    def sorted(self) -> List[str]:
        assert all(n >= 0 for n in self.tiles.values()), f"a tile left the hand twice: {self.tiles}"
        return sorted(self.tiles.elements())


def check_decisions(rules: str, expected_class: Any, rows_wanted: int) -> Counter:
    """Plays at 4 tables with the option on (answers: :func:`choose`) until ``rows_wanted``
    rows were checked, each both ways: every action riichienv offers is a legal answer of
    the row, and every legal answer is among riichienv's. Returns counts of riichienv's
    actions (mjai types) seen."""
    env = mjai_sim.VecEnv(4, rules=rules, seed=7, riichi_dev=True)
    three = env.seats == 3
    rng = np.random.default_rng(1)
    hands: Dict[tuple, Hand] = {}
    seen: Counter = Counter()
    rows = 0
    d = env.reset()
    while rows < rows_wanted:
        answers = []
        for i in range(len(d)):
            table, seat = int(d.table[i]), int(d.seat[i])
            hand = hands.setdefault((table, seat), Hand(seat))
            for event in json.loads(d.events(i)):
                hand.feed(event)
            obs = d.observation(i)
            assert isinstance(obs, expected_class)
            assert obs.player_id == seat
            assert isinstance(d.riichi_dev(i), str) and d.riichi_dev(i)
            assert sorted(tid_to_mjai(t) for t in obs.hand) == hand.sorted(), f"table {table} seat {seat}"
            assert len(set(obs.hand)) == len(obs.hand), "each physical tile once"
            legal = json.loads(d.legal(i))
            actions = [json.loads(a.to_mjai()) for a in obs.legal_actions()]
            for mjai in actions:
                assert taken(mjai, legal), f"riichienv's {mjai} is not legal here: {legal}"
                seen[mjai["type"]] += 1
            for answer in legal:
                assert any(taken(mjai, [answer]) for mjai in actions), f"{answer} not among riichienv's {actions}"
            answers.append(choose(env, d, i, list(obs.hand), three, rng))
            rows += 1
        d = env.step(np.array(answers, dtype=np.int64))
    return seen


def test_four_player_observations_decode_with_legal_actions_and_the_seats_hand() -> None:
    seen = check_decisions("tenhou", riichienv.Observation, 1500)
    for kind in ("dahai", "none", "pon", "chi", "reach", "hora"):
        assert seen[kind] > 0, f"no {kind}: {seen}"


def test_three_player_observations_decode_with_legal_actions_and_the_seats_hand() -> None:
    seen = check_decisions("riichi-dev-3p", riichienv.Observation3P, 1500)
    for kind in ("dahai", "none", "pon", "kita", "reach", "hora"):
        assert seen[kind] > 0, f"no {kind}: {seen}"


def test_riichi_dev_is_refused_when_off_or_stale_and_names_riichienv_when_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    off = mjai_sim.VecEnv(1).reset()
    with pytest.raises(RuntimeError, match="riichi_dev=True"):
        off.riichi_dev(0)
    with pytest.raises(RuntimeError, match="riichi_dev=True"):
        off.observation(0)
    env = mjai_sim.VecEnv(1, riichi_dev=True)
    first = env.reset()
    assert first.riichi_dev(0)
    with pytest.raises(IndexError):
        first.riichi_dev(len(first))
    env.step(mjai_sim.sample_legal(first.mask))
    with pytest.raises(RuntimeError, match="stale"):
        first.riichi_dev(0)
    now = env.reset()
    monkeypatch.setitem(sys.modules, "riichienv", None)
    with pytest.raises(ImportError, match=r"pip install riichienv==0\.4\.8"):
        now.observation(0)


def test_the_option_changes_no_game() -> None:
    logs: Dict[bool, Optional[List[Any]]] = {}
    for on in (False, True):
        env = mjai_sim.VecEnv(2, seed=3, keep_logs=True, riichi_dev=on)
        rng = np.random.default_rng(5)
        d = env.reset()
        ended: List[Any] = []
        while env.games_finished < 2:
            d = env.step(mjai_sim.sample_legal(d.mask, rng))
            ended += d.ended
        logs[on] = [e["log"] for e in ended]
    assert logs[False] == logs[True] and len(logs[True] or []) >= 2
