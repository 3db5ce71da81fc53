//! The wall-clock time of report and record lines, in RFC 3339 (UTC, to the
//! millisecond): what `traffic` reads in a recorded line's `time`.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `2026-01-31T23:59:59.123Z`.
pub(crate) fn now() -> String {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    rfc3339(since.as_secs(), since.subsec_millis())
}

/// `secs` since the Unix epoch plus `millis`, as RFC 3339 UTC.
pub(crate) fn rfc3339(secs: u64, millis: u32) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    let (y, m, d) = civil(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// days-to-civil algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn known_instants_read_back() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(rfc3339(1_798_761_599, 999), "2026-12-31T23:59:59.999Z");
    }
}
