//! Drawing a [`Chart`] into an 800×500 picture and writing it as an indexed-colour PNG.
//!
//! Rectangles and lines are drawn by hand; text by `ab_glyph` from the embedded DejaVu Sans
//! subset (`FONT.md` beside this file); the PNG is deflated by `miniz_oxide`. Nothing here
//! asks the system for anything, so both edges draw the same bytes.

use crate::chart::{Chart, Kind};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};

/// The picture's width, pixels.
pub const WIDTH: usize = 800;
/// The picture's height, pixels.
pub const HEIGHT: usize = 500;
/// The bars' and the line's colour.
pub const BAR: [u8; 3] = [31, 119, 180];
/// A stacked chart's series colours, bottom first ([`BAR`] the first).
pub const SERIES: [[u8; 3]; 8] = [
    BAR,
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [127, 127, 127],
];

const FONT: &[u8] = include_bytes!("DejaVuSans-subset.ttf");
const WHITE: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [33, 33, 33];
const GRID: [u8; 3] = [225, 225, 225];
const MUTED: [u8; 3] = [110, 110, 110];

/// A picture of palette indices: every colour drawn gets one entry (at most 256), so the
/// PNG is a third of an RGB one to deflate, the CPU a chart costs in the Worker.
struct Canvas {
    px: Vec<u8>,
    palette: Vec<[u8; 3]>,
    font: Option<FontRef<'static>>,
    /// Each glyph drawn, by (glyph, size in tenths of a pixel): its offset from the pen and
    /// its coverage, so a label's letters are rasterized once per chart, not once each.
    glyphs: std::collections::HashMap<(u16, u32), Glyph>,
    /// What laying the last colour blended over each palette entry at each coverage gave:
    /// text blends the same few pairs thousands of times.
    blends: ([u8; 3], Vec<Option<u8>>),
}

/// A rasterized glyph: where its box starts relative to the pen, its size and coverage.
struct Glyph {
    left: i64,
    top: i64,
    width: usize,
    coverage: Vec<f32>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            px: vec![0; WIDTH * HEIGHT],
            palette: vec![WHITE],
            font: FontRef::try_from_slice(FONT).ok(),
            glyphs: std::collections::HashMap::new(),
            blends: (WHITE, vec![None; 256 * 17]),
        }
    }

    /// The palette entry of `c`, added if new; past 256 colours, the nearest one.
    fn index_of(&mut self, c: [u8; 3]) -> u8 {
        if let Some(i) = self.palette.iter().position(|&p| p == c) {
            return i as u8;
        }
        if self.palette.len() < 256 {
            self.palette.push(c);
            return (self.palette.len() - 1) as u8;
        }
        let distance = |p: &[u8; 3]| {
            p.iter()
                .zip(c)
                .map(|(&a, b)| (a as i32 - b as i32).pow(2))
                .sum::<i32>()
        };
        (0..self.palette.len())
            .min_by_key(|&i| distance(&self.palette[i]))
            .unwrap_or(0) as u8
    }

    /// Lays `c` over the pixel at (x, y) with coverage `a`, in sixteenths (text's edges).
    fn blend(&mut self, x: i64, y: i64, c: [u8; 3], a: f32) {
        if x < 0 || y < 0 || x >= WIDTH as i64 || y >= HEIGHT as i64 {
            return;
        }
        let level = (a.clamp(0.0, 1.0) * 16.0).round() as u16;
        if level == 0 {
            return;
        }
        let i = y as usize * WIDTH + x as usize;
        if self.blends.0 != c {
            self.blends = (c, vec![None; 256 * 17]);
        }
        let memo = self.px[i] as usize * 17 + level as usize;
        if let Some(index) = self.blends.1[memo] {
            self.px[i] = index;
            return;
        }
        let old = self.palette[self.px[i] as usize];
        let mut mixed = [0u8; 3];
        for k in 0..3 {
            let (o, w) = (old[k] as u16, c[k] as u16);
            mixed[k] = ((o * (16 - level) + w * level + 8) / 16) as u8;
        }
        let index = self.index_of(mixed);
        self.blends.1[memo] = Some(index);
        self.px[i] = index;
    }

    fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: [u8; 3]) {
        let (xa, xb) = (x0.min(x1).round() as i64, x0.max(x1).round() as i64);
        let (ya, yb) = (y0.min(y1).round() as i64, y0.max(y1).round() as i64);
        let (xa, xb) = (xa.max(0) as usize, xb.clamp(0, WIDTH as i64) as usize);
        if xa >= xb {
            return;
        }
        let index = self.index_of(c);
        for y in ya.max(0)..yb.min(HEIGHT as i64) {
            let row = y as usize * WIDTH;
            self.px[row + xa..row + xb].fill(index);
        }
    }

    /// A line `w` pixels wide, stamped along its length.
    fn line(&mut self, (x0, y0): (f64, f64), (x1, y1): (f64, f64), w: f64, c: [u8; 3]) {
        let steps = ((x1 - x0).abs().max((y1 - y0).abs()) * 2.0).ceil().max(1.0) as usize;
        let r = w / 2.0;
        for s in 0..=steps {
            let t = s as f64 / steps as f64;
            let (x, y) = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
            self.rect(x - r, y - r, x + r, y + r, c);
        }
    }

    /// The width of `text` at `size` pixels.
    fn measure(&self, text: &str, size: f32) -> f64 {
        let Some(font) = &self.font else { return 0.0 };
        let f = font.as_scaled(PxScale::from(size));
        text.chars()
            .map(|ch| f.h_advance(glyph_of(font, ch)) as f64)
            .sum()
    }

    /// Draws `text` with its baseline's left end at (x, y), each glyph at a whole pixel.
    fn text(&mut self, text: &str, x: f64, y: f64, size: f32, c: [u8; 3]) {
        let Some(font) = self.font.clone() else {
            return;
        };
        let scale = PxScale::from(size);
        let f = font.as_scaled(scale);
        let (mut pen, base) = (x as f32, y.round() as i64);
        for ch in text.chars() {
            let id = glyph_of(&font, ch);
            let key = (id.0, (size * 10.0).round() as u32);
            let glyph = self.glyphs.entry(key).or_insert_with(|| {
                let g = id.with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
                match font.outline_glyph(g) {
                    Some(o) => {
                        let b = o.px_bounds();
                        let width = b.width() as usize;
                        let mut coverage = vec![0.0; width * b.height() as usize];
                        o.draw(|gx, gy, a| {
                            if let Some(v) = coverage.get_mut(gy as usize * width + gx as usize) {
                                *v = a;
                            }
                        });
                        Glyph {
                            left: b.min.x as i64,
                            top: b.min.y as i64,
                            width,
                            coverage,
                        }
                    }
                    None => Glyph {
                        left: 0,
                        top: 0,
                        width: 0,
                        coverage: Vec::new(),
                    },
                }
            });
            let (left, top, width) = (
                pen.round() as i64 + glyph.left,
                base + glyph.top,
                glyph.width,
            );
            let cells: Vec<(i64, i64, f32)> = glyph
                .coverage
                .iter()
                .enumerate()
                .filter(|(_, &a)| a > 0.0)
                .map(|(i, &a)| (left + (i % width) as i64, top + (i / width) as i64, a))
                .collect();
            for (px, py, a) in cells {
                self.blend(px, py, c, a);
            }
            pen += f.h_advance(id);
        }
    }

    /// `text` cut with an ellipsis to fit `width` pixels.
    fn fit(&self, text: &str, size: f32, width: f64) -> String {
        if self.measure(text, size) <= width {
            return text.to_string();
        }
        let room = width - self.measure("…", size);
        let (mut used, mut end) = (0.0, 0);
        for (i, ch) in text.char_indices() {
            let w = self.measure(ch.encode_utf8(&mut [0; 4]), size);
            if used + w > room {
                break;
            }
            used += w;
            end = i + ch.len_utf8();
        }
        format!("{}…", text[..end].trim_end())
    }
}

fn glyph_of(font: &FontRef<'_>, ch: char) -> ab_glyph::GlyphId {
    let id = font.glyph_id(ch);
    if id.0 == 0 {
        font.glyph_id('?')
    } else {
        id
    }
}

/// A "nice" step (1, 2 or 5 times a power of ten) dividing `max` into about five.
fn nice_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let n = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    (n * p)
        .max(if max >= 1.0 { 1.0 } else { 0.0 })
        .max(f64::MIN_POSITIVE)
}

/// A number as an axis label: thousands separated, at most two decimals.
pub fn label(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let n = v.abs() as u64;
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0.0 {
            format!("-{out}")
        } else {
            out
        }
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Whether the categories read as an axis of numbers (years), drawn upright; names are
/// drawn as horizontal bars with their labels on the left.
fn upright(c: &Chart) -> bool {
    c.kind == Kind::Line
        || c.points
            .iter()
            .all(|(l, _)| l.len() <= 8 && l.parse::<f64>().is_ok())
}

/// The chart as PNG bytes, 800×500.
pub fn png(c: &Chart) -> Vec<u8> {
    let mut cv = Canvas::new();
    let title = cv.fit(&c.title, 20.0, WIDTH as f64 - 40.0);
    let tw = cv.measure(&title, 20.0);
    cv.text(&title, (WIDTH as f64 - tw) / 2.0, 32.0, 20.0, INK);
    let max = c.points.iter().map(|p| p.1).fold(0.0f64, f64::max);
    let min = c.points.iter().map(|p| p.1).fold(0.0f64, f64::min);
    let step = nice_step(max - min);
    let top = if max > 0.0 {
        (max / step).ceil() * step
    } else {
        0.0
    };
    let bottom = if min < 0.0 {
        (min / step).floor() * step
    } else {
        0.0
    };
    let span = if top - bottom > 0.0 {
        top - bottom
    } else {
        1.0
    };
    if c.points.is_empty() {
        let msg = "No data";
        let w = cv.measure(msg, 18.0);
        cv.text(
            msg,
            (WIDTH as f64 - w) / 2.0,
            HEIGHT as f64 / 2.0,
            18.0,
            MUTED,
        );
    }
    if upright(c) {
        let (l, r, t, b) = (80.0, WIDTH as f64 - 30.0, 60.0, HEIGHT as f64 - 70.0);
        let y_of = |v: f64| b - (v - bottom) / span * (b - t);
        // Grid and value labels.
        let mut v = bottom;
        while v <= top + step / 2.0 {
            let y = y_of(v);
            cv.rect(l, y, r, y + 1.0, GRID);
            let s = label(v);
            let w = cv.measure(&s, 13.0);
            cv.text(&s, l - 8.0 - w, y + 4.5, 13.0, INK);
            v += step;
        }
        let n = c.points.len().max(1);
        let slot = (r - l) / n as f64;
        // Category labels, as many as fit side by side.
        let widest = c
            .points
            .iter()
            .map(|p| cv.measure(&p.0, 13.0))
            .fold(0.0, f64::max);
        let every = ((widest + 10.0) / slot).ceil().max(1.0) as usize;
        for (i, (name, _)) in c.points.iter().enumerate() {
            if i % every == 0 {
                let x = l + slot * (i as f64 + 0.5);
                let w = cv.measure(name, 13.0);
                cv.text(name, x - w / 2.0, b + 20.0, 13.0, INK);
            }
        }
        match c.kind {
            Kind::Bar | Kind::Stacked => {
                let gap = (slot * 0.15).min(8.0);
                for i in 0..c.points.len() {
                    let x = l + slot * i as f64;
                    for (from, to, colour) in segments(c, i) {
                        cv.rect(x + gap, y_of(to), x + slot - gap, y_of(from), colour);
                    }
                }
            }
            Kind::Line => {
                let at = |i: usize, v: f64| (l + slot * (i as f64 + 0.5), y_of(v));
                for (i, w) in c.points.windows(2).enumerate() {
                    cv.line(at(i, w[0].1), at(i + 1, w[1].1), 3.0, BAR);
                }
                for (i, (_, v)) in c.points.iter().enumerate() {
                    let (x, y) = at(i, *v);
                    cv.rect(x - 3.5, y - 3.5, x + 3.5, y + 3.5, BAR);
                }
            }
        }
        cv.rect(l, b, r, b + 1.5, INK);
        cv.rect(l - 1.5, t, l, b + 1.5, INK);
        let xl = c.x_label.clone();
        let w = cv.measure(&xl, 14.0);
        cv.text(&xl, (l + r - w) / 2.0, HEIGHT as f64 - 22.0, 14.0, MUTED);
        cv.text(&c.y_label, 12.0, 52.0, 14.0, MUTED);
    } else {
        let (l, r, t, b) = (250.0, WIDTH as f64 - 70.0, 70.0, HEIGHT as f64 - 50.0);
        let x_of = |v: f64| l + (v - bottom) / span * (r - l);
        let mut v = bottom;
        while v <= top + step / 2.0 {
            let x = x_of(v);
            cv.rect(x, t, x + 1.0, b, GRID);
            let s = label(v);
            let w = cv.measure(&s, 13.0);
            cv.text(&s, x - w / 2.0, b + 18.0, 13.0, INK);
            v += step;
        }
        let n = c.points.len().max(1);
        let slot = (b - t) / n as f64;
        let size = (slot * 0.7).clamp(9.0, 14.0) as f32;
        let gap = (slot * 0.15).min(6.0);
        for (i, (name, v)) in c.points.iter().enumerate() {
            let y = t + slot * i as f64;
            for (from, to, colour) in segments(c, i) {
                cv.rect(x_of(from), y + gap, x_of(to), y + slot - gap, colour);
            }
            let shown = cv.fit(name, size, l - 20.0);
            let w = cv.measure(&shown, size);
            let mid = y + slot / 2.0 + size as f64 * 0.35;
            cv.text(&shown, l - 8.0 - w, mid, size, INK);
            let s = label(*v);
            cv.text(&s, x_of(*v) + 5.0, mid, size.min(12.0), MUTED);
        }
        cv.rect(l - 1.5, t, l, b, INK);
        let w = cv.measure(&c.y_label, 14.0);
        cv.text(
            &c.y_label,
            (l + r - w) / 2.0,
            HEIGHT as f64 - 14.0,
            14.0,
            MUTED,
        );
        cv.text(&c.x_label, 12.0, 60.0, 14.0, MUTED);
    }
    legend(&mut cv, &c.series);
    encode(&cv.px, &cv.palette)
}

/// Point `i`'s bar as (from, to, colour) spans of the value axis: one from 0, or a stacked
/// bar's parts one on another, bottom first.
fn segments(c: &Chart, i: usize) -> Vec<(f64, f64, [u8; 3])> {
    match c.parts.get(i).filter(|_| !c.series.is_empty()) {
        Some(parts) => {
            let mut from = 0.0;
            parts
                .iter()
                .enumerate()
                .map(|(k, part)| {
                    let span = (from, from + part, SERIES[k % SERIES.len()]);
                    from += part;
                    span
                })
                .collect()
        }
        None => vec![(0.0, c.points.get(i).map_or(0.0, |p| p.1), BAR)],
    }
}

/// A stacked chart's series, a swatch and a name each, in a row under the title (cut to fit).
fn legend(cv: &mut Canvas, series: &[String]) {
    if series.is_empty() {
        return;
    }
    let room = (WIDTH as f64 - 100.0) / series.len() as f64;
    let widths: Vec<f64> = series
        .iter()
        .map(|s| cv.measure(&cv.fit(s, 11.0, room - 18.0), 11.0) + 18.0)
        .collect();
    let mut x = (WIDTH as f64 - widths.iter().sum::<f64>()) / 2.0;
    for (k, (name, w)) in series.iter().zip(widths).enumerate() {
        cv.rect(x, 40.0, x + 10.0, 50.0, SERIES[k % SERIES.len()]);
        let shown = cv.fit(name, 11.0, room - 18.0);
        cv.text(&shown, x + 14.0, 49.0, 11.0, INK);
        x += w;
    }
}

/// Palette indices, WIDTH×HEIGHT, as an indexed-colour PNG file.
fn encode(px: &[u8], palette: &[[u8; 3]]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(px.len() + HEIGHT);
    for row in px.chunks(WIDTH) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(WIDTH as u32).to_be_bytes());
    ihdr.extend_from_slice(&(HEIGHT as u32).to_be_bytes());
    // Bit depth 8, colour type 3 (palette), deflate, no filter method, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &palette.concat());
    // Level 1: half level 6's CPU in the Worker's wasm for twice the bytes (docs/src/charts.md).
    chunk(
        &mut out,
        b"IDAT",
        &miniz_oxide::deflate::compress_to_vec_zlib(&raw, 1),
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// CRC-32 (ISO 3309, as PNG's chunks use it), a byte at a time from a table built once.
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c = CRC_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_pngs() {
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
    }

    #[test]
    fn labels_group_thousands() {
        assert_eq!(label(1234567.0), "1,234,567");
        assert_eq!(label(0.5), "0.5");
        assert_eq!(nice_step(47.0), 10.0);
    }
}
