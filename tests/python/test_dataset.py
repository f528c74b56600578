"""``mjai_sim.dataset``: the rows of ``mjai-sim dataset`` as a pandas DataFrame (issue 31)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import mjai_sim


@pytest.mark.parametrize("kind", ["decisions", "riichi"])
def test_the_frame_is_the_cli_table(builtin_game: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"{kind}.parquet"
    cli = subprocess.run(
        [mjai_sim.find_mjai_sim_bin(), "dataset", str(builtin_game), "--kind", kind, "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0, cli.stderr
    want = pq.read_table(out).to_pandas()
    got = mjai_sim.dataset(builtin_game, kind=kind)
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    assert got["game"].tolist() == want["game"].tolist()
    assert got["event"].tolist() == want["event"].tolist()
    if kind == "decisions":
        assert len(got) > 0
        assert got["action"].tolist() == want["action"].tolist()
        assert [list(x) for x in got["legal_actions"]] == [list(x) for x in want["legal_actions"]]
        assert all(len(x) > 1 for x in got["legal_actions"])


def test_no_log_is_an_error_naming_the_cause(tmp_path: Path) -> None:
    with pytest.raises(mjai_sim.MjaiSimError, match="no mjai log found"):
        mjai_sim.dataset(tmp_path)
    with pytest.raises(ValueError, match="decisions"):
        mjai_sim.dataset(tmp_path, kind="nope")
