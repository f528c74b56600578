//! UTC times as the read API and the pages print them: RFC 3339 with milliseconds
//! (`2026-11-27T17:05:03.123Z`) from milliseconds since the Unix epoch, and back from the
//! forms a caller may give (`2026-11-27`, `2026-11-27T17:05:03Z`, `...+09:00`, with or
//! without a fraction). Years 0000 to 9999; no leap seconds. The calendar is the `time`
//! crate's (the program's one time crate; `arena::run_id` uses it too).

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

/// Milliseconds since the epoch of 0000-01-01T00:00:00.000Z and of
/// 9999-12-31T23:59:59.999Z, the range printed.
const FIRST_MS: i64 = -62_167_219_200_000;
const LAST_MS: i64 = 253_402_300_799_999;

/// `ms` (since the Unix epoch, UTC) as RFC 3339 with milliseconds, e.g.
/// `2026-11-27T17:05:03.123Z`. Times outside years 0000..=9999 are clamped to them.
pub fn rfc3339(ms: i64) -> String {
    let ms = ms.clamp(FIRST_MS, LAST_MS);
    let at =
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    at.format(&format).unwrap_or_default()
}

/// Milliseconds since the epoch of `text`: a date `YYYY-MM-DD` (its midnight, UTC) or an
/// RFC 3339 time `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T` or `t` or a space; `z`
/// too). `None` for anything else, an impossible date or time included (leap seconds are
/// refused). A fraction finer than milliseconds is cut.
pub fn parse(text: &str) -> Option<i64> {
    if text.len() == 10 {
        let day = Date::parse(text, format_description!("[year]-[month]-[day]")).ok()?;
        return Some(millis(PrimitiveDateTime::new(day, Time::MIDNIGHT).assume_utc()));
    }
    // RFC 3339 (section 5.6, note) allows a space for the `T`
    let text = match text.as_bytes().get(10) {
        Some(b' ') => format!("{}T{}", text.get(..10)?, text.get(11..)?),
        _ => text.to_string(),
    };
    let at = OffsetDateTime::parse(&text, &Rfc3339).ok()?;
    // `time` reads 23:59:60 as a leap second; refused here, as every other second 60
    (text.as_bytes().get(17..19) != Some(b"60")).then(|| millis(at))
}

/// Milliseconds since the epoch of `at`, a fraction finer than milliseconds cut.
fn millis(at: OffsetDateTime) -> i64 {
    (at.unix_timestamp_nanos().div_euclid(1_000_000)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_rfc3339_and_parse_back() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_799_103_123), "2026-11-27T17:05:03.123Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        for ms in [0, 1_795_799_103_123, 951_782_400_000, -1, 4_102_444_799_999] {
            assert_eq!(parse(&rfc3339(ms)), Some(ms), "{ms}");
        }
        assert_eq!(parse("2026-11-27"), Some(1_795_737_600_000));
        assert_eq!(parse("2026-11-27T17:05:03Z"), Some(1_795_799_103_000));
        assert_eq!(parse("2026-11-28T02:05:03.1234+09:00"), Some(1_795_799_103_123));
        assert_eq!(parse("2026-11-27 17:05:03-00:30"), Some(1_795_800_903_000));
    }

    #[test]
    fn anything_else_is_refused_without_a_panic() {
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-02-29",
            "2026-00-10",
            "2026-01-00",
            "2026-1-01",
            "+026-01-01",
            "2026-11-27T",
            "2026-11-27T24:00:00Z",
            "2026-11-27T10:60:00Z",
            "2026-11-27T10:00:60Z",
            "2026-11-27T10:00:00",
            "2026-11-27T10:00:00.Z",
            "2026-11-27T10:00:00+0900",
            "2026-11-27x",
            "2026-11-27T10:00:00Zjunk",
            "２０２６-11-27",
            "2026-11-27T1０:00:00Z",
            "2026-11-27T10:00:00+24:00",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
