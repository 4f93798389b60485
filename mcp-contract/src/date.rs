//! Calendar dates: the migration record's (`deprecated`, `until`) and the
//! usage evidence's days. Parsed strictly as `YYYY-MM-DD`, compared to
//! today's date in UTC. No time zones, no times of day: a transition ends on
//! a day, not at an instant, and usage is counted per UTC day. Outside the
//! `gate` feature, because a server's usage recorder dates its counts too.

use std::fmt;

/// A proleptic Gregorian calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// A valid date, or `None` (month 13, February 30, ...).
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date { year, month, day })
    }

    /// Parses exactly `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let part = &s[r];
            if part.bytes().all(|c| c.is_ascii_digit()) {
                part.parse().ok()
            } else {
                None
            }
        };
        Date::new(
            u16::try_from(num(0..4)?).ok()?,
            u8::try_from(num(5..7)?).ok()?,
            u8::try_from(num(8..10)?).ok()?,
        )
    }

    /// Today in UTC.
    pub fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Date::from_unix_days((secs / 86_400) as i64)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil); the
    /// inverse of [`Date::from_unix_days`].
    pub fn to_unix_days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `n` days later (earlier for a negative `n`).
    pub fn plus_days(self, n: i64) -> Date {
        Date::from_unix_days(self.to_unix_days() + n)
    }

    /// The date `days` days after 1970-01-01 (Howard Hinnant's civil_from_days).
    pub fn from_unix_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Date { year, month, day }
    }
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        _ => 28,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_strictly() {
        assert_eq!(Date::parse("2024-02-29"), Date::new(2024, 2, 29));
        assert!(Date::parse("2024-02-29").is_some());
        assert_eq!(Date::parse("2023-02-29"), None);
        assert_eq!(Date::parse("2023-13-01"), None);
        assert_eq!(Date::parse("2023-1-01"), None);
        assert_eq!(Date::parse("2023-01-01T00:00:00Z"), None);
        assert_eq!(Date::parse("+023-01-01"), None);
    }

    #[test]
    fn converts_unix_days() {
        assert_eq!(Date::from_unix_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_unix_days(19_782).to_string(), "2024-02-29");
        assert_eq!(Date::from_unix_days(10_957).to_string(), "2000-01-01");
        assert!(Date::today() > Date::new(2024, 1, 1).unwrap());
        for d in [0, 59, 60, 10_957, 19_782, 20_425, -1] {
            assert_eq!(Date::from_unix_days(d).to_unix_days(), d);
        }
        assert_eq!(
            Date::parse("2024-02-28").unwrap().plus_days(1).to_string(),
            "2024-02-29"
        );
    }
}
