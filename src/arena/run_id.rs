//! Ids of games and tournaments (also their default folder names under `logs/`).

/// `YYYYMMDD-HHMMSS-SEED` in UTC: sortable, unique enough per machine.
pub fn game_id(seed: [u64; 2]) -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_date(secs / 86_400);
    let s = secs % 86_400;
    format!("{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{}", s / 3600, s / 60 % 60, s % 60, seed[0])
}

/// Year, month, day of a count of days since 1970-01-01 (proleptic Gregorian).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let (mut year, mut rest) = (1970, days);
    loop {
        let len = if is_leap(year) { 366 } else { 365 };
        if rest < len {
            break;
        }
        rest -= len;
        year += 1;
    }
    let feb = if is_leap(year) { 29 } else { 28 };
    let months = [31, feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 1;
    for len in months {
        if rest < len {
            break;
        }
        rest -= len;
        month += 1;
    }
    (year, month, rest + 1)
}

fn is_leap(y: u64) -> bool {
    (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_780), (2026, 11, 23));
    }
}
