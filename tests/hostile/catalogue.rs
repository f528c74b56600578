//! The hostile bots: each plays tsumogiri, except at one moment where it misbehaves in its
//! own way — its first draw of East 1 (honba 0), or its `start_game`. After the chombo the
//! game moves to East 2 and its fresh incarnation plays legally, so every hostile bot but
//! `stuck_start` costs its seat exactly one chombo (or none, where the misbehaviour is
//! within the rules).

use std::path::Path;

/// What a hostile bot must cost its seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Exactly this many chombos, all of the hostile seat; nobody else pays one.
    Chombos(u32),
    /// At least one chombo per game, every one of them the hostile seat's (a bot that
    /// misbehaves in every incarnation pays each hand until the game ends).
    EveryHand,
}

/// One hostile bot.
#[derive(Debug, Clone, Copy)]
pub struct Hostile {
    /// Its name (test names and error messages).
    pub name: &'static str,
    /// The Python body of `misbehave(last)`, run at its first draw of East 1; returns
    /// True when it answered itself.
    pub on_draw: &'static str,
    /// The Python body of `on_start_game()`, run when a line begins with `start_game`.
    pub on_start: &'static str,
    /// What it costs.
    pub expect: Expect,
}

const PASS: &str = "    pass";

/// The catalogue (issue 19, item 5, and the two bots of its reproduction).
pub const ALL: [Hostile; 12] = [
    Hostile {
        name: "huge_line",
        on_draw: "    say('misbehaving')\n    out.write('{\"type\":\"none\",\"pad\":\"' + 'x' * (8 << 20) + '\"}\\n'); out.flush()\n    return True",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "endless_line",
        on_draw: "    say('misbehaving')\n    chunk = 'x' * 65536\n    while True:\n        out.write(chunk); out.flush()",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "flood_lines",
        on_draw: "    say('misbehaving')\n    lines = '{\"type\":\"none\"}\\n' * 4096\n    while True:\n        out.write(lines); out.flush()",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "line_under_cap",
        on_draw: "    head = json.dumps(dahai(last))[:-1] + ',\"meta\":{\"pad\":\"'\n    pad = 1048576 - len(head) - len('\"}}')\n    out.write(head + 'x' * pad + '\"}}\\n'); out.flush()\n    return True",
        on_start: PASS,
        expect: Expect::Chombos(0),
    },
    Hostile {
        name: "line_over_cap",
        on_draw: "    say('misbehaving')\n    head = json.dumps(dahai(last))[:-1] + ',\"meta\":{\"pad\":\"'\n    pad = 1048577 - len(head) - len('\"}}')\n    out.write(head + 'x' * pad + '\"}}\\n'); out.flush()\n    return True",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "stops_reading",
        on_draw: "    answer(dahai(last))\n    say('misbehaving')\n    while True:\n        time.sleep(3600)",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "closes_stdout",
        on_draw: "    say('misbehaving')\n    os.close(1)\n    while True:\n        time.sleep(3600)",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "forks_holder",
        on_draw: "    say('misbehaving')\n    if os.fork() == 0:\n        while True:\n            time.sleep(3600)\n    os._exit(3)",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "sigstops_itself",
        on_draw: "    say('misbehaving')\n    os.kill(os.getpid(), signal.SIGSTOP)\n    return False",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "ignores_sigterm",
        on_draw: "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n    say('misbehaving')\n    while True:\n        time.sleep(3600)",
        on_start: PASS,
        expect: Expect::Chombos(1),
    },
    Hostile {
        name: "slow_start",
        on_draw: "    return False",
        on_start: "    time.sleep(SLOW_START)",
        expect: Expect::Chombos(0),
    },
    Hostile {
        name: "stuck_start",
        on_draw: "    return False",
        on_start: "    say('misbehaving')\n    while True:\n        time.sleep(3600)",
        expect: Expect::EveryHand,
    },
];

/// Seconds `slow_start` sleeps in `start_game`: longer than the decision timeout the tests
/// use (2 s), shorter than their start timeout.
pub const SLOW_START: f64 = 3.0;

/// The bot's source.
pub fn source(h: &Hostile) -> String {
    format!(
        r#""""Hostile test bot `{name}`: tsumogiri, but see misbehave() and on_start_game()."""
import json, os, signal, sys, time

SEAT = int(sys.argv[1])
SLOW_START = {SLOW_START}
out = sys.stdout


def say(text):
    sys.stderr.write(text + "\n"); sys.stderr.flush()


def answer(obj):
    out.write(json.dumps(obj, separators=(",", ":")) + "\n"); out.flush()


def dahai(last):
    return {{"type": "dahai", "actor": SEAT, "pai": last["pai"], "tsumogiri": True}}


def misbehave(last):
{on_draw}


def on_start_game():
{on_start}


def main():
    e1 = False
    for line in sys.stdin:
        events = json.loads(line)
        if events and events[0].get("type") == "start_game":
            on_start_game()
        for e in events:
            if e.get("type") == "start_kyoku":
                e1 = e["bakaze"] == "E" and e["kyoku"] == 1 and e["honba"] == 0
        last = events[-1]
        if last.get("type") == "tsumo" and last.get("actor") == SEAT:
            if e1:
                e1 = False
                if misbehave(last):
                    continue
            answer(dahai(last))
        else:
            answer({{"type": "none"}})


main()
"#,
        name = h.name,
        on_draw = h.on_draw,
        on_start = h.on_start,
    )
}

/// Writes the bot as a folder submission (`bot.py`) in `dir`.
pub fn write_folder(h: &Hostile, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("bot.py"), source(h)).unwrap();
}

/// The bot named `name`.
pub fn by_name(name: &str) -> Hostile {
    *ALL.iter().find(|h| h.name == name).unwrap_or_else(|| panic!("no hostile bot {name}"))
}
