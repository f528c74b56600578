"""``dataset``: mjai logs as a pandas DataFrame of decisions or of riichi waits, over
``mjai-sim dataset`` (the columns are documented in docs/dataset.md).

pyarrow and pandas are optional dependencies of the package: only this function needs them
(``pip install pyarrow pandas``).
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Optional, Sequence, Union

from . import _cli
from .exceptions import MjaiSimError

PathLike = Union[str, "os.PathLike[str]"]

KINDS = ("decisions", "riichi")


def dataset(
    paths: Union[PathLike, Sequence[PathLike]],
    kind: str = "decisions",
    rules: Optional[str] = None,
    output: Optional[PathLike] = None,
) -> Any:
    """Turns mjai logs into one table (``mjai-sim dataset``) and returns it as a pandas
    DataFrame.

    Args:
        paths: an mjai log, or a folder searched for ``mjai_log.json`` (also gzipped; a
            game folder, a selfplay ``--logs-dir``, a tournament folder), or a list of them.
        kind: ``"decisions"`` (one row per request with more than one legal answer) or
            ``"riichi"`` (one row per riichi declaration, labelled with the waits).
        rules: the preset the logs were played under, ``"tenhou"`` (default) or
            ``"mjai-app"`` (logs of mjai.app's or Mortal's engine); decisions replay the logs.
        output: also keep the Parquet file here (by default it is written to a temporary
            folder and removed).

    Returns:
        A ``pandas.DataFrame``, one row per table row, columns as in docs/dataset.md
        (list columns hold numpy arrays).

    Raises:
        ImportError: pyarrow or pandas is missing (``pip install pyarrow pandas``).
        ValueError: ``kind`` is neither ``"decisions"`` nor ``"riichi"``.
        MjaiSimError: no log found, or none could be read (the CLI's one-line message).
    """
    try:
        import pyarrow.parquet as pq
        import pandas  # noqa: F401  (to_pandas needs it)
    except ImportError as e:
        raise ImportError(f"mjai_sim.dataset needs pyarrow and pandas: pip install pyarrow pandas ({e})") from e
    if kind not in KINDS:
        raise ValueError(f"kind must be 'decisions' or 'riichi', not {kind!r}")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    with tempfile.TemporaryDirectory(prefix="mjai-sim-dataset-") as tmp:
        out = os.fspath(output) if output is not None else os.path.join(tmp, f"{kind}.parquet")
        args = ["dataset", *[os.fspath(p) for p in paths], "--kind", kind, "-o", out]
        if rules is not None:
            args += ["--rules", rules]
        done = _cli.run(args)
        if done.returncode != 0 or done.result is None:
            raise _cli.failure(done)
        return pq.read_table(out).to_pandas()


__all__ = ["dataset", "KINDS", "MjaiSimError"]
