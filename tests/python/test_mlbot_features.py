"""examples/mlbot sees the same thing in play and in training (issues 27 and 31): for every
discard in a few self-play hanchans, the features train.py computes from the row of
`mjai_sim.dataset(..., kind="decisions")` equal those bot.py computes from the events the seat
was sent (its features.Table, fed the log up to the row's event, and its own hand). Pure
Python: features.py does not import torch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mjai_sim
from mjai_sim._cli import find_mjai_sim_bin

from conftest import EXAMPLES

sys.path.insert(0, str(EXAMPLES / "mlbot"))
import features as F  # noqa: E402


def replay_view(events: list, seat: int, upto: int) -> dict:
    """The view bot.py would build for `seat` after events[0..=upto]: the public table from
    features.Table and its concealed hand (as mjai's PlayerState keeps it)."""
    table, hand = F.Table(), []
    for e in events[: upto + 1]:
        table.see(e)
        t = e["type"]
        if t == "start_kyoku":
            hand = list(e["tehais"][seat])
        elif e.get("actor") != seat:
            continue
        elif t == "tsumo":
            hand.append(e["pai"])
        elif t == "dahai":
            hand.remove(e["pai"])
        elif t in ("chi", "pon", "daiminkan", "ankan"):
            for c in e["consumed"]:
                hand.remove(c)
        elif t == "kakan":
            hand.remove(e["pai"])
    return table.view(seat, hand)


def test_dataset_rows_and_the_bots_own_view_give_the_same_features(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    subprocess.run(
        [find_mjai_sim_bin(), "selfplay", "builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:rulebase",
         "--games", "3", "--seed", "11", "--logs-dir", str(logs)],
        check=True, stdout=subprocess.DEVNULL)
    df = mjai_sim.dataset(str(logs), kind="decisions")
    discards = df[df["action"].map(lambda a: json.loads(a)["type"] == "dahai")]
    assert len(discards) > 500, len(discards)
    calls = 0
    logs_by_path: dict = {}
    for row in discards.to_dict("records"):
        path = row["game"]
        if path not in logs_by_path:
            logs_by_path[path] = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        events = logs_by_path[path]
        view = replay_view(events, int(row["seat"]), int(row["event"]))
        from_row = {k: row[k] for k in ("seat", "tehai", "dora_markers", "discards", "melds", "reach")}
        from_row = json.loads(json.dumps(from_row, default=lambda o: o.tolist()))  # numpy arrays as lists
        assert F.features(from_row) == F.features(view), (path, row["event"])
        calls += sum(len(m) for m in view["melds"])
    assert calls > 0, "no call in these games: the melds part of the features went untested"
