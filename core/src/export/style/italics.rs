//! A title's own italics (PubMed's `<i>` in ArticleTitle: species, genes, "in vitro") kept
//! through the styles: each word inside them is wrapped in two private-use marks, which
//! title case cannot capitalize past ("Escherichia coli" stays so, as CSL's nocase would
//! keep it), plain text drops and Markdown writes as `*…*`. `<b>`, `<sup>` and `<sub>`
//! keep their text only.

use crate::export::record::Record;

/// Opens one italic word of a title.
pub const ON: char = '\u{e000}';
/// Closes it.
pub const OFF: char = '\u{e001}';

/// The record's title with its italic words marked, or its plain title without markup.
pub fn marked_title(r: &Record) -> String {
    match &r.title_markup {
        Some(m) => mark(m),
        None => r.title.clone(),
    }
}

/// `<i>Escherichia coli</i>` → each word between [`ON`] and [`OFF`]; other tags dropped.
pub fn mark(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len() + 8);
    let mut italic = 0usize;
    let mut in_word = false;
    let mut rest = markup;
    while let Some(c) = rest.chars().next() {
        let tag = [
            "<i>", "</i>", "<b>", "</b>", "<sup>", "</sup>", "<sub>", "</sub>",
        ]
        .into_iter()
        .find(|t| rest.starts_with(t));
        if let Some(t) = tag {
            if in_word {
                out.push(OFF);
                in_word = false;
            }
            match t {
                "<i>" => italic += 1,
                "</i>" => italic = italic.saturating_sub(1),
                _ => {}
            }
            rest = &rest[t.len()..];
            continue;
        }
        let word = c.is_alphanumeric();
        if italic > 0 && word && !in_word {
            out.push(ON);
            in_word = true;
        } else if in_word && !word {
            out.push(OFF);
            in_word = false;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if in_word {
        out.push(OFF);
    }
    out
}

/// `s` without the marks (plain text, or text already in italics).
pub fn strip(s: &str) -> String {
    s.chars().filter(|c| *c != ON && *c != OFF).collect()
}

/// `s` (already escaped for Markdown) with each run of marked words as one `*…*`: the
/// marks between two italic words of one run go, with the space or hyphen between kept.
pub fn markdown(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut open = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            ON if open => {}
            ON => {
                out.push('*');
                open = true;
            }
            OFF => {
                // The next italic word follows after non-word characters only: one run.
                let next = chars[i + 1..]
                    .iter()
                    .position(|c| *c == ON || c.is_alphanumeric() || *c == '\n');
                let joins = next.is_some_and(|n| chars[i + 1 + n] == ON)
                    && chars[i + 1..]
                        .iter()
                        .take(next.unwrap_or(0))
                        .all(|c| matches!(c, ' ' | '-' | '\u{2011}' | '.'));
                if !joins {
                    out.push('*');
                    open = false;
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn italic_words_are_marked_and_written_per_format() {
        let m = mark("Resistance of <i>Escherichia coli</i> to <i>TERT</i>, Ca<sup>2+</sup>.");
        assert_eq!(
            m,
            "Resistance of \u{e000}Escherichia\u{e001} \u{e000}coli\u{e001} to \u{e000}TERT\u{e001}, Ca2+."
        );
        assert_eq!(strip(&m), "Resistance of Escherichia coli to TERT, Ca2+.");
        assert_eq!(
            markdown(&m),
            "Resistance of *Escherichia coli* to *TERT*, Ca2+."
        );
        assert_eq!(markdown(&mark("<i>E. coli</i> K-12")), "*E. coli* K-12");
    }
}
