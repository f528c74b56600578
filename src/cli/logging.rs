//! Diagnostics for people: a `tracing` subscriber writing to stderr, so the warnings the
//! runtimes and the arena emit (a container that cannot be removed, a stderr log that
//! stopped, unrequested lines a bot printed) are seen.
//!
//! Level: `warn` by default; each `-v` raises it (info, debug, trace), each `-q` lowers it
//! (error, off). `RUST_LOG` (an `EnvFilter` directive such as `mjai_sim=debug`) replaces
//! the level given by the flags when it is set. sqlx's "slow statement" warnings (a
//! tournament's final read of every result is expected to take seconds) show from `-vv` on.
//! Progress lines and tables are not logs:
//! they are printed by the commands themselves (progress on stderr, results on stdout).

use tracing_subscriber::EnvFilter;

/// The default filter for `verbose` `-v` and `quiet` `-q` flags.
pub fn level(verbose: u8, quiet: u8) -> &'static str {
    match i16::from(verbose) - i16::from(quiet) {
        i16::MIN..=-2 => "off",
        -1 => "error",
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    }
}

/// The default directive: [`level`], with sqlx's statement logging kept to errors below `-vv`.
pub fn directive(verbose: u8, quiet: u8) -> String {
    let level = level(verbose, quiet);
    match level {
        "warn" | "info" => {
            let directive = format!("{level},sqlx::query=error,{}=info", crate::arena::launch::IMAGE_PROGRESS);
            #[cfg(feature = "server")]
            let directive = format!("{directive},{}=info", crate::serve::AUDIT);
            directive
        }
        _ => level.to_string(),
    }
}

/// Installs the subscriber (once per process; later calls do nothing). Lines go to stderr
/// without colours when stderr is not a terminal.
pub fn init(verbose: u8, quiet: u8) {
    let filter = match std::env::var("RUST_LOG") {
        Ok(directive) if !directive.trim().is_empty() => EnvFilter::new(directive),
        _ => EnvFilter::new(directive(verbose, quiet)),
    };
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_move_the_level_from_warn() {
        assert_eq!(level(0, 0), "warn");
        assert_eq!(level(1, 0), "info");
        assert_eq!(level(2, 0), "debug");
        assert_eq!(level(9, 0), "trace");
        assert_eq!(level(0, 1), "error");
        assert_eq!(level(0, 2), "off");
        assert_eq!(level(1, 1), "warn");
    }

    #[test]
    fn sqlx_statement_warnings_show_from_debug_on() {
        assert_eq!(directive(0, 0), "warn,sqlx::query=error,mjai_sim::image=info,mjai_sim::audit=info");
        assert_eq!(directive(2, 0), "debug");
        assert_eq!(directive(0, 1), "error");
    }
}
