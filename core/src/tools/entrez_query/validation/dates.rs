//! Entrez dates: YYYY, YYYY/MM or YYYY/MM/DD, on the calendar, in order.
//!
//! NCBI does not reject an impossible date such as 2024/02/30 or a reversed
//! range; it quietly returns nothing, which looks exactly like "no papers".
//! Catching those here turns a silent empty result into a named mistake.
//! The same parser serves the mindate/maxdate parameters and dates written
//! inside a search term (`2020:2024[dp]`).

use crate::tools::entrez_query::args::QueryArgs;
use crate::validation::{codes, path, Report};

/// A date at the precision it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntrezDate {
    /// Four-digit year.
    pub year: u32,
    /// 1–12 when given.
    pub month: Option<u32>,
    /// 1–31 (valid for the month) when given.
    pub day: Option<u32>,
}

impl EntrezDate {
    /// The first day the date covers, as a comparable triple.
    pub fn first_day(self) -> (u32, u32, u32) {
        (self.year, self.month.unwrap_or(1), self.day.unwrap_or(1))
    }

    /// The last day the date covers, as a comparable triple.
    pub fn last_day(self) -> (u32, u32, u32) {
        let month = self.month.unwrap_or(12);
        (
            self.year,
            month,
            self.day.unwrap_or(days_in_month(self.year, month)),
        )
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Parses an Entrez date; the error says what is wrong and how to write it.
pub fn parse(text: &str) -> Result<EntrezDate, String> {
    let s = text.trim();
    let usage = "write YYYY, YYYY/MM or YYYY/MM/DD";
    if s.contains('-') || s.contains('.') {
        let fixed = s.replace(['-', '.'], "/");
        return Err(format!(
            "NCBI separates date parts with slashes, not '-' or '.'; write \"{fixed}\""
        ));
    }
    let parts: Vec<&str> = s.split('/').collect();
    let digits = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_digit());
    if parts.len() > 3 || !digits(parts[0], 4) {
        return Err(format!("{usage} (a four-digit year first)"));
    }
    let year: u32 = parts[0].parse().unwrap_or(0);
    let mut date = EntrezDate {
        year,
        month: None,
        day: None,
    };
    if let Some(m) = parts.get(1) {
        if !digits(m, 2) {
            return Err(format!("{usage} (two-digit month, e.g. 03)"));
        }
        let month: u32 = m.parse().unwrap_or(0);
        if !(1..=12).contains(&month) {
            return Err(format!("month {m} is not 01-12"));
        }
        date.month = Some(month);
    }
    if let Some(d) = parts.get(2) {
        if !digits(d, 2) {
            return Err(format!("{usage} (two-digit day, e.g. 07)"));
        }
        let day: u32 = d.parse().unwrap_or(0);
        let month = date.month.unwrap_or(1);
        let last = days_in_month(year, month);
        if day == 0 || day > last {
            return Err(format!("day {d} does not exist in {year}/{:02}", month));
        }
        date.day = Some(day);
    }
    Ok(date)
}

/// Checks mindate, maxdate, datetype and reldate of a search or link call.
pub fn check_parameters(args: &QueryArgs, report: &mut Report) {
    let (mindate, maxdate) = (args.mindate.as_deref(), args.maxdate.as_deref());
    let mut parsed = [None, None];
    for (slot, (name, given)) in [("mindate", mindate), ("maxdate", maxdate)]
        .into_iter()
        .enumerate()
    {
        let Some(text) = given else { continue };
        match parse(text) {
            Ok(d) => parsed[slot] = Some(d),
            Err(why) => {
                report.error(
                    codes::INVALID_DATE,
                    path(name),
                    format!("{name} \"{text}\" is not a valid Entrez date: {why}."),
                );
                report.suggest(format!(
                    "Give {name} as YYYY, YYYY/MM or YYYY/MM/DD, e.g. 2024/01/31."
                ));
            }
        }
    }
    if let [Some(min), Some(max)] = parsed {
        if min.first_day() > max.last_day() {
            report.error(
                codes::DATE_RANGE_REVERSED,
                path("mindate"),
                format!(
                    "mindate {} is after maxdate {}; NCBI would return nothing.",
                    mindate.unwrap_or_default(),
                    maxdate.unwrap_or_default()
                ),
            );
            report.suggest("Swap mindate and maxdate.");
        }
    }
    match (mindate, maxdate) {
        (Some(_), None) => {
            report.error(
                codes::DATE_PAIR_INCOMPLETE,
                path("maxdate"),
                "mindate was given without maxdate; NCBI applies a date range only when both are set.",
            );
            report.suggest("Add maxdate (e.g. 3000 for \"until now\"), or drop mindate.");
        }
        (None, Some(_)) => {
            report.error(
                codes::DATE_PAIR_INCOMPLETE,
                path("mindate"),
                "maxdate was given without mindate; NCBI applies a date range only when both are set.",
            );
            report.suggest("Add mindate (e.g. 1800 for \"from the start\"), or drop maxdate.");
        }
        _ => {}
    }
    let dated = mindate.is_some() || maxdate.is_some() || args.reldate.is_some();
    match (dated, args.datetype.as_deref()) {
        (true, None) => {
            report.warn(
                codes::DATETYPE_MISSING,
                path("datetype"),
                "Dates were given without datetype, so NCBI applies them to the database's default date field, which differs between databases.",
            );
            report.suggest("Set datetype to pdat (published), edat (entered), mdat (modified) or crdt (created).");
        }
        (false, Some(t)) => report.warn(
            codes::IGNORED_PARAMETER,
            path("datetype"),
            format!("datetype \"{t}\" has no effect without mindate/maxdate or reldate."),
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_is_checked() {
        assert!(parse("2024").is_ok());
        assert!(parse("2024/02/29").is_ok());
        assert!(parse("2023/02/29").unwrap_err().contains("does not exist"));
        assert!(parse("2024/13").unwrap_err().contains("month 13"));
        assert!(parse("2024-01-05").unwrap_err().contains("\"2024/01/05\""));
        assert!(parse("24/01").is_err());
        assert!(parse("2024/1").is_err());
        assert!(parse("1900/02/29").is_err());
        assert!(parse("2000/02/29").is_ok());
    }

    #[test]
    fn ranges_compare_by_covered_days() {
        let a = parse("2024/05").unwrap();
        let b = parse("2024").unwrap();
        assert!(a.first_day() <= b.last_day());
        assert!(parse("2025").unwrap().first_day() > b.last_day());
    }
}
