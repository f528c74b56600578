"""Tsumogiri as a batched bot: an ordinary one-seat bot class, served for every table-seat
of a run by one process (mjai-sim's batched bots, docs/protocol.md). Stdlib only.

`mjai-sim.toml` beside this file says `batch = true`, so mjai-sim starts it once as
`python3 -u bot.py --batch`; `python3 -u bot.py SEAT` still plays one seat (mjai.app, or
`--no-batch`). `mjai_sim.batch` is in mjai-sim's bot images and on the process runtime's path.
"""

import json

from mjai_sim.batch import main


class Tsumogiri:
    """One seat: discards each tile it draws, declines everything else (mjai.app's
    interface: `react(line) -> line`)."""

    def __init__(self, seat):
        self.seat = seat

    def react(self, line):
        last = json.loads(line)[-1]
        if last.get("type") == "tsumo" and last.get("actor") == self.seat:
            action = {"type": "dahai", "actor": self.seat, "pai": last["pai"], "tsumogiri": True}
        else:
            action = {"type": "none"}
        return json.dumps(action, separators=(",", ":"))


if __name__ == "__main__":
    main(Tsumogiri)
