//! Which process owns a container: the label `mjai-sim.owner=HOST/PID/START` on every
//! container and volume a seat creates, where HOST is this machine's hostname, PID the
//! referee's process id and START its start time (field 22 of `/proc/PID/stat`, clock ticks
//! since boot; it tells a reused pid from the original). `mjai-sim cleanup` removes only
//! what a gone owner left ([`Owner::is_gone`]); a live server's games stay.

use std::sync::LazyLock;

/// Label holding the owning process on every container and volume we create.
pub const LABEL_OWNER: &str = "mjai-sim.owner";

/// The owner label of this process.
pub static THIS_PROCESS: LazyLock<String> = LazyLock::new(|| {
    label_of(std::process::id()).unwrap_or_else(|| format!("{}/{}/0", hostname(), std::process::id()))
});

/// The owner label of the live process `pid` on this host; `None` when it is not running.
pub fn label_of(pid: u32) -> Option<String> {
    Some(format!("{}/{pid}/{}", hostname(), start_time(pid)?))
}

/// What a container's owner label says about its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The owning process runs (on this host): keep.
    Alive,
    /// The owner ran on this host and is gone (its pid ended or now belongs to another
    /// process): a leftover.
    Gone,
    /// No owner label (an older mjai-sim made it), a malformed one, or another host's
    /// process (this host cannot tell): kept unless `cleanup --all`.
    Unknown,
}

impl Owner {
    /// The state of the owner named by `label` (the label's value, when present).
    pub fn of(label: Option<&str>) -> Owner {
        let Some(label) = label else { return Owner::Unknown };
        let mut parts = label.rsplitn(3, '/');
        let (Some(start), Some(pid), Some(host)) = (parts.next(), parts.next(), parts.next()) else {
            return Owner::Unknown;
        };
        let (Ok(start), Ok(pid)) = (start.parse::<u64>(), pid.parse::<u32>()) else { return Owner::Unknown };
        if host != hostname() {
            return Owner::Unknown;
        }
        match start_time(pid) {
            Some(now) if now == start => Owner::Alive,
            _ => Owner::Gone,
        }
    }

    /// Whether `cleanup` (without `--all`) removes what this owner left.
    pub fn is_gone(self) -> bool {
        self == Owner::Gone
    }
}

/// This machine's hostname (`unknown` when it cannot be read).
fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).replace('/', "_")
}

/// Start time of process `pid` (clock ticks after boot), from `/proc/PID/stat`; `None` when
/// it does not run (or the file cannot be read).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_an_ended_one_is_gone() {
        assert_eq!(Owner::of(Some(&THIS_PROCESS)), Owner::Alive);
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let label = label_of(child.id()).expect("the child runs");
        assert_eq!(Owner::of(Some(&label)), Owner::Alive);
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(Owner::of(Some(&label)), Owner::Gone);
        // The same pid with another start time: a reused pid, not the owner.
        let (rest, _) = THIS_PROCESS.rsplit_once('/').unwrap();
        assert_eq!(Owner::of(Some(&format!("{rest}/1"))), Owner::Gone);
    }

    #[test]
    fn no_label_a_bad_one_or_another_host_is_unknown() {
        assert_eq!(Owner::of(None), Owner::Unknown);
        assert_eq!(Owner::of(Some("garbage")), Owner::Unknown);
        assert_eq!(Owner::of(Some("host/x/1")), Owner::Unknown);
        let pid_start = THIS_PROCESS.split_once('/').unwrap().1;
        assert_eq!(Owner::of(Some(&format!("another-host-{}/{pid_start}", hostname()))), Owner::Unknown);
    }
}
