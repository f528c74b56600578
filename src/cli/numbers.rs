//! Numeric command-line values, parsed once (by clap) into bounded types: an out-of-range
//! or malformed value is a one-line usage error naming the option's range, never a panic
//! later (`Duration::from_secs_f64(1e300)` panics).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time limit in seconds: finite, above 0, at most one day (86,400 s).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Seconds(f64);

impl Seconds {
    /// Longest accepted limit, in seconds (one day).
    pub const MAX: f64 = 86_400.0;

    /// The limit as a `Duration`.
    pub fn duration(self) -> Duration {
        Duration::from_secs_f64(self.0)
    }
}

impl FromStr for Seconds {
    type Err = String;

    fn from_str(text: &str) -> Result<Seconds, String> {
        let value: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds (e.g. 2.5)"))?;
        if !(value.is_finite() && value > 0.0 && value <= Seconds::MAX) {
            return Err(format!("{text} s is out of range: give seconds above 0 and at most {}", Seconds::MAX));
        }
        Ok(Seconds(value))
    }
}

/// A non-negative number of seconds (0 allowed), at most a day: `--time-bank`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecondsOrZero(f64);

impl SecondsOrZero {
    /// As a [`Duration`].
    pub fn duration(self) -> Duration {
        Duration::from_secs_f64(self.0)
    }
}

impl FromStr for SecondsOrZero {
    type Err = String;

    fn from_str(text: &str) -> Result<SecondsOrZero, String> {
        if text.trim().parse::<f64>() == Ok(0.0) {
            return Ok(SecondsOrZero(0.0));
        }
        text.parse::<Seconds>().map(|s| SecondsOrZero(s.0)).map_err(|e| e.replace("above 0", "from 0"))
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A whole number in `MIN..=MAX` (bounds inclusive), e.g. a count of pids or MiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bounded<const MIN: u64, const MAX: u64>(u64);

impl<const MIN: u64, const MAX: u64> Bounded<MIN, MAX> {
    /// The value.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl<const MIN: u64, const MAX: u64> FromStr for Bounded<MIN, MAX> {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let value: u64 = text.trim().parse().map_err(|_| format!("`{text}` is not a whole number"))?;
        if !(MIN..=MAX).contains(&value) {
            return Err(format!("{value} is out of range: give a whole number from {MIN} to {MAX}"));
        }
        Ok(Bounded(value))
    }
}

impl<const MIN: u64, const MAX: u64> fmt::Display for Bounded<MIN, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A memory size in bytes, written `512m`, `4g`, `1.5g` or a plain number of bytes
/// (suffixes `k`, `m`, `g`, `t`, binary: 1k = 1024 bytes, case-insensitive, optional `b`
/// or `ib`). Bounded: Docker's minimum of 6 MiB up to 1 TiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct MemorySize(u64);

impl MemorySize {
    /// Smallest accepted size, in bytes (Docker refuses less than 6 MiB).
    pub const MIN: u64 = 6 << 20;
    /// Largest accepted size, in bytes: 1 TiB.
    pub const MAX: u64 = 1 << 40;

    /// The size in bytes.
    pub fn bytes(self) -> u64 {
        self.0
    }
}

impl FromStr for MemorySize {
    type Err = String;

    fn from_str(text: &str) -> Result<MemorySize, String> {
        let lower = text.trim().to_ascii_lowercase();
        let unit = lower.trim_end_matches("ib").trim_end_matches('b');
        let (number, shift) = match unit.char_indices().last() {
            Some((i, 'k')) => (&unit[..i], 10),
            Some((i, 'm')) => (&unit[..i], 20),
            Some((i, 'g')) => (&unit[..i], 30),
            Some((i, 't')) => (&unit[..i], 40),
            _ => (unit, 0),
        };
        let err = || format!("`{text}` is not a memory size (e.g. 512m, 4g, or a number of bytes)");
        let value: f64 = number.parse().map_err(|_| err())?;
        let bytes = value * (1u64 << shift) as f64;
        if !(bytes.is_finite() && bytes >= MemorySize::MIN as f64 && bytes <= MemorySize::MAX as f64) {
            return Err(format!("{text} is out of range: give from 6m to 1t"));
        }
        Ok(MemorySize(bytes as u64))
    }
}

impl fmt::Display for MemorySize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            b if b % (1 << 30) == 0 => write!(f, "{}g", b >> 30),
            b if b % (1 << 20) == 0 => write!(f, "{}m", b >> 20),
            b => write!(f, "{b}"),
        }
    }
}

/// A CPU limit in CPUs: finite, from 0.01 to 1024 (Docker's `--cpus`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Cpus(f64);

impl Cpus {
    /// The limit, in CPUs.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl FromStr for Cpus {
    type Err = String;

    fn from_str(text: &str) -> Result<Cpus, String> {
        let value: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of CPUs (e.g. 1.5)"))?;
        if !(value.is_finite() && (0.01..=1024.0).contains(&value)) {
            return Err(format!("{text} CPUs is out of range: give from 0.01 to 1024"));
        }
        Ok(Cpus(value))
    }
}

impl fmt::Display for Cpus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuse_what_duration_would_panic_on() {
        assert!("1e300".parse::<Seconds>().unwrap_err().contains("out of range"));
        assert!("inf".parse::<Seconds>().is_err());
        assert!("NaN".parse::<Seconds>().is_err());
        assert!("0".parse::<Seconds>().is_err());
        assert!("-1".parse::<Seconds>().is_err());
        assert!("two".parse::<Seconds>().unwrap_err().contains("not a number"));
        assert_eq!("2.5".parse::<Seconds>().unwrap().duration(), Duration::from_millis(2500));
        assert_eq!("86400".parse::<Seconds>().unwrap().duration(), Duration::from_secs(86_400));
    }

    #[test]
    fn bounded_integers_keep_to_their_range() {
        type Pids = Bounded<16, 4_194_304>;
        assert_eq!("512".parse::<Pids>().unwrap().get(), 512);
        assert!("15".parse::<Pids>().unwrap_err().contains("from 16 to 4194304"));
        assert!("99999999999999999999".parse::<Pids>().is_err());
        assert!("-3".parse::<Pids>().is_err());
    }

    #[test]
    fn memory_sizes_take_binary_suffixes() {
        let m = |s: &str| s.parse::<MemorySize>().map(MemorySize::bytes);
        assert_eq!(m("512m"), Ok(512 * 1024 * 1024));
        assert_eq!(m("4G"), Ok(4 * 1024 * 1024 * 1024));
        assert_eq!(m("1.5gib"), Ok(3 * 512 * 1024 * 1024));
        assert_eq!(m("8388608"), Ok(8 * 1024 * 1024));
        assert!(m("5m").unwrap_err().contains("out of range"));
        assert!(m("2t").is_err());
        assert!(m("1e300g").is_err());
        assert!(m("lots").unwrap_err().contains("not a memory size"));
        assert_eq!("4g".parse::<MemorySize>().unwrap().to_string(), "4g");
    }

    #[test]
    fn cpus_are_bounded() {
        assert_eq!("1.5".parse::<Cpus>().unwrap().get(), 1.5);
        assert!("0".parse::<Cpus>().is_err());
        assert!("1e300".parse::<Cpus>().is_err());
        assert!("NaN".parse::<Cpus>().is_err());
    }
}
