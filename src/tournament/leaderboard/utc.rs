//! UTC times as the read API and the pages print them: RFC 3339 with milliseconds
//! (`2026-11-27T17:05:03.123Z`) from milliseconds since the Unix epoch, and back from the
//! forms a caller may give (`2026-11-27`, `2026-11-27T17:05:03Z`, `...+09:00`, with or
//! without a fraction). Proleptic Gregorian calendar, years 0000 to 9999; no leap seconds.

/// Milliseconds of one day.
const DAY_MS: i64 = 86_400_000;

/// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date `(year, month, day)` of a day since 1970-01-01 (`civil_from_days`).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `ms` (since the Unix epoch, UTC) as RFC 3339 with milliseconds, e.g.
/// `2026-11-27T17:05:03.123Z`. Times outside years 0000..=9999 are clamped to them.
pub fn rfc3339(ms: i64) -> String {
    let ms = ms.clamp(days_from_civil(0, 1, 1) * DAY_MS, days_from_civil(10_000, 1, 1) * DAY_MS - 1);
    let (days, rest) = (ms.div_euclid(DAY_MS), ms.rem_euclid(DAY_MS));
    let (y, m, d) = civil_from_days(days);
    let (h, min, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}

/// The number of `text` when it is exactly `n` ASCII digits.
fn digits(text: &str, n: usize) -> Option<i64> {
    (text.len() == n && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

/// The days since the epoch of `YYYY-MM-DD`, a real date.
fn date(text: &str) -> Option<i64> {
    let (y, m, d) = (digits(text.get(0..4)?, 4)?, digits(text.get(5..7)?, 2)?, digits(text.get(8..10)?, 2)?);
    if text.len() != 10 || &text[4..5] != "-" || &text[7..8] != "-" || !(1..=12).contains(&m) || d < 1 {
        return None;
    }
    let next = if m == 12 { days_from_civil(y + 1, 1, 1) } else { days_from_civil(y, m + 1, 1) };
    let day = days_from_civil(y, m, d);
    (day < next).then_some(day)
}

/// Milliseconds since the epoch of `text`: a date `YYYY-MM-DD` (its midnight, UTC) or an
/// RFC 3339 time `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T` or `t` or a space; `z`
/// too). `None` for anything else, an impossible date or time included (leap seconds are
/// refused). A fraction finer than milliseconds is cut.
pub fn parse(text: &str) -> Option<i64> {
    let day = date(text.get(0..10)?)?;
    if text.len() == 10 {
        return Some(day * DAY_MS);
    }
    let rest = &text[10..];
    let mut chars = rest.chars();
    if !matches!(chars.next(), Some('T' | 't' | ' ')) {
        return None;
    }
    let time = &rest[1..];
    let (h, m, s) = (digits(time.get(0..2)?, 2)?, digits(time.get(3..5)?, 2)?, digits(time.get(6..8)?, 2)?);
    if &time[2..3] != ":" || &time[5..6] != ":" || h > 23 || m > 59 || s > 59 {
        return None;
    }
    let mut tail = &time[8..];
    let mut milli = 0;
    if let Some(fraction) = tail.strip_prefix('.') {
        let n = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let first3 = format!("{:0<3}", &fraction[..n.min(3)]);
        milli = first3.parse::<i64>().ok()?;
        tail = &fraction[n..];
    }
    let offset_min = match tail {
        "Z" | "z" => 0,
        _ => {
            let sign = match tail.get(0..1)? {
                "+" => 1,
                "-" => -1,
                _ => return None,
            };
            let (oh, om) = (digits(tail.get(1..3)?, 2)?, digits(tail.get(4..6)?, 2)?);
            if tail.len() != 6 || &tail[3..4] != ":" || oh > 23 || om > 59 {
                return None;
            }
            sign * (oh * 60 + om)
        }
    };
    Some(day * DAY_MS + ((h * 60 + m - offset_min) * 60 + s) * 1000 + milli)
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
