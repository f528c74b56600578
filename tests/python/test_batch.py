"""mjai_sim.batch (batched bots' Python side): one instance per table-seat, restarts, the
end of a table, a bot that raises, a think_batch of the wrong length. In process, no
referee: the protocol lines are written by hand (docs/protocol.md "Batched bots")."""

import io
import json

from mjai_sim.batch import main, serve, serve_batched


class Counter:
    """Answers the number of lines this instance has read (its state), and its seat."""

    made = []

    def __init__(self, seat):
        self.seat, self.lines = seat, 0
        Counter.made.append(seat)

    def react(self, line):
        events = json.loads(line)
        if events[-1].get("type") == "boom":
            raise RuntimeError("boom")
        self.lines += 1
        return json.dumps({"type": "none", "seat": self.seat, "lines": self.lines})


def run(server, cycles):
    out = io.StringIO()
    server(io.StringIO("".join(json.dumps(c) + "\n" for c in cycles)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def request(table, seat, kind="tsumo", restart=False):
    r = {"table": table, "seat": seat, "events": [{"type": kind}]}
    if restart:
        r["restart"] = True
    return r


def test_each_table_seat_has_its_own_instance_and_restart_drops_it():
    Counter.made = []
    answers = run(
        lambda i, o: serve(Counter, i, o),
        [
            [request(0, 1), request(1, 1), request(0, 2)],
            [request(0, 1), request(1, 1, restart=True)],
            [request(1, 1)],
        ],
    )
    assert [[a["lines"] for a in cycle] for cycle in answers] == [[1, 1, 1], [2, 1], [2]]
    assert [a["seat"] for a in answers[0]] == [1, 1, 2]
    assert Counter.made == [1, 1, 2, 1], "three table-seats, then table 1 seat 1 again"


def test_end_game_ends_a_table_seat_and_a_raising_bot_costs_only_its_request():
    Counter.made = []
    answers = run(
        lambda i, o: serve(Counter, i, o),
        [[request(0, 0), request(0, 1, "end_game")], [request(0, 1), request(0, 0, "boom")], [request(0, 0)]],
    )
    assert answers[0][1]["lines"] == 1
    assert answers[1][0]["lines"] == 1, "a new instance after end_game"
    assert answers[1][1] == {"type": "error"}
    assert answers[2][0]["lines"] == 1, "the instance that raised is gone"


def test_a_think_batch_of_the_wrong_length_answers_errors_and_the_process_goes_on():
    cycles = [[request(0, 0), request(1, 0)], [request(0, 0)]]
    answers = run(lambda i, o: serve_batched(lambda reqs: [{"type": "none"}], i, o), cycles)
    assert answers == [[{"type": "error"}, {"type": "error"}], [{"type": "none"}]]


def test_main_plays_one_seat_without_batch(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO('[{"type":"start_game","id":3}]\n'))
    main(Counter, ["3"])
    assert json.loads(capsys.readouterr().out) == {"type": "none", "seat": 3, "lines": 1}
