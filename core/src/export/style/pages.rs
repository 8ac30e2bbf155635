//! Page ranges in the forms CSL names (`page-range-format`): written out in full
//! ("expanded": 321–328), only the digits that change ("minimal": 321–8), or the Chicago
//! Manual's rules ("chicago-16": 321–28, 101–8, 100–104); or as given with its hyphen
//! made a dash. A range whose ends cannot be read as numbers, or as numbers behind the
//! same letters ("S3–S10"), is kept as written.

/// How a style writes page ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// As given, the hyphen made the style's dash.
    AsGiven,
    /// The end written out in full.
    Expanded,
    /// Only the changed digits of the end.
    Minimal,
    /// The Chicago Manual of Style's rules.
    Chicago16,
}

/// Letters before the digits, and the digits.
fn split(s: &str) -> Option<(&str, u64, &str)> {
    let at = s.find(|c: char| c.is_ascii_digit())?;
    let digits = &s[at..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 15 {
        return None;
    }
    Some((&s[..at], digits.parse().ok()?, digits))
}

/// The end's digits with the leading ones it shares with the start left out, keeping at
/// least `min` digits.
fn changed(start: &str, end: &str, min: usize) -> String {
    if start.len() != end.len() {
        return end.to_string();
    }
    let same = start
        .bytes()
        .zip(end.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let keep = (end.len() - same).max(min).min(end.len());
    end[end.len() - keep..].to_string()
}

fn one(segment: &str, format: Range, dash: &str) -> String {
    let Some((a, b)) = segment.split_once(['-', '\u{2013}']) else {
        return segment.to_string();
    };
    let (a, b) = (a.trim(), b.trim());
    let (Some((pa, na, da)), Some((pb, _, db))) = (split(a), split(b)) else {
        return segment.to_string();
    };
    if pb != pa {
        return segment.to_string();
    }
    // The end in full: a shorter end borrows the start's leading digits.
    let full = if db.len() < da.len() {
        format!("{}{db}", &da[..da.len() - db.len()])
    } else {
        db.to_string()
    };
    if full.parse::<u64>().ok().is_none_or(|e| e < na) {
        return segment.to_string();
    }
    let end = match format {
        Range::AsGiven => format!("{pb}{db}"),
        Range::Expanded => format!("{pa}{full}"),
        Range::Minimal => changed(da, &full, 1),
        Range::Chicago16 => {
            if na < 100 || na % 100 == 0 {
                full
            } else if na % 100 < 10 {
                changed(da, &full, 1)
            } else {
                changed(da, &full, 2)
            }
        }
    };
    format!("{a}{dash}{end}")
}

/// A page field in `format`, ranges joined by `dash`.
pub fn pages(field: &str, format: Range, dash: &str) -> String {
    field
        .split(", ")
        .map(|s| one(s.trim(), format, dash))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A numeric range in another field (an issue "3-4") with the style's dash.
pub fn dashed(field: &str, dash: &str) -> String {
    match field.split_once('-') {
        Some((a, b)) if split(a.trim()).is_some() && split(b.trim()).is_some() => {
            format!("{}{dash}{}", a.trim(), b.trim())
        }
        _ => field.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_writes_the_end_as_csl_says() {
        let d = "\u{2013}";
        let cases = [
            ("663-675", "663–675", "663–75", "663–75", "663–675"),
            ("100-9", "100–109", "100–9", "100–109", "100–9"),
            ("98-102", "98–102", "98–102", "98–102", "98–102"),
            ("1234-9", "1234–1239", "1234–9", "1234–39", "1234–9"),
            ("2150-8", "2150–2158", "2150–8", "2150–58", "2150–8"),
            ("101-8", "101–108", "101–8", "101–8", "101–8"),
            ("1496-500", "1496–1500", "1496–500", "1496–500", "1496–500"),
            ("S3-S10", "S3–S10", "S3–10", "S3–10", "S3–S10"),
            ("S12-4", "S12-4", "S12-4", "S12-4", "S12-4"),
            ("e1234", "e1234", "e1234", "e1234", "e1234"),
        ];
        for (given, expanded, minimal, chicago, as_given) in cases {
            assert_eq!(pages(given, Range::Expanded, d), expanded, "{given}");
            assert_eq!(pages(given, Range::Minimal, d), minimal, "{given}");
            assert_eq!(pages(given, Range::Chicago16, d), chicago, "{given}");
            assert_eq!(pages(given, Range::AsGiven, d), as_given, "{given}");
        }
        assert_eq!(pages("663-75", Range::Expanded, "-"), "663-675");
        assert_eq!(dashed("3-4", d), "3–4");
        assert_eq!(dashed("2 Suppl 1", d), "2 Suppl 1");
    }
}
