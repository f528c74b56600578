"""examples/rl as a submission: the policy trained by train.py (weights.json beside this
file), on mjai.app's SDK (`from mjai import Bot`, in mjai-sim's bot images): win when it
can, declare riichi when it can, otherwise the policy's discard (policy.py), pass on every
call, as agent.py decides in process. numpy, mjai and mahjong: all in the default image.
Usage: python3 -u bot.py SEAT (zip this folder's files: bot.py at the zip's root).
"""

import json
import os
import sys

from mahjong.agari import Agari
from mjai import Bot

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy import KINDS, Policy, View, candidates, kind  # noqa: E402


def has_wait(hand34: list) -> bool:
    """Whether some tile completes the 13-tile closed hand `hand34` (counts by kind), as
    examples/mlbot checks it (the `mahjong` package, in mjai-sim's bot images)."""
    agari = Agari()
    for k in range(KINDS):
        if hand34[k] < 4:
            hand34[k] += 1
            done = agari.is_agari(hand34)
            hand34[k] -= 1
            if done:
                return True
    return False


class RlBot(Bot):
    def __init__(self, player_id: int) -> None:
        super().__init__(player_id=player_id)
        self.policy = Policy()
        self.view = View(player_id)

    def react(self, input_str: str) -> str:
        for event in json.loads(input_str):
            self.view.see(event)
        return super().react(input_str)

    def think(self) -> str:
        if self.can_tsumo_agari:
            return self.action_tsumo_agari()
        if self.can_ron_agari:
            return self.action_ron_agari()
        if self.can_riichi and self.riichi_discards():
            return self.action_riichi()
        if self.can_discard:
            if self.self_riichi_accepted:
                return self.action_discard(self.last_self_tsumo)
            if self.self_riichi_declared:
                tiles = self.riichi_discards()
            else:  # not discardable_tiles: mjai 0.2.1's raises KeyError on a red five
                forbidden = self.forbidden_tiles
                tiles = [t for t in self.tehai_mjai if not forbidden.get(t[:2], False)]
            return self.action_discard(self.policy.best(self.view, candidates(tiles)))
        return self.action_nothing()

    def riichi_discards(self) -> list:
        """The tiles whose discard leaves the hand with a wait, what a riichi discard must do
        (not mjai 0.2.1's discardable_tiles_riichi_declaration, which counts a hand waiting
        only on tiles it holds all four of)."""
        out = []
        for tile in sorted(set(self.tehai_mjai)):
            hand = list(self.tehai_vec34)
            hand[kind(tile)] -= 1
            if has_wait(hand):
                out.append(tile)
        return out


if __name__ == "__main__":
    RlBot(player_id=int(sys.argv[1])).start()
