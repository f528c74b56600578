//! Hostile bots (issue 19): each misbehaves once (or in every incarnation) in its own
//! way — floods stdout with and without newlines, writes one line just under and just over
//! the 1 MiB cap (and an 8 MiB one), stops reading stdin, closes stdout but keeps running,
//! forks a child that holds the pipes, SIGSTOPs itself, ignores SIGTERM, sleeps in
//! `start_game` — and is played over stdio and http, alone and in a 2-set tournament with
//! `--jobs 2`; the bots of the reproduction also by a PostgreSQL worker. Every game ends
//! with the right seat punished, within a stated bound, and no container left
//! ([`harness::Sandbox`]). SIGTERM stops a game, a tournament and a worker within
//! [`signals::SIGNAL_BOUND`] whatever the bot does.
//!
//! Needs a running Docker Engine, the bot image (`mjai-sim image build`) and PostgreSQL's
//! server binaries (`scripts/test` installs them).

#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../pg_support/mod.rs"]
mod pg_support;

mod alone;
mod catalogue;
mod harness;
mod signals;
mod tournament;
mod watchdog;
mod worker;

fn ready() {
    e2e_support::require_docker();
    e2e_support::require_image();
}

/// For each hostile bot: a module with its four plays (stdio and http, alone and in a
/// tournament).
macro_rules! each_hostile_bot {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            use super::*;
            fn bot() -> catalogue::Hostile {
                catalogue::by_name(stringify!($name))
            }
            #[test]
            fn alone_over_stdio() {
                ready();
                alone::play(&bot(), "stdio");
            }
            #[test]
            fn alone_over_http() {
                ready();
                alone::play(&bot(), "http");
            }
            #[test]
            fn in_a_tournament_over_stdio() {
                ready();
                tournament::play(&bot(), "stdio");
            }
            #[test]
            fn in_a_tournament_over_http() {
                ready();
                tournament::play(&bot(), "http");
            }
        }
    )*};
}

each_hostile_bot!(
    huge_line,
    endless_line,
    flood_lines,
    line_under_cap,
    line_over_cap,
    stops_reading,
    closes_stdout,
    forks_holder,
    sigstops_itself,
    ignores_sigterm,
    slow_start,
    stuck_start,
);

#[test]
fn catalogue_and_test_list_agree() {
    // Every catalogued bot has its module above (the list is written twice: keep them equal).
    let listed = [
        "huge_line",
        "endless_line",
        "flood_lines",
        "line_under_cap",
        "line_over_cap",
        "stops_reading",
        "closes_stdout",
        "forks_holder",
        "sigstops_itself",
        "ignores_sigterm",
        "slow_start",
        "stuck_start",
    ];
    let catalogued: Vec<&str> = catalogue::ALL.iter().map(|h| h.name).collect();
    assert_eq!(catalogued, listed);
}

#[test]
fn huge_line_in_a_postgresql_worker() {
    ready();
    worker::play(&catalogue::by_name("huge_line"));
}

#[test]
fn endless_line_in_a_postgresql_worker() {
    ready();
    worker::play(&catalogue::by_name("endless_line"));
}

#[test]
fn sigterm_stops_a_game_whose_bot_ignores_sigterm() {
    ready();
    signals::main_job(&catalogue::by_name("ignores_sigterm"), "stdio");
}

#[test]
fn sigterm_stops_a_game_whose_bot_stopped_reading() {
    ready();
    signals::main_job(&catalogue::by_name("stops_reading"), "stdio");
}

#[test]
fn sigterm_stops_a_game_whose_bot_floods_stdout() {
    ready();
    signals::main_job(&catalogue::by_name("endless_line"), "stdio");
}

#[test]
fn sigterm_stops_a_game_whose_bot_is_sigstopped() {
    ready();
    signals::main_job(&catalogue::by_name("sigstops_itself"), "stdio");
}

#[test]
fn sigterm_stops_a_game_whose_bot_is_sigstopped_over_http() {
    ready();
    signals::main_job(&catalogue::by_name("sigstops_itself"), "http");
}

#[test]
fn sigterm_stops_a_tournament_whose_bot_is_sigstopped() {
    ready();
    signals::tournament(&catalogue::by_name("sigstops_itself"));
}

#[test]
fn sigterm_stops_a_worker_whose_bot_is_sigstopped() {
    ready();
    signals::worker(&catalogue::by_name("sigstops_itself"));
}

#[test]
fn a_game_over_its_game_timeout_fails_and_leaves_nothing() {
    ready();
    watchdog::game();
}

#[test]
fn a_tournament_retries_a_game_over_its_game_timeout_once_then_reports_it() {
    ready();
    watchdog::tournament();
}
