"""A bot on mjai.app's SDK (`from mjai import Bot`, package mjai 0.2.1), written the way
mjai.app authors write theirs: subclass Bot, override think(), call start().

Plays: wins when it can, declares riichi when it can, pons dragons, otherwise discards the tile
the SDK ranks best for improving the hand (find_improving_tiles), tsumogiri after riichi.
Usage: python3 -u bot.py SEAT
"""

import sys

from mjai import Bot


class MjaiBot(Bot):
    def think(self) -> str:
        if self.can_tsumo_agari:
            return self.action_tsumo_agari()
        if self.can_ron_agari:
            return self.action_ron_agari()
        if self.can_riichi:
            return self.action_riichi()
        if self.can_pon and self.is_dragon(self.last_kawa_tile):
            for candidate in self.find_pon_candidates():
                if candidate["next_shanten"] < candidate["current_shanten"]:
                    return self.action_pon(consumed=candidate["consumed"])
        if not self.can_discard:
            return self.action_nothing()
        if self.self_riichi_accepted:
            return self.action_discard(self.last_self_tsumo)
        if self.self_riichi_declared:
            # The riichi discard must keep the hand tenpai.
            keeping = self.discardable_tiles_riichi_declaration
            return self.action_discard(self.last_self_tsumo if self.last_self_tsumo in keeping else keeping[0])
        forbidden = self.forbidden_tiles
        for candidate in self.find_improving_tiles():
            tile = candidate["discard_tile"]
            if tile and not forbidden.get(tile[:2], False):
                return self.action_discard(tile)
        allowed = [t for t in self.tehai_mjai if not forbidden.get(t[:2], False)]
        return self.action_discard(self.last_self_tsumo or allowed[0])


if __name__ == "__main__":
    MjaiBot(player_id=int(sys.argv[1])).start()
