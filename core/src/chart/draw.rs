//! Drawing a [`Chart`] into an 800×500 RGB picture and writing it as PNG.
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

const FONT: &[u8] = include_bytes!("DejaVuSans-subset.ttf");
const WHITE: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [33, 33, 33];
const GRID: [u8; 3] = [225, 225, 225];
const MUTED: [u8; 3] = [110, 110, 110];

struct Canvas {
    px: Vec<u8>,
    font: Option<FontRef<'static>>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            px: WHITE.repeat(WIDTH * HEIGHT),
            font: FontRef::try_from_slice(FONT).ok(),
        }
    }

    fn blend(&mut self, x: i64, y: i64, c: [u8; 3], a: f32) {
        if x < 0 || y < 0 || x >= WIDTH as i64 || y >= HEIGHT as i64 || a <= 0.0 {
            return;
        }
        let i = (y as usize * WIDTH + x as usize) * 3;
        let a = a.min(1.0);
        for (k, &want) in c.iter().enumerate() {
            let old = self.px[i + k] as f32;
            self.px[i + k] = (old + (want as f32 - old) * a).round() as u8;
        }
    }

    fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: [u8; 3]) {
        let (xa, xb) = (x0.min(x1).round() as i64, x0.max(x1).round() as i64);
        let (ya, yb) = (y0.min(y1).round() as i64, y0.max(y1).round() as i64);
        for y in ya.max(0)..yb.min(HEIGHT as i64) {
            for x in xa.max(0)..xb.min(WIDTH as i64) {
                let i = (y as usize * WIDTH + x as usize) * 3;
                self.px[i..i + 3].copy_from_slice(&c);
            }
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

    /// Draws `text` with its baseline's left end at (x, y).
    fn text(&mut self, text: &str, x: f64, y: f64, size: f32, c: [u8; 3]) {
        let Some(font) = self.font.clone() else {
            return;
        };
        let scale = PxScale::from(size);
        let f = font.as_scaled(scale);
        let mut pen = x as f32;
        for ch in text.chars() {
            let id = glyph_of(&font, ch);
            let g = id.with_scale_and_position(scale, ab_glyph::point(pen, y as f32));
            pen += f.h_advance(id);
            if let Some(o) = font.outline_glyph(g) {
                let b = o.px_bounds();
                o.draw(|gx, gy, a| {
                    self.blend(b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64, c, a)
                });
            }
        }
    }

    /// `text` cut with an ellipsis to fit `width` pixels.
    fn fit(&self, text: &str, size: f32, width: f64) -> String {
        if self.measure(text, size) <= width {
            return text.to_string();
        }
        let mut s: String = text.to_string();
        while !s.is_empty() && self.measure(&format!("{s}…"), size) > width {
            s.pop();
        }
        format!("{}…", s.trim_end())
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
            Kind::Bar => {
                let gap = (slot * 0.15).min(8.0);
                for (i, (_, v)) in c.points.iter().enumerate() {
                    let x = l + slot * i as f64;
                    cv.rect(x + gap, y_of(*v), x + slot - gap, y_of(0.0), BAR);
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
            cv.rect(x_of(0.0), y + gap, x_of(*v), y + slot - gap, BAR);
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
    encode(&cv.px)
}

/// RGB pixels, WIDTH×HEIGHT, as a PNG file.
fn encode(px: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(px.len() + HEIGHT);
    for row in px.chunks(WIDTH * 3) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(WIDTH as u32).to_be_bytes());
    ihdr.extend_from_slice(&(HEIGHT as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
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

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
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
