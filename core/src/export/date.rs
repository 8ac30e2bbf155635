//! Publication dates as PubMed prints them ("2019 Aug 26", "1990 Spring", "2019 Jan-Feb",
//! "1998 Dec-1999 Jan") read into the parts CSL carries: year, month and day, the end of a
//! range, a season.

/// A publication date as CSL carries it: its first (and last, for a range) year, month
/// and day, and a season.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Issued {
    /// Year, month, day as far as given.
    pub from: Vec<i64>,
    /// The end of a range ("2019 Jan-Feb", "1998 Dec-1999 Jan").
    pub to: Option<Vec<i64>>,
    /// "Spring", "Winter", "Spring-Summer".
    pub season: Option<String>,
}

const SEASONS: [&str; 4] = ["spring", "summer", "fall", "winter"];

fn is_season(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    SEASONS.contains(&w.as_str()) || w == "autumn"
}

/// One side of a printed date ("2019 Aug 26", "Feb", "1999 Jan", "9"), its missing leading
/// parts taken from `base`; `None` when it does not read as a date.
fn date_side(side: &str, base: &[i64]) -> Option<Vec<i64>> {
    let words: Vec<&str> = side.split_whitespace().collect();
    let mut out = Vec::new();
    let mut rest = words.as_slice();
    match rest.first() {
        Some(w) if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) => {
            out.push(w.parse().ok()?);
            rest = &rest[1..];
        }
        _ => out.push(*base.first()?),
    }
    match rest.first() {
        Some(w) if month_number(w).is_some() => {
            out.push(i64::from(month_number(w)?));
            rest = &rest[1..];
        }
        Some(_) if out.len() == 1 && base.len() >= 2 && words.len() == 1 => {
            // A bare day ("3-9"): the month is the start's.
            out.push(base[1]);
        }
        _ => {}
    }
    if let Some(w) = rest.first() {
        let day: i64 = w.parse().ok().filter(|d| (1..=31).contains(d))?;
        if out.len() < 2 {
            return None;
        }
        out.push(day);
        rest = &rest[1..];
    }
    rest.is_empty().then_some(out)
}

impl Issued {
    /// The date of a printed PubMed date ("2019 Aug 26", "2020 Winter", "2019 Jan-Feb",
    /// "1998 Dec-1999 Jan"), else its year alone.
    pub fn of(pub_date: Option<&str>, year: Option<i64>) -> Option<Issued> {
        let year = year?;
        let plain = Issued {
            from: vec![year],
            ..Issued::default()
        };
        let Some(date) = pub_date.map(str::trim).filter(|d| !d.is_empty()) else {
            return Some(plain);
        };
        let words: Vec<&str> = date.split_whitespace().collect();
        if words.len() == 2 && words[0] == year.to_string() {
            let seasons: Vec<&str> = words[1].split('-').collect();
            if seasons.iter().all(|s| is_season(s)) {
                return Some(Issued {
                    season: Some(words[1].to_string()),
                    ..plain
                });
            }
        }
        let (left, right) = match date.split_once('-') {
            Some((l, r)) => (l.trim(), Some(r.trim())),
            None => (date, None),
        };
        let Some(from) = date_side(left, &[year]).filter(|f| f[0] == year) else {
            return Some(plain);
        };
        let to = match right {
            Some(r) => match date_side(r, &from) {
                Some(to) if to.len() == from.len() && to > from => Some(to),
                _ => return Some(plain),
            },
            None => None,
        };
        Some(Issued {
            from,
            to,
            season: None,
        })
    }
}

/// "Aug" or "August" (any case) as 8.
pub fn month_number(word: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 || w.contains('-') {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| w.starts_with(m) && m.starts_with(&w[..3]))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seasons_and_ranges_are_read_as_csl_carries_them() {
        let on = |d: &str| Issued::of(Some(d), Some(2019)).unwrap();
        assert_eq!(on("2019 Aug 26").from, vec![2019, 8, 26]);
        let season = on("2019 Winter");
        assert_eq!(
            (season.from, season.season.as_deref()),
            (vec![2019], Some("Winter"))
        );
        let range = on("2019 Jan-Feb");
        assert_eq!((range.from, range.to), (vec![2019, 1], Some(vec![2019, 2])));
        let across = on("2019 Dec-2020 Jan");
        assert_eq!(
            (across.from, across.to),
            (vec![2019, 12], Some(vec![2020, 1]))
        );
        assert_eq!(on("2019 Jan 3-9").to, Some(vec![2019, 1, 9]));
        assert_eq!(on("2019 Nov 28-Dec 2").to, Some(vec![2019, 12, 2]));
        // What does not read as a date is the year alone.
        assert_eq!(
            on("2019 Early Access"),
            Issued {
                from: vec![2019],
                ..Issued::default()
            }
        );
        assert_eq!(month_number("Aug"), Some(8));
        assert_eq!(month_number("Oct-Dec"), None);
    }
}
