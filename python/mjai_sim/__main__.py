"""``python -m mjai_sim ARGS``: runs the installed ``mjai-sim`` binary with ARGS."""

from __future__ import annotations

import os
import sys

from ._cli import find_mjai_sim_bin


def main() -> None:
    """Replaces this process with ``mjai-sim ARGS`` (POSIX), or runs it and exits with its status."""
    binary = find_mjai_sim_bin()
    if os.name == "nt":  # pragma: no cover
        import subprocess

        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
