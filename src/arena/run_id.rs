//! Ids of games and tournaments (also their default folder names under `logs/`).

/// `YYYYMMDD-HHMMSS-SEED` in UTC: sortable, unique enough per machine.
pub fn game_id(seed: [u64; 2]) -> String {
    format!("{}-{}", stamp(time::OffsetDateTime::now_utc()), seed[0])
}

/// `YYYYMMDD-HHMMSS` of `at` in UTC (the `time` crate's calendar).
fn stamp(at: time::OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year][month][day]-[hour][minute][second]");
    at.to_offset(time::UtcOffset::UTC).format(&format).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_the_utc_calendar_date_and_time() {
        let at = |secs: i64| time::OffsetDateTime::from_unix_timestamp(secs).unwrap();
        assert_eq!(stamp(at(0)), "19700101-000000");
        assert_eq!(stamp(at(59 * 86_400)), "19700301-000000");
        assert_eq!(stamp(at(11_016 * 86_400 + 3_661)), "20000229-010101");
        assert_eq!(stamp(at(20_780 * 86_400 + 86_399)), "20261123-235959");
    }
}
