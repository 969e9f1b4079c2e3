//! Points in time as a user types them (`--from`, `--to`, the window's fields), and as ramvram
//! shows them: UTC, so that a range reads the same on every machine of a lab.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Earliest time accepted: 2000-01-01T00:00:00Z (Prometheus did not exist before).
pub const EARLIEST: f64 = 946_684_800.0;

/// Latest time accepted: 2200-01-01T00:00:00Z.
pub const LATEST: f64 = 7_258_118_400.0;

/// A time that could not be read (the caller names the text and the accepted forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadTime;

/// Parses a point in time; `now` is the current Unix time in seconds. Accepted:
/// - RFC 3339: `2024-06-01T14:00:00Z`, `2024-06-01T22:00:00+08:00` (a space may stand for `T`);
/// - Unix seconds: `1717250400`, `1717250400.5`;
/// - `now`, and `now-4h` or `-4h` (`s`, `m`, `h`, `d`, `w`; fractions allowed: `-1.5h`).
///
/// # Errors
/// [`BadTime`]: the text is none of these, or falls outside 2000–2200.
pub fn parse_time(text: &str, now: f64) -> Result<f64, BadTime> {
    let t = text.trim();
    let value = if t.eq_ignore_ascii_case("now") {
        now
    } else if let Some(ago) = t
        .strip_prefix("now-")
        .or_else(|| t.strip_prefix("NOW-"))
        .or_else(|| t.strip_prefix('-'))
    {
        now - relative(ago).ok_or(BadTime)?
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        t.parse::<f64>().map_err(|_| BadTime)?
    } else {
        let normal = match t.as_bytes().get(10) {
            Some(b' ') if t.len() > 11 => format!("{}T{}", &t[..10], &t[11..]),
            _ => t.to_string(),
        };
        let dt = OffsetDateTime::parse(&normal, &Rfc3339).map_err(|_| BadTime)?;
        dt.unix_timestamp() as f64 + f64::from(dt.nanosecond()) / 1e9
    };
    if value.is_finite() && (EARLIEST..=LATEST).contains(&value) {
        Ok(value)
    } else {
        Err(BadTime)
    }
}

/// A step as typed: `15s`, `1m`, `500ms`, `1.5h`, or plain seconds (`30`), in seconds.
///
/// # Errors
/// [`BadTime`] for anything else, or a step that is not positive.
pub fn parse_step(text: &str) -> Result<f64, BadTime> {
    let t = text.trim();
    let seconds = if let Some(ms) = t.strip_suffix("ms") {
        relative(&format!("{ms}s")).map(|s| s / 1000.0)
    } else if t.bytes().last().is_some_and(|b| b.is_ascii_digit()) {
        relative(&format!("{t}s"))
    } else {
        relative(t)
    };
    seconds.filter(|s| *s > 0.0).ok_or(BadTime)
}

/// `4h`, `30m`, `1.5d` in seconds.
fn relative(text: &str) -> Option<f64> {
    let unit = text.chars().last()?;
    let scale = match unit {
        's' => 1.0,
        'm' => 60.0,
        'h' => 3600.0,
        'd' => 86_400.0,
        'w' => 604_800.0,
        _ => return None,
    };
    let number = &text[..text.len() - 1];
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let v: f64 = number.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v * scale)
}

fn datetime(t: f64) -> Option<OffsetDateTime> {
    if !t.is_finite() {
        return None;
    }
    OffsetDateTime::from_unix_timestamp(t.floor() as i64).ok()
}

/// `2024-06-01 14:00:00 UTC`; the number of seconds for a time out of range.
pub fn format_utc(t: f64) -> String {
    match datetime(t) {
        Some(d) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
            d.year(),
            u8::from(d.month()),
            d.day(),
            d.hour(),
            d.minute(),
            d.second()
        ),
        None => format!("{t}"),
    }
}

/// `14:00:00` (UTC), for the second end of a range on the same day.
pub fn format_utc_time(t: f64) -> String {
    match datetime(t) {
        Some(d) => format!("{:02}:{:02}:{:02}", d.hour(), d.minute(), d.second()),
        None => format!("{t}"),
    }
}

/// True when `a` and `b` fall on the same UTC day.
pub fn same_utc_day(a: f64, b: f64) -> bool {
    match (datetime(a), datetime(b)) {
        (Some(x), Some(y)) => x.date() == y.date(),
        _ => false,
    }
}

/// `2024-06-01T14:00:00Z`, for JSON.
pub fn rfc3339(t: f64) -> String {
    datetime(t)
        .and_then(|d| d.format(&Rfc3339).ok())
        .unwrap_or_else(|| format!("{t}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_717_250_400.0; // 2024-06-01T14:00:00Z

    #[test]
    fn every_form_parses() {
        assert_eq!(parse_time("2024-06-01T14:00:00Z", 0.0), Ok(NOW));
        assert_eq!(parse_time("2024-06-01 22:00:00+08:00", 0.0), Ok(NOW));
        assert_eq!(parse_time("2024-06-01T14:00:00.5Z", 0.0), Ok(NOW + 0.5));
        assert_eq!(parse_time("1717250400", 0.0), Ok(NOW));
        assert_eq!(parse_time("1717250400.25", 0.0), Ok(NOW + 0.25));
        assert_eq!(parse_time("now", NOW), Ok(NOW));
        assert_eq!(parse_time("-4h", NOW), Ok(NOW - 4.0 * 3600.0));
        assert_eq!(parse_time("now-30m", NOW), Ok(NOW - 1800.0));
        assert_eq!(parse_time("-1.5d", NOW), Ok(NOW - 1.5 * 86_400.0));
        assert_eq!(parse_time("-1w", NOW), Ok(NOW - 604_800.0));
    }

    #[test]
    fn nonsense_is_refused() {
        for bad in [
            "",
            "yesterday",
            "-4",
            "-h",
            "now-",
            "-4y",
            "1e10",
            "2024-13-01T00:00:00Z",
            "2024-06-01",
            "12",
            "99999999999",
            "-NaNh",
            "--4h",
        ] {
            assert!(parse_time(bad, NOW).is_err(), "{bad}");
        }
    }

    #[test]
    fn steps_parse() {
        assert_eq!(parse_step("15s"), Ok(15.0));
        assert_eq!(parse_step("1m"), Ok(60.0));
        assert_eq!(parse_step("500ms"), Ok(0.5));
        assert_eq!(parse_step("30"), Ok(30.0));
        for bad in ["", "0s", "fast", "-1s", "1y", "ms"] {
            assert!(parse_step(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn times_are_shown_in_utc() {
        assert_eq!(format_utc(NOW), "2024-06-01 14:00:00 UTC");
        assert_eq!(format_utc_time(NOW + 3725.0), "15:02:05");
        assert_eq!(rfc3339(NOW), "2024-06-01T14:00:00Z");
        assert!(same_utc_day(NOW, NOW + 3600.0));
        assert!(!same_utc_day(NOW, NOW + 86_400.0));
    }
}
