//! Charts as pictures: a list of labelled numbers drawn as an 800×500 PNG ([`draw`]), the
//! named charts of a staged PubMed dataset as SQL ([`NAMED`]), and the rules that turn a
//! query's rows into a chart's points ([`points_of`]): too many categories are summed into
//! one "Other" bar, values that are not numbers are left out and counted.

pub mod draw;

use crate::error::{Error, ErrorKind, Result};
use crate::staging::rows::SqlValue;
use serde::Serialize;

/// Bars, a line, or bars stacked by a third column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One bar per category.
    Bar,
    /// A line through the points, in order.
    Line,
    /// One bar per category, split by series (label, series, number).
    Stacked,
}

impl Kind {
    /// The kind named `name` (bar or line).
    pub fn named(name: &str) -> Option<Kind> {
        match name.to_ascii_lowercase().as_str() {
            "bar" => Some(Kind::Bar),
            "line" => Some(Kind::Line),
            "stacked" => Some(Kind::Stacked),
            _ => None,
        }
    }
}

/// A chart: labelled numbers, a title and the axes' names.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The title drawn on top.
    pub title: String,
    /// What the categories are (years, journals…).
    pub x_label: String,
    /// What the numbers count.
    pub y_label: String,
    /// Bars or a line.
    pub kind: Kind,
    /// (label, value), in the order drawn; a stacked bar's value is its parts' sum.
    pub points: Vec<(String, f64)>,
    /// A stacked chart's series, bottom first; empty for the other kinds.
    pub series: Vec<String>,
    /// A stacked chart's parts: per point, one number per series.
    pub parts: Vec<Vec<f64>>,
}

impl Chart {
    /// A chart of `points` with no series.
    pub fn of(
        title: String,
        x_label: String,
        y_label: String,
        kind: Kind,
        points: Vec<(String, f64)>,
    ) -> Chart {
        Chart {
            title,
            x_label,
            y_label,
            kind,
            points,
            series: Vec::new(),
            parts: Vec::new(),
        }
    }
}

/// A stacked chart's series and parts (see [`Chart`]).
pub type Stacks = (Vec<String>, Vec<Vec<f64>>);

/// A chart's points, and notes on what was changed to draw them.
pub type Points = (Vec<(String, f64)>, Vec<String>);

/// Most bars one chart draws; past it the smallest are summed into one "Other" bar.
pub const MAX_BARS: usize = 40;
/// Most series a stacked chart draws; past it the smallest are summed into "Other".
pub const MAX_SERIES: usize = 8;
/// Most rows a chart reads from its statement; past it the chart is refused.
pub const MAX_ROWS: usize = 1000;
/// The bars a named "top" chart shows when no limit is given.
pub const DEFAULT_TOP: u64 = 20;

/// One chart a staged PubMed dataset draws without SQL.
#[derive(Debug, Clone, Copy)]
pub struct Named {
    /// Its name, as `chart` takes it.
    pub name: &'static str,
    /// The title drawn.
    pub title: &'static str,
    /// The categories' axis.
    pub x_label: &'static str,
    /// The numbers' axis.
    pub y_label: &'static str,
    /// The statement, `{n}` standing for the number of bars.
    pub sql: &'static str,
}

/// The named charts (pubmed layout).
pub const NAMED: &[Named] = &[
    Named {
        name: "per_year",
        title: "Articles per year",
        x_label: "Publication year",
        y_label: "Articles",
        sql: "SELECT year, COUNT(*) AS articles FROM article WHERE year IS NOT NULL GROUP BY year ORDER BY year",
    },
    Named {
        name: "top_journals",
        title: "Top journals",
        x_label: "Journal",
        y_label: "Articles",
        sql: "SELECT COALESCE(iso_abbrev, journal) AS journal, COUNT(*) AS articles FROM article WHERE COALESCE(iso_abbrev, journal) IS NOT NULL GROUP BY 1 ORDER BY articles DESC, journal LIMIT {n}",
    },
    Named {
        name: "top_mesh",
        title: "Top MeSH descriptors",
        x_label: "MeSH descriptor",
        y_label: "Articles",
        sql: "SELECT descriptor, COUNT(DISTINCT pmid) AS articles FROM mesh GROUP BY descriptor ORDER BY articles DESC, descriptor LIMIT {n}",
    },
    Named {
        name: "top_mesh_major",
        title: "Top MeSH descriptors (major topics)",
        x_label: "MeSH descriptor (major topic)",
        y_label: "Articles",
        sql: "SELECT descriptor, COUNT(DISTINCT pmid) AS articles FROM mesh WHERE major = 1 GROUP BY descriptor ORDER BY articles DESC, descriptor LIMIT {n}",
    },
    Named {
        name: "top_authors",
        title: "Top authors",
        x_label: "Author",
        y_label: "Articles",
        sql: "SELECT COALESCE(last_name || COALESCE(' ' || initials, ''), collective_name) AS author, COUNT(DISTINCT pmid) AS articles FROM author WHERE COALESCE(last_name, collective_name) IS NOT NULL GROUP BY 1 ORDER BY articles DESC, author LIMIT {n}",
    },
    Named {
        name: "publication_types",
        title: "Publication types",
        x_label: "Publication type",
        y_label: "Articles",
        sql: "SELECT publication_type, COUNT(DISTINCT pmid) AS articles FROM publication_type GROUP BY publication_type ORDER BY articles DESC, publication_type LIMIT {n}",
    },
];

/// The named chart `name`.
pub fn named(name: &str) -> Option<&'static Named> {
    NAMED.iter().find(|n| n.name == name)
}

/// The names `chart` takes: the named charts, and bar and line for a chart of `sql`.
pub fn names() -> Vec<&'static str> {
    NAMED
        .iter()
        .map(|n| n.name)
        .chain(["bar", "line", "stacked"])
        .collect()
}

/// A cell as a number, if it is one.
fn number(v: &SqlValue) -> Option<f64> {
    match v {
        SqlValue::Integer(n) => Some(*n as f64),
        SqlValue::Real(f) if f.is_finite() => Some(*f),
        SqlValue::Text(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// A cell as a label.
fn name(v: &SqlValue) -> String {
    match v {
        SqlValue::Null => "(none)".to_string(),
        SqlValue::Integer(n) => n.to_string(),
        SqlValue::Real(f) => draw::label(*f),
        SqlValue::Text(s) => s.clone(),
        SqlValue::Blob(_) => "(blob)".to_string(),
    }
}

/// A query's rows (label, series, number) as a stacked chart's points and stacks, and
/// notes: categories in the statement's order, series largest first; past [`MAX_BARS`]
/// categories or [`MAX_SERIES`] series the rest are summed into "Other"; rows whose number
/// is missing, not a number or negative are left out and counted.
pub fn stacks_of(columns: &[String], rows: &[Vec<SqlValue>]) -> Result<(Points, Stacks)> {
    if columns.len() != 3 {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!("A stacked chart takes three columns (a label, a series, a number); this statement returns {}: {}.", columns.len(), columns.join(", ")),
        )
        .with_code(crate::validation::codes::CHART_UNSUITABLE)
        .suggest("SELECT the label, the series and the number, e.g. SELECT year, language, COUNT(*) FROM article GROUP BY 1, 2."));
    }
    let mut notes = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    let mut series: Vec<(String, f64)> = Vec::new();
    let mut cells: Vec<(usize, usize, f64)> = Vec::new();
    let mut skipped = 0usize;
    for r in rows {
        let Some(v) = number(&r[2]).filter(|v| *v >= 0.0) else {
            skipped += 1;
            continue;
        };
        let (l, s) = (name(&r[0]), name(&r[1]));
        let li = labels.iter().position(|x| *x == l).unwrap_or_else(|| {
            labels.push(l);
            labels.len() - 1
        });
        let si = series.iter().position(|x| x.0 == s).unwrap_or_else(|| {
            series.push((s, 0.0));
            series.len() - 1
        });
        series[si].1 += v;
        cells.push((li, si, v));
    }
    if skipped > 0 {
        notes.push(format!(
            "{skipped} row(s) left out: their value (column {:?}) is missing, not a number or negative.",
            columns[2]
        ));
    }
    // Series largest first; past MAX_SERIES the smallest share one "Other".
    let mut order: Vec<usize> = (0..series.len()).collect();
    order.sort_by(|&a, &b| series[b].1.total_cmp(&series[a].1));
    let kept = if series.len() > MAX_SERIES {
        MAX_SERIES - 1
    } else {
        series.len()
    };
    let mut slot = vec![kept; series.len()];
    for (rank, &i) in order.iter().enumerate().take(kept) {
        slot[i] = rank;
    }
    let mut names: Vec<String> = order
        .iter()
        .take(kept)
        .map(|&i| series[i].0.clone())
        .collect();
    if series.len() > kept {
        notes.push(format!(
            "{} series; a stacked chart draws at most {MAX_SERIES}, so the {} smallest are summed into \"Other\".",
            series.len(),
            series.len() - kept
        ));
        names.push(format!("Other ({})", series.len() - kept));
    }
    let mut parts = vec![vec![0.0; names.len()]; labels.len()];
    for (li, si, v) in cells {
        parts[li][slot[si]] += v;
    }
    let mut points: Vec<(String, f64)> = labels
        .into_iter()
        .zip(&parts)
        .map(|(l, p)| (l, p.iter().sum()))
        .collect();
    if points.len() > MAX_BARS {
        let rest = points.split_off(MAX_BARS - 1);
        let rest_parts = parts.split_off(MAX_BARS - 1);
        let mut summed = vec![0.0; names.len()];
        for p in &rest_parts {
            for (k, v) in p.iter().enumerate() {
                summed[k] += v;
            }
        }
        notes.push(format!(
            "{} categories; a chart draws at most {MAX_BARS} bars, so the last {} (in the statement's order) are summed into \"Other\".",
            points.len() + rest.len(),
            rest.len()
        ));
        points.push((format!("Other ({})", rest.len()), summed.iter().sum()));
        parts.push(summed);
    }
    Ok(((points, notes), (names, parts)))
}

/// A query's rows as a chart's points, and notes on what was changed: one column of numbers
/// is drawn in order, one of names counted per name; two columns are (label, value). Rows
/// whose value is not a number are left out and counted; past [`MAX_BARS`] bars the rest
/// is summed into "Other".
pub fn points_of(columns: &[String], rows: &[Vec<SqlValue>], kind: Kind) -> Result<Points> {
    let mut notes = Vec::new();
    let mut points: Vec<(String, f64)> = Vec::new();
    let mut skipped = 0usize;
    let mut first_bad: Option<String> = None;
    match columns.len() {
        1 => {
            if rows.iter().all(|r| number(&r[0]).is_some()) {
                for (i, r) in rows.iter().enumerate() {
                    points.push(((i + 1).to_string(), number(&r[0]).unwrap_or(0.0)));
                }
            } else {
                for r in rows {
                    let n = name(&r[0]);
                    match points.iter_mut().find(|p| p.0 == n) {
                        Some(p) => p.1 += 1.0,
                        None => points.push((n, 1.0)),
                    }
                }
                points.sort_by(|a, b| b.1.total_cmp(&a.1));
                notes.push(format!(
                    "One column of names: each bar counts the rows naming it ({} rows).",
                    rows.len()
                ));
            }
        }
        2 => {
            for r in rows {
                match number(&r[1]) {
                    Some(v) => points.push((name(&r[0]), v)),
                    None => {
                        skipped += 1;
                        first_bad.get_or_insert_with(|| name(&r[1]));
                    }
                }
            }
        }
        n => {
            return Err(Error::new(
                ErrorKind::InvalidArguments,
                format!("A chart takes one or two columns (a label, then a number); this statement returns {n}: {}.", columns.join(", ")),
            )
            .with_code(crate::validation::codes::CHART_UNSUITABLE)
            .suggest("SELECT the label and the number only, e.g. SELECT year, COUNT(*) FROM article GROUP BY year; or chart stacked for (label, series, number)."))
        }
    }
    if skipped > 0 {
        notes.push(format!(
            "{skipped} row(s) left out: their value (column {:?}) is not a number, e.g. {:?}.",
            columns.get(1).cloned().unwrap_or_default(),
            first_bad.unwrap_or_default()
        ));
    }
    if kind == Kind::Bar && points.len() > MAX_BARS {
        let rest = points.split_off(MAX_BARS - 1);
        let sum: f64 = rest.iter().map(|p| p.1).sum();
        notes.push(format!(
            "{} categories; a chart draws at most {MAX_BARS} bars, so the last {} (in the statement's order) are summed into \"Other\". ORDER BY the value DESC to keep the largest.",
            points.len() + rest.len(),
            rest.len()
        ));
        points.push((format!("Other ({})", rest.len()), sum));
    }
    Ok((points, notes))
}

/// Years from the first to the last of `points` whose labels are all years, the missing ones
/// at 0, so a gap in a trend shows.
pub fn fill_years(points: Vec<(String, f64)>) -> Vec<(String, f64)> {
    let years: Option<Vec<i64>> = points.iter().map(|p| p.0.parse::<i64>().ok()).collect();
    let Some(years) = years else { return points };
    let (Some(&lo), Some(&hi)) = (years.iter().min(), years.iter().max()) else {
        return points;
    };
    if hi - lo > 500 {
        return points;
    }
    (lo..=hi)
        .map(|y| {
            let v = points
                .iter()
                .find(|p| p.0 == y.to_string())
                .map_or(0.0, |p| p.1);
            (y.to_string(), v)
        })
        .collect()
}

/// A short text summary of the numbers: count, sum, the largest, and the points themselves
/// (the first 40).
pub fn summary(c: &Chart) -> String {
    if c.points.is_empty() {
        return format!("{}: no data to draw (the chart is empty).", c.title);
    }
    let total: f64 = c.points.iter().map(|p| p.1).sum();
    let top = c
        .points
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|p| format!("{} ({})", p.0, draw::label(p.1)))
        .unwrap_or_default();
    let shown: Vec<String> = c
        .points
        .iter()
        .take(40)
        .map(|p| format!("{}: {}", p.0, draw::label(p.1)))
        .collect();
    let more = c.points.len().saturating_sub(40);
    let by_series = if c.series.is_empty() {
        String::new()
    } else {
        let totals: Vec<String> = c
            .series
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let t: f64 = c.parts.iter().filter_map(|p| p.get(k)).sum();
                format!("{s}: {}", draw::label(t))
            })
            .collect();
        format!("\nSeries (bottom first): {}.", totals.join("; "))
    };
    format!(
        "{} — {} {}, total {}, largest {}.\n{}{}{by_series}",
        c.title,
        c.points.len(),
        if c.kind == Kind::Line {
            "points"
        } else {
            "bars"
        },
        draw::label(total),
        top,
        shown.join("; "),
        if more > 0 {
            format!("; … {more} more")
        } else {
            String::new()
        }
    )
}

/// Refuses a statement with more rows than a chart reads.
pub fn too_many_rows(total: u64) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!("The statement returns {total} rows; a chart reads at most {MAX_ROWS}."),
    )
    .with_code(crate::validation::codes::CHART_TOO_LARGE)
    .suggest("Group the rows (GROUP BY) or add a LIMIT, e.g. ORDER BY n DESC LIMIT 40.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_categories_end_in_other_and_words_are_left_out() {
        let rows: Vec<Vec<SqlValue>> = (0..45)
            .map(|i| vec![SqlValue::Text(format!("c{i}")), SqlValue::Integer(1)])
            .chain([vec![
                SqlValue::Text("x".into()),
                SqlValue::Text("many".into()),
            ]])
            .collect();
        let (p, notes) = points_of(&["a".into(), "b".into()], &rows, Kind::Bar).unwrap();
        assert_eq!(p.len(), MAX_BARS);
        assert_eq!(p.last().unwrap(), &("Other (6)".to_string(), 6.0));
        assert_eq!(notes.len(), 2);
        let three = points_of(&["a".into(), "b".into(), "c".into()], &[], Kind::Bar);
        assert_eq!(three.unwrap_err().code, "chart_unsuitable");
    }

    #[test]
    fn a_stacked_chart_keeps_eight_series_and_its_parts_sum_to_each_bar() {
        let rows: Vec<Vec<SqlValue>> = (0..10)
            .flat_map(|s| {
                ["2001", "2002"].into_iter().map(move |y| {
                    vec![
                        SqlValue::Text(y.into()),
                        SqlValue::Text(format!("s{s}")),
                        SqlValue::Integer(s + 1),
                    ]
                })
            })
            .chain([vec![
                SqlValue::Text("2003".into()),
                SqlValue::Null,
                SqlValue::Integer(-1),
            ]])
            .collect();
        let cols: Vec<String> = ["year", "series", "n"].map(String::from).to_vec();
        let ((points, notes), (series, parts)) = stacks_of(&cols, &rows).unwrap();
        assert_eq!(series.len(), MAX_SERIES);
        assert_eq!(series[0], "s9");
        assert_eq!(series[7], "Other (3)");
        assert_eq!(
            points,
            vec![("2001".to_string(), 55.0), ("2002".to_string(), 55.0)]
        );
        assert_eq!(parts[0][7], 1.0 + 2.0 + 3.0);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(
            stacks_of(&cols[..2], &[]).unwrap_err().code,
            "chart_unsuitable"
        );
    }

    #[test]
    fn missing_years_are_zero() {
        let p = fill_years(vec![("2001".into(), 2.0), ("2003".into(), 1.0)]);
        assert_eq!(p[1], ("2002".to_string(), 0.0));
    }
}
