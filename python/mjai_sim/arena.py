"""The in-process arena (issue 55): :func:`evaluate` plays a challenger against a champion
on the referee's own engine (:class:`mjai_sim.VecEnv` over a tournament's schedule) and
returns the standings ``mjai-sim tournament`` computes, with the same code (the extension's
``standings``, crate ``mjai-sim-stats``).

An agent is a built-in's name (``"builtin:rulebase"``, ``"builtin:tsumogiri"``,
``"builtin:random"``) or a Python object with ``react_batch(requests) -> actions``, the
batched bots' shape (docs/protocol.md, "Batched bots"): each request is a dict with
``table`` (the game's number in the schedule), ``seat``, ``events`` (the mjai events that
seat saw since its previous decision, masked for it: exactly what a bot is sent) and, beyond
the protocol, ``legal`` (the legal answers as mjai actions); an action is an mjai action
dict (or its JSON). An object with ``think_batch`` instead (``mjai_sim.batch.Tables(MyBot)``,
what ``mjai_sim.batch.main`` serves) is taken as is, so the code a batched submission runs
is the code evaluated here.

>>> st = mjai_sim.evaluate(MyAgent(), "builtin:rulebase", games=400, seed=7)
>>> st["bots"][0]["avg_rank"], st["bots"][0]["avg_rank_ci"]
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _env
from .tournament import Standings

__all__ = ["evaluate", "schedule", "IllegalAction"]

Seed = Union[int, Tuple[int, int]]


class IllegalAction(ValueError):
    """A Python agent answered an action that is not legal (or not an action). The
    arena stops at once (nothing is applied): the message names the agent, the game, its
    table and seat, and the action. Attributes: ``agent``, ``game``, ``table``, ``seat``,
    ``action``, ``reason``."""

    def __init__(self, agent: str, game: int, table: int, seat: int, action: Any, reason: str) -> None:
        self.agent, self.game, self.table, self.seat, self.action, self.reason = agent, game, table, seat, action, reason
        super().__init__(
            f"{agent} answered an illegal action at game {game} (table {table}, seat {seat}): {action!r}: {reason}"
        )


def schedule(format: str, games: int, seats: int, seed: Tuple[int, int]) -> List[Dict[str, Any]]:
    """The games of :func:`evaluate`: dicts with ``index``, ``set``, ``seats`` (0 the
    challenger, 1 the champion, by seat) and ``seed`` (the wall ``[nonce + set, key]``).

    - ``"1v3"`` (``"1v2"`` at a three-player table): ``mjai-sim tournament --format 1v3``'s
      schedule (src/tournament/schedule): sets of one game per seat on one wall, the
      challenger in seat ``g`` of the set's game ``g``, the champion in the others.
    - ``"duplicate"``: two-vs-two duplicate sets (four-player tables): two games on one
      wall, the challenger in seats 0 and 2 then 1 and 3, so each agent plays every seat of
      the wall once.

    Raises:
        ValueError: an unknown format, ``games`` not a positive multiple of a set's games.
    """
    if format in ("1v3", "1v2"):
        per_set = seats
        tables = [[0 if s == g else 1 for s in range(seats)] for g in range(seats)]
    elif format == "duplicate":
        if seats != 4:
            raise ValueError('format="duplicate" (two-vs-two) needs a four-player table; use "1v2"')
        per_set = 2
        tables = [[0, 1, 0, 1], [1, 0, 1, 0]]
    else:
        raise ValueError(f'format must be "1v3" (or "1v2") or "duplicate", not {format!r}')
    if games <= 0 or games % per_set:
        raise ValueError(f"games={games}: a positive multiple of {per_set} (one set of format {format!r})")
    nonce, key = seed
    out = []
    for index in range(games):
        s, g = divmod(index, per_set)
        out.append({"index": index, "set": s, "seats": tables[g], "seed": ((nonce + s) % 2**64, key)})
    return out


def _builtin(agent: Any) -> Optional[str]:
    if isinstance(agent, str):
        if not agent.startswith("builtin:"):
            raise ValueError(f"agent {agent!r}: a string agent is a built-in, builtin:NAME")
        return agent
    return None


def _respond(agent: Any):
    for name in ("react_batch", "think_batch"):
        method = getattr(agent, name, None)
        if callable(method):
            return method
    raise TypeError(f"agent {agent!r}: expected a builtin:NAME string or an object with react_batch(requests)")


def _name(agent: Any) -> str:
    """The CLI's default name of a built-in (``NAME`` of ``builtin:NAME``), else the
    object's ``name`` or class name."""
    if isinstance(agent, str):
        return agent[len("builtin:"):]
    return str(getattr(agent, "name", type(agent).__name__))


def evaluate(
    challenger: Any,
    champion: Any,
    games: int = 400,
    format: str = "1v3",
    rules: str = "tenhou",
    seed: Seed = 0,
    logs: Optional[Union[str, "os.PathLike[str]"]] = None,
    *,
    names: Optional[Sequence[str]] = None,
    uma: Optional[Sequence[float]] = None,
    num_envs: int = 128,
) -> Standings:
    """Plays ``games`` games of ``challenger`` against ``champion`` in process and returns
    their standings: the dict ``mjai_sim.tournament()`` returns (``bots``: challenger then
    champion, with ``avg_rank``, ``avg_pt`` and their 95 % bootstrap intervals over the
    sets, rank counts, rates, ratings; ``pairs``; ...), computed by the CLI's own code.

    Args:
        challenger, champion: ``"builtin:NAME"`` or an object with ``react_batch``
            (module docs). The same object may be both.
        games: a multiple of a set's games (4 for ``"1v3"``, 3 for ``"1v2"``, 2 for
            ``"duplicate"``).
        format: ``"1v3"`` (``mjai-sim tournament --format 1v3``'s schedule), or
            ``"duplicate"`` (two-vs-two); see :func:`schedule`.
        rules: a preset (a three-player one plays ``"1v2"``).
        seed: ``nonce`` or ``(nonce, key)``: set ``i`` plays wall ``[nonce + i, key]`` as
            ``mjai-sim tournament --seed NONCE,KEY``; the bootstrap seed is ``nonce``.
        logs: a folder: each game's mjai log as ``mjai_log.json`` in ``game-NNNNN/``
            (schedule index; the folder itself for one game), as ``mjai-sim selfplay
            --logs-dir`` writes them; names in ``start_game``: ``builtin:NAME`` for a
            built-in (selfplay's), the agent's name for a Python agent.
        names: the two agents' names in the standings (default as the CLI names bots:
            ``NAME`` for ``builtin:NAME``, else the object's ``name`` attribute or class
            name; a champion named as the challenger gets ``#2``, as the CLI's repeats).
        uma: placement points by rank (default the tournament's).
        num_envs: tables played at once (at most ``games``): the size of the agents' batches.

    Raises:
        IllegalAction: a Python agent's illegal answer (named: game, table, seat, action).
        ValueError, TypeError: bad arguments.
    """
    agents = [challenger, champion]
    builtins = [_builtin(a) for a in agents]
    labels = list(names) if names is not None else [_name(a) for a in agents]
    if len(labels) != 2:
        raise ValueError("names: two names, the challenger's and the champion's")
    if labels[0] == labels[1]:
        labels[1] += "#2"
    nonce, key = (seed, 0) if isinstance(seed, int) else (int(seed[0]), int(seed[1]))
    seats = _env.VecEnv(1, rules=rules, features=False).seats  # checks the preset too
    plan = schedule("1v2" if format == "1v3" and seats == 3 else format, games, seats, (nonce, key))
    specs = [
        {
            "seed": g["seed"],
            "seats": [builtins[b] for b in g["seats"]],
            "names": [builtins[b] or labels[b] for b in g["seats"]],
        }
        for g in plan
    ]
    tables = max(1, min(num_envs, len(plan)))
    env = _env.VecEnv(tables, rules=rules, games=specs, keep_logs=True, features=False, uma=uma)
    # Python agents by identity: one call per agent and cycle, even when it holds both sides
    holders: Dict[int, Tuple[Any, str]] = {}
    for b, a in enumerate(agents):
        if builtins[b] is None:
            holders.setdefault(id(a), (_respond(a), labels[b]))
    current = list(range(tables))  # the schedule index each table plays
    records: List[Dict[str, Any]] = []
    d = env.reset()
    while True:
        for end in d.ended:
            g = plan[end["game"]]
            chombos = [0] * seats
            for seat, _reason in end["chombos"]:
                chombos[seat] += 1
            records.append({"index": g["index"], "set": g["set"], "seats": g["seats"], "scores": end["scores"],
                            "log": end["log"], "chombos": chombos})
            current[end["table"]] = end["game"] + tables
        if len(d) == 0:
            break
        actions, who = _answers(d, plan, current, agents, holders)
        try:
            d = env.step(actions)
        except ValueError as e:  # the engine's own check of an mjai action: name it
            i = getattr(e, "row", None)
            if i is None:
                raise
            raise IllegalAction(who[i], current[e.table], e.table, e.seat, actions[i], e.reason) from None
    if logs is not None:
        _write_logs(os.fspath(logs), records, len(plan))
    text = _env.standings(labels, records, rules=rules, uma=uma, seed=nonce)
    return Standings(json.loads(text))


def _answers(d: Any, plan: List[Dict[str, Any]], current: List[int], agents: List[Any],
             holders: Dict[int, Tuple[Any, str]]) -> Tuple[List[Any], List[str]]:
    """One action per row of ``d`` (each Python agent's ``react_batch`` over its rows),
    and the name of the agent that gave it."""
    rows: Dict[int, List[int]] = {}
    requests: Dict[int, List[Dict[str, Any]]] = {}
    tables, seats = d.table.tolist(), d.seat.tolist()
    for i, (t, s) in enumerate(zip(tables, seats)):
        game = current[t]
        holder = id(agents[plan[game]["seats"][s]])
        rows.setdefault(holder, []).append(i)
        requests.setdefault(holder, []).append(
            {"table": game, "seat": s, "events": json.loads(d.events(i)), "legal": json.loads(d.legal(i))})
    actions: List[Any] = [None] * len(d)
    who: List[str] = [""] * len(d)
    for holder, idx in rows.items():
        respond, label = holders[holder]
        answers = list(respond(requests[holder]))
        if len(answers) != len(idx):
            raise ValueError(f"{label}: react_batch gave {len(answers)} actions for {len(idx)} requests")
        for i, req, a in zip(idx, requests[holder], answers):
            try:
                action = json.loads(a) if isinstance(a, str) else a
            except ValueError:
                action = a
            if not isinstance(action, dict):
                raise IllegalAction(label, req["table"], tables[i], req["seat"], a, "not an mjai action (a dict or its JSON)")
            actions[i], who[i] = action, label
    return actions, who


def _write_logs(root: str, records: List[Dict[str, Any]], games: int) -> None:
    for r in records:
        folder = root if games == 1 else os.path.join(root, f"game-{r['index']:05}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "mjai_log.json"), "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in r["log"]))
