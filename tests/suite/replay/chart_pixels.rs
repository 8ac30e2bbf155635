//! Charts read as a person reads them: the PNG decoded by this file's own reader (chunks,
//! zlib, the five row filters, the palette), each bar measured in pixels and compared with
//! the value the test itself put in the SQL (or counted with its own query), each label
//! looked for where its value is. The plot's box is the one `core/src/chart/draw.rs` lays out
//! (upright: x 80..770, axis at y 430; horizontal: x from 250, rows from y 70 to 450).

use crate::common::data::*;
use crate::common::replay::Replay;
use base64::Engine as _;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};
use std::io::Read as _;

/// A decoded picture: its size and one RGB triple a pixel, row by row.
pub(crate) struct Picture {
    pub(crate) width: usize,
    pub(crate) height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Picture {
    pub(crate) fn at(&self, x: usize, y: usize) -> [u8; 3] {
        self.rgb[y * self.width + x]
    }
}

const BAR: [u8; 3] = [31, 119, 180];
const WHITE: [u8; 3] = [255, 255, 255];
const GRID: [u8; 3] = [225, 225, 225];

/// A PNG of 8-bit palette or RGB pixels, read from its bytes (no CRC check, no interlace).
pub(crate) fn decode_png(bytes: &[u8]) -> Picture {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut width, mut height, mut colour) = (0usize, 0usize, 0u8);
    let (mut palette, mut idat) = (Vec::new(), Vec::new());
    let mut pos = 8;
    while pos + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let data = &bytes[pos + 8..pos + 8 + len];
        match &bytes[pos + 4..pos + 8] {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "bit depth");
                colour = data[9];
                assert_eq!(data[12], 0, "interlaced");
            }
            b"PLTE" => palette = data.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        pos += 12 + len;
    }
    let bpp = match colour {
        3 => 1,
        2 => 3,
        c => panic!("colour type {c}"),
    };
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = width * bpp;
    assert_eq!(raw.len(), height * (stride + 1), "inflated size");
    let mut rows: Vec<Vec<u8>> = Vec::with_capacity(height);
    for y in 0..height {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let mut row = line[1..].to_vec();
        let up = |i: usize, rows: &Vec<Vec<u8>>| if y == 0 { 0 } else { rows[y - 1][i] };
        for i in 0..stride {
            let a = if i >= bpp { row[i - bpp] } else { 0 };
            let b = up(i, &rows);
            let c = if i >= bpp { up(i - bpp, &rows) } else { 0 };
            let add = match line[0] {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((a as u16 + b as u16) / 2) as u8,
                4 => {
                    let p = a as i16 + b as i16 - c as i16;
                    let (pa, pb, pc) = (
                        (p - a as i16).abs(),
                        (p - b as i16).abs(),
                        (p - c as i16).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("row filter {f}"),
            };
            row[i] = row[i].wrapping_add(add);
        }
        rows.push(row);
    }
    let rgb = rows
        .iter()
        .flat_map(|row| {
            row.chunks(bpp)
                .map(|p| {
                    if bpp == 1 {
                        palette[p[0] as usize]
                    } else {
                        [p[0], p[1], p[2]]
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    Picture { width, height, rgb }
}

/// The image block of a tool result, decoded.
pub(crate) fn picture_of(r: &Value) -> Picture {
    let image = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("no image: {r}"));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    decode_png(&bytes)
}

/// Each upright bar's height in pixels: bar-coloured pixels counted up from the axis at the
/// centre of each of `n` slots.
pub(crate) fn upright_heights(p: &Picture, n: usize) -> Vec<usize> {
    let (l, r, axis) = (80.0, 770.0, 430usize);
    let slot = (r - l) / n as f64;
    (0..n)
        .map(|i| {
            let x = (l + slot * (i as f64 + 0.5)).round() as usize;
            (0..axis).rev().take_while(|&y| p.at(x, y) == BAR).count()
        })
        .collect()
}

/// Asserts each bar's size is its value times one scale, within two pixels, the scale taken
/// from the largest value; a value of 0 has no bar.
pub(crate) fn assert_proportional(sizes: &[usize], values: &[f64]) {
    assert_eq!(sizes.len(), values.len());
    let (imax, vmax) =
        values.iter().enumerate().fold(
            (0, 0.0),
            |best, (i, &v)| if v > best.1 { (i, v) } else { best },
        );
    assert!(
        vmax > 0.0 && sizes[imax] > 20,
        "the largest bar is drawn: {sizes:?}"
    );
    let scale = sizes[imax] as f64 / vmax;
    for (i, (&s, &v)) in sizes.iter().zip(values).enumerate() {
        let want = v * scale;
        assert!(
            (s as f64 - want).abs() <= 2.0,
            "bar {i}: {s} px for {v}, want {want:.1} (scale {scale:.3} px a unit; all: {sizes:?} for {values:?})"
        );
    }
}

/// The columns where ink (neither background, grid nor bar) lies in rows y0..y1, x0..x1.
fn ink_columns(p: &Picture, (x0, x1): (usize, usize), (y0, y1): (usize, usize)) -> Vec<usize> {
    (x0..x1)
        .filter(|&x| (y0..y1).any(|y| ![WHITE, GRID, BAR].contains(&p.at(x, y))))
        .collect()
}

/// A SQL returning these (label, value) rows, the test's own: one VALUES clause, not a
/// compound SELECT (the Worker's SQLite allows five terms in one; the same SQL runs on both).
fn literal_sql(points: &[(&str, f64)]) -> String {
    let rows: Vec<String> = points
        .iter()
        .map(|(l, v)| format!("('{l}', {v})"))
        .collect();
    format!("SELECT column1, column2 FROM (VALUES {})", rows.join(", "))
}

fn chart(s: &entrez_mcp_core::protocol::Server, id: &str, args: Value) -> Value {
    let mut a = json!({"operation": "chart", "data_access_id": id});
    for (k, v) in args.as_object().unwrap() {
        a[k] = v.clone();
    }
    let r = data(s, a.clone());
    assert_eq!(r["isError"], false, "{a} → {r}");
    r
}

#[test]
fn upright_bars_are_as_tall_as_the_sql_says_and_labelled_under_their_slots() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    // The values are this test's own: years as labels, so the bars stand upright.
    let points = [
        ("2001", 5.0),
        ("2002", 40.0),
        ("2003", 23.0),
        ("2004", 0.0),
        ("2005", 17.0),
        ("2006", 31.0),
    ];
    let r = chart(&s, &id, json!({"sql": literal_sql(&points)}));
    let p = picture_of(&r);
    assert_eq!((p.width, p.height), (800, 500));
    let values: Vec<f64> = points.iter().map(|x| x.1).collect();
    assert_proportional(&upright_heights(&p, points.len()), &values);
    // Each year's label: ink under the axis, centred on its slot within two pixels.
    let slot = 690.0 / points.len() as f64;
    for i in 0..points.len() {
        let (x0, x1) = (
            (80.0 + slot * i as f64) as usize,
            (80.0 + slot * (i + 1) as f64) as usize,
        );
        let ink = ink_columns(&p, (x0, x1), (436, 456));
        assert!(!ink.is_empty(), "no label under slot {i}");
        let centre = (ink[0] + ink[ink.len() - 1]) as f64 / 2.0;
        let want = 80.0 + slot * (i as f64 + 0.5);
        assert!(
            (centre - want).abs() <= 2.0,
            "slot {i}'s label centred at {centre}, its bar at {want}"
        );
    }
}

#[test]
fn horizontal_bars_are_as_long_as_the_sql_says_with_each_value_at_its_bar_end() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    let points = [
        ("alpha", 12.0),
        ("beta", 3.0),
        ("gamma", 48.0),
        ("delta", 30.0),
    ];
    let r = chart(&s, &id, json!({"sql": literal_sql(&points)}));
    let p = picture_of(&r);
    // Names are drawn as horizontal bars, in the order of the rows: slot i spans rows
    // 70 + 95i .. 70 + 95(i + 1); each bar runs right from x 250.
    let slot = 380.0 / points.len() as f64;
    let mut lengths = Vec::new();
    for i in 0..points.len() {
        let y = (70.0 + slot * (i as f64 + 0.5)).round() as usize;
        let len = (250..p.width).take_while(|&x| p.at(x, y) == BAR).count();
        lengths.push(len);
        // The value's label starts just right of the bar's end (5 px, a glyph's bearing aside),
        // on the bar's rows; the name's label ends left of the axis.
        let end = 250 + len;
        let (band0, band1) = (
            (70.0 + slot * i as f64) as usize,
            (70.0 + slot * (i + 1) as f64) as usize,
        );
        let value_ink = ink_columns(&p, (end, (end + 60).min(p.width)), (band0, band1));
        assert!(!value_ink.is_empty(), "no value label after bar {i}");
        assert!(
            value_ink[0] >= end + 3 && value_ink[0] <= end + 8,
            "bar {i} ends at {end}, its value's label starts at {}",
            value_ink[0]
        );
        let name_ink = ink_columns(&p, (0, 248), (band0, band1));
        assert!(
            !name_ink.is_empty() && *name_ink.last().unwrap() >= 230,
            "bar {i}'s name is not beside it: {name_ink:?}"
        );
    }
    let values: Vec<f64> = points.iter().map(|x| x.1).collect();
    assert_proportional(&lengths, &values);
}

#[test]
fn per_year_bars_match_the_years_counted_in_sql() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 450}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    // The test's own count, one row a year, and the years between at 0.
    let years = sql(
        &s,
        &id,
        "SELECT year, COUNT(*) FROM article WHERE year IS NOT NULL GROUP BY year ORDER BY year",
    );
    let rows = years["rows"].as_array().unwrap();
    let first = rows[0][0].as_i64().unwrap();
    let last = rows[rows.len() - 1][0].as_i64().unwrap();
    let mut values = vec![0.0; (last - first + 1) as usize];
    for row in rows {
        values[(row[0].as_i64().unwrap() - first) as usize] = row[1].as_f64().unwrap();
    }
    assert!(
        values.iter().filter(|&&v| v > 0.0).count() >= 3,
        "{values:?}"
    );
    let r = chart(&s, &id, json!({"chart": "per_year"}));
    let p = picture_of(&r);
    assert_proportional(&upright_heights(&p, values.len()), &values);
}

#[test]
fn stacked_parts_are_as_tall_as_the_sql_says_bottom_first() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    // (year, series, value): the test's own parts.
    let rows = [
        ("2001", "a", 5.0),
        ("2001", "b", 10.0),
        ("2002", "a", 20.0),
        ("2002", "b", 4.0),
        ("2003", "a", 0.0),
        ("2003", "b", 12.0),
    ];
    let cells: Vec<String> = rows
        .iter()
        .map(|(y, k, v)| format!("('{y}', '{k}', {v})"))
        .collect();
    let sql = format!(
        "SELECT column1, column2, column3 FROM (VALUES {})",
        cells.join(", ")
    );
    let r = chart(&s, &id, json!({"chart": "stacked", "sql": sql}));
    // The series' order (bottom first) is the chart's to choose and its legend's to say; the
    // values are the SQL's.
    let series: Vec<String> = r["structuredContent"]["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut sorted = series.clone();
    sorted.sort();
    assert_eq!(sorted, ["a", "b"]);
    let p = picture_of(&r);
    let colours = [BAR, [255, 127, 14]];
    let slot = 690.0 / 3.0;
    let mut sizes = Vec::new();
    for i in 0..3 {
        let x = (80.0 + slot * (i as f64 + 0.5)).round() as usize;
        // Each series' run of its colour, from the axis up, the first series lowest.
        let mut y = 430;
        for colour in colours {
            let run = (0..y).rev().take_while(|&yy| p.at(x, yy) == colour).count();
            sizes.push(run);
            y -= run;
        }
    }
    let values: Vec<f64> = ["2001", "2002", "2003"]
        .iter()
        .flat_map(|y| {
            series.iter().map(move |k| {
                rows.iter()
                    .find(|r| r.0 == *y && r.1 == k)
                    .map_or(0.0, |r| r.2)
            })
        })
        .collect();
    assert_proportional(&sizes, &values);
}
