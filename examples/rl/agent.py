"""examples/rl's policy as an in-process agent for `mjai_sim.evaluate`: `react_batch` over
the arena's requests (each with `events` and the engine's `legal` answers). It decides as
bot.py does in a tournament: win when it can, declare riichi when it can, otherwise the
policy's discard, and pass on every call.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy import Policy, View, candidates  # noqa: E402


def decide(policy: Policy, view: View, legal: list) -> dict:
    """The answer among `legal` (mjai actions): hora, else reach, else the policy's discard
    (the drawn tile's own action when it is the one), else none."""
    by_type = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for t in ("hora", "reach"):
        if t in by_type:
            return by_type[t][0]
    if "dahai" in by_type:
        dahai = by_type["dahai"]
        tile = policy.best(view, candidates(a["pai"] for a in dahai))
        same = [a for a in dahai if a["pai"] == tile]
        return next((a for a in same if a.get("tsumogiri") == (tile == view.drawn)), same[0])
    return by_type["none"][0] if "none" in by_type else legal[0]


class RlAgent:
    """A batched agent: one `View` per table-seat of the run."""

    name = "rl"

    def __init__(self, policy: Policy = None) -> None:
        self.policy = policy or Policy()
        self.views = {}

    def react_batch(self, requests: list) -> list:
        out = []
        for r in requests:
            key = (r["table"], r["seat"])
            view = self.views.get(key)
            if view is None:
                view = self.views[key] = View(r["seat"])
            for e in r["events"]:
                view.see(e)
            out.append(decide(self.policy, view, r["legal"]))
        return out
