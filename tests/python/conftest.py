"""Fixtures of the Python package's tests (issue 22).

The tests run against the installed wheel (``scripts/test-python`` builds it and installs it
into a fresh virtualenv); they read only the repository's files and temporary folders.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Dict

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def make_zip(src: Path, dest: Path, inner: str = "") -> Path:
    """Zips the files of the folder ``src`` into ``dest`` (mjai.app's layout: ``bot.py`` at
    the root, or under ``inner/`` to make a refused submission)."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(src.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                z.write(f, str(Path(inner) / f.relative_to(src)) if inner else str(f.relative_to(src)))
    return dest


@pytest.fixture(scope="session")
def zips(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """mjai.app-style submissions built from examples/: ``bot.py`` at the zip's root."""
    out = tmp_path_factory.mktemp("zips")
    made = {name: make_zip(EXAMPLES / name, out / f"{name}.zip") for name in ("tsumogiri", "shanten", "mjaibot", "crash")}
    made["nested"] = make_zip(EXAMPLES / "tsumogiri", out / "nested.zip", inner="tsumogiri")
    return made


@pytest.fixture(scope="session")
def builtin_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished hanchan of built-in bots (no Docker): its logs folder."""
    import mjai_sim

    logs = tmp_path_factory.mktemp("builtin-game")
    bots = ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:tsumogiri"]
    mjai_sim.Simulator(bots, logs_dir=logs, seed=(7, 3), quiet=True).run()
    return logs


def log_with_a_bad_discard(game: Path, out: Path) -> tuple[Path, int]:
    """`game`'s mjai log with its first discard changed to a tile its actor cannot hold (a
    fifth east wind, say), written to `out/bad.json`: the path and the changed line's index."""
    lines = (game / "mjai_log.json").read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"type":"dahai"' in line)
    event = json.loads(lines[n])
    event["pai"] = "E" if event["pai"] != "E" else "N"
    lines[n] = json.dumps(event, separators=(",", ":"))
    bad = out / "bad.json"
    bad.write_text("\n".join(lines) + "\n")
    return bad, n
