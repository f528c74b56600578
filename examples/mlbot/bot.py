"""An ML bot: a small torch policy (a two-layer network over the hand and what is on the table)
picks each discard; wins, riichi and passing are rules. Written the way mjai.app authors write
theirs: `from mjai import Bot`, override think(), call start(). Needs the ml image
(`--image ml`: torch 2.2.2). Copy this folder to start an ML bot of your own.

Files: bot.py (this), features.py (what the network sees, shared with train.py), model.pt
(the weights, trained by train.py beside it: 74 KB).
Usage: python3 -u bot.py SEAT, or python3 -u bot.py --batch (every table-seat from one
process, one forward pass per cycle: add `batch = true` in a mjai-sim.toml beside it).
"""

import json
import os
import sys

import torch
from mahjong.agari import Agari
from mjai import Bot

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from features import FEATURES, KINDS, Table, features, kind  # noqa: E402

HIDDEN = 128


def has_wait(hand34: list) -> bool:
    """Whether some tile completes the 13-tile closed hand `hand34` (counts by kind): the
    `mahjong` package's agari check on each kind the hand does not hold four of. (Its shanten
    calls a chiitoitsu with a triplet tenpai, as does mjai's
    discardable_tiles_riichi_declaration: no tile completes such a hand.)"""
    agari = Agari()
    for k in range(KINDS):
        if hand34[k] < 4:
            hand34[k] += 1
            done = agari.is_agari(hand34)
            hand34[k] -= 1
            if done:
                return True
    return False


def policy() -> torch.nn.Module:
    """The network: FEATURES → HIDDEN → 34 logits, one per tile kind to discard."""
    return torch.nn.Sequential(torch.nn.Linear(FEATURES, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, KINDS))


def load(weights: str = os.path.join(HERE, "model.pt")) -> torch.nn.Module:
    """The policy with the weights of `weights`, ready to evaluate, on one CPU thread: a
    network this small gains nothing from torch's intra-op threads, and where the other
    cores are busy (the referee, the other tables, a build) a batched forward pass waited
    about 30 ms for them instead of 0.2 ms (torch 2.2.2, 2 cores; docs/performance.md)."""
    torch.set_num_threads(1)
    model = policy()
    model.load_state_dict(torch.load(weights, weights_only=True))
    model.eval()
    return model


class MlBot(Bot):
    def __init__(
        self, player_id: int, weights: str = os.path.join(HERE, "model.pt"), model: torch.nn.Module = None, defer=False
    ):
        super().__init__(player_id=player_id)
        self.table = Table()
        self.model = load(weights) if model is None else model
        # batched mode (think_batch): the discard's network input and legal tiles, left
        # for the cycle's one forward pass instead of evaluated here
        self.defer = defer
        self.deferred = None

    def react(self, input_str: str) -> str:
        self.deferred = None
        for event in json.loads(input_str):
            self.table.see(event)
        return super().react(input_str)

    def think(self) -> str:
        if self.can_tsumo_agari:
            return self.action_tsumo_agari()
        if self.can_ron_agari:
            return self.action_ron_agari()
        if self.can_riichi and self.riichi_discards():
            return self.action_riichi()
        if not self.can_discard:
            return self.action_nothing()  # no calls: pass
        if self.self_riichi_accepted:
            return self.action_discard(self.last_self_tsumo)
        if self.self_riichi_declared:
            legal = self.riichi_discards()
        else:
            # not mjai's discardable_tiles: it fails on a red five (KeyError '5mr')
            forbidden = self.forbidden_tiles
            legal = [t for t in self.tehai_mjai if not forbidden.get(t[:2], False)]
        return self.action_discard(self.choose(legal))

    def riichi_discards(self) -> list:
        """The tiles whose discard leaves the hand with a wait (what a riichi discard must
        do; not mjai's discardable_tiles_riichi_declaration, see has_wait)."""
        out = []
        for tile in sorted(set(self.tehai_mjai)):
            hand = list(self.tehai_vec34)
            hand[kind(tile)] -= 1
            if has_wait(hand):
                out.append(tile)
        return out

    def choose(self, legal: list) -> str:
        """The legal tile the policy ranks highest (a plain five before a red one). In
        batched mode the input is kept for the cycle's forward pass (`think_batch`) and the
        first legal tile stands in until then."""
        view = self.table.view(self.player_id, self.tehai_mjai)
        if self.defer:
            self.deferred = (features(view), legal)
            return legal[0]
        with torch.no_grad():
            logits = self.model(torch.tensor([features(view)], dtype=torch.float32))[0]
        return best(legal, logits)


def best(legal: list, logits) -> str:
    """The legal tile with the highest logit (a plain five before a red one)."""
    return max(legal, key=lambda t: (float(logits[kind(t)]), not t.endswith("r")))


class Batched:
    """Every table-seat of a run from one model, one forward pass per cycle over all the
    discards it asks for: ``react_batch(requests) -> actions``, the batched bots' shape.
    `bot.py --batch` serves it to mjai-sim (docs/protocol.md, "Batched bots"); the same
    object plays in process in ``mjai_sim.evaluate(Batched(), "builtin:rulebase")``."""

    name = "mlbot"

    def __init__(self, model: torch.nn.Module = None):
        from mjai_sim.batch import Tables

        self.model = load() if model is None else model
        self.tables = Tables(lambda seat: MlBot(player_id=seat, model=self.model, defer=True))

    def react_batch(self, requests: list) -> list:
        actions, pending = [], []
        for n, request in enumerate(requests):
            actions.append(self.tables.react(request))
            # gone after end_game or an error; otherwise the instance that just answered
            bot = self.tables.bots.get((request["table"], request["seat"]))
            if bot is not None and bot.deferred is not None and actions[-1].get("type") == "dahai":
                pending.append((n, bot, bot.deferred))
        if pending:
            with torch.no_grad():
                inputs = torch.tensor([f for _, _, (f, _) in pending], dtype=torch.float32)
                logits = self.model(inputs)
            for (n, bot, (_, legal)), row in zip(pending, logits):
                tile = best(legal, row)
                actions[n]["pai"] = tile
                actions[n]["tsumogiri"] = tile == bot.last_self_tsumo
        return actions


def serve_batched() -> None:
    """`bot.py --batch` (mjai-sim's batched bots, docs/protocol.md): :class:`Batched` over
    stdin and stdout. Needs `batch = true` in mjai-sim.toml beside this file."""
    from mjai_sim.batch import serve_batched as serve

    serve(Batched().react_batch)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--batch"]:
        serve_batched()
    else:
        MlBot(player_id=int(sys.argv[1])).start()
