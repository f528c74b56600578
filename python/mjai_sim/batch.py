"""Batched bots: one process serves every seat a bot holds in every game of a run.

Protocol version 1 (docs/protocol.md "Batched bots"). A submission opts in with
``batch = true`` in ``mjai-sim.toml`` at its root; mjai-sim then starts it once as
``python3 -u bot.py --batch``. Each line it reads is a JSON array of requests::

    [{"table": 3, "seat": 0, "events": [...]}, {"table": 7, "seat": 2, "restart": true, "events": [...]}]

``events`` is exactly the line that seat would read one process per seat (masked for that
seat: a bot never sees another seat's tiles, even its own other seat at the same table).
``restart`` is present on the first request of a table-seat after a chombo: drop its
state first. The answer is one line: a JSON array of mjai actions, one per request, in
the same order.

Two ways to use it, stdlib only (this file is also in mjai-sim's bot images and on the
process runtime's path, so ``import mjai_sim.batch`` works inside a submission):

- An ordinary mjai.app bot class, unchanged (anything with ``react(line) -> line``, such
  as ``mjai.Bot`` subclasses), one instance per table-seat::

      from mjai_sim.batch import main
      from mybot import MyBot
      main(MyBot)          # `bot.py SEAT` as on mjai.app, `bot.py --batch` batched

- A bot that batches its network: ``serve_batched(think_batch)`` hands each cycle's
  requests to ``think_batch(requests) -> actions`` (one forward pass per cycle).

A request whose bot raises is answered ``{"type": "error"}`` (that table's chombo, as a
crash of its process would be); the other tables go on. The traceback goes to stderr.
"""

import json
import sys
import traceback

PROTOCOL = 1

__all__ = ["PROTOCOL", "main", "serve", "serve_batched", "Tables"]


def _dumps(value):
    return json.dumps(value, separators=(",", ":"))


def serve_batched(think_batch, stdin=None, stdout=None):
    """Reads cycles from ``stdin`` until it closes; answers each with ``think_batch``.

    ``think_batch(requests)`` gets the list of request dicts (``table``, ``seat``,
    ``events``, maybe ``restart``) and returns one action per request, in order: a dict or
    a JSON string. An exception there answers every request of the cycle with an error
    action (their tables' chombos) and the process goes on.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for line in stdin:
        if not line.strip():
            continue
        requests = json.loads(line)
        try:
            actions = list(think_batch(requests))
            if len(actions) != len(requests):
                raise ValueError(f"think_batch gave {len(actions)} actions for {len(requests)} requests")
            actions = [json.loads(a) if isinstance(a, str) else a for a in actions]
        except Exception:  # noqa: BLE001 - one cycle's failure must not end the process
            traceback.print_exc(file=sys.stderr)
            actions = [{"type": "error"} for _ in requests]
        stdout.write(_dumps(actions) + "\n")
        stdout.flush()


class Tables:
    """One bot instance per table-seat, made by ``make_bot(seat)``; drops an instance on
    ``restart`` and after ``end_game``.
    """

    def __init__(self, make_bot):
        self.make_bot = make_bot
        self.bots = {}

    def bot(self, request):
        """The instance of the request's table-seat: a new one on its first request and
        on ``restart``."""
        key = (request["table"], request["seat"])
        if request.get("restart") or key not in self.bots:
            self.bots[key] = self.make_bot(request["seat"])
        return self.bots[key]

    def react(self, request):
        """The action (a dict) of the request's table-seat."""
        key = (request["table"], request["seat"])
        bot = self.bot(request)
        events = request["events"]
        try:
            answer = bot.react(_dumps(events))
            action = json.loads(answer) if isinstance(answer, str) else answer
        except Exception:  # noqa: BLE001 - that table's chombo, not the process's end
            traceback.print_exc(file=sys.stderr)
            self.bots.pop(key, None)
            return {"type": "error"}
        if events and events[-1].get("type") == "end_game":
            self.bots.pop(key, None)
        return action

    def think_batch(self, requests):
        """Each request's action, in order."""
        return [self.react(r) for r in requests]


def serve(make_bot, stdin=None, stdout=None):
    """Serves cycles with one ``make_bot(seat)`` instance per table-seat (its ``react``)."""
    serve_batched(Tables(make_bot).think_batch, stdin, stdout)


def main(make_bot, argv=None):
    """``bot.py --batch``: :func:`serve`; ``bot.py SEAT``: one seat, mjai.app's loop (one
    line in, ``make_bot(SEAT).react(line)`` out)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--batch":
        serve(make_bot)
        return
    bot = make_bot(int(argv[0]) if argv else 0)
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = bot.react(line.strip())
        print(answer if isinstance(answer, str) else _dumps(answer), flush=True)
