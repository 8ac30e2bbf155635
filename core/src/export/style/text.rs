//! The text of one entry as it is put together: runs of plain, italic and linked text, the
//! punctuation between parts (a period after "?" or after "et al." is not doubled, a
//! comma or period that follows a quoted title goes inside the quotes, as American
//! English and the CSL processors put it), and typographic quotes and apostrophes (title
//! case is [`super::title_case`]'s).

use super::italics;

/// A run of an entry's text.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    text: String,
    italic: bool,
    link: Option<String>,
}

/// An entry under construction.
#[derive(Debug, Default, Clone)]
pub struct Entry {
    runs: Vec<Run>,
}

/// How an entry is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// Plain text, as CSL processors write their text output.
    Text,
    /// Markdown: italics as `*…*`, DOIs and PubMed links as links.
    Markdown,
}

impl Entry {
    /// The last character written, if any.
    pub fn last_char(&self) -> Option<char> {
        self.runs.iter().rev().find_map(|r| r.text.chars().last())
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.runs.iter().all(|r| r.text.is_empty())
    }

    fn push(&mut self, text: &str, italic: bool, link: Option<String>) {
        if text.is_empty() {
            return;
        }
        let narrowed = narrow_spaces(text);
        let text = narrowed.as_str();
        match self.runs.last_mut() {
            Some(r) if r.italic == italic && r.link.is_none() && link.is_none() => {
                r.text.push_str(text)
            }
            _ => self.runs.push(Run {
                text: text.to_string(),
                italic,
                link,
            }),
        }
    }

    /// Plain text.
    pub fn text(&mut self, text: &str) {
        self.push(text, false, None);
    }

    /// Italic text.
    pub fn italic(&mut self, text: &str) {
        self.push(text, true, None);
    }

    /// Text linked to `url` (in Markdown; plain text shows the text only).
    pub fn link(&mut self, text: &str, url: &str) {
        self.push(text, false, Some(url.to_string()));
    }

    /// Punctuation between parts: `.` after a sentence end (`.`, `?`, `!`, also inside a
    /// closing quote) is dropped.
    pub fn punct(&mut self, p: &str) {
        let last = self
            .runs
            .iter()
            .rev()
            .flat_map(|r| r.text.chars().rev())
            .find(|c| !matches!(c, '\u{201d}' | '\u{2019}'));
        if p.starts_with('.') && matches!(last, Some('.' | '?' | '!')) {
            self.text(&p[1..]);
            return;
        }
        // American English puts a period or comma inside the quotes that end the text
        // before it (CSL's punctuation-in-quote, as the en-US locale sets it).
        if p.starts_with(['.', ',']) {
            if let Some(run) = self.runs.last_mut().filter(|r| r.link.is_none()) {
                let quotes = closing_quotes(&run.text);
                if quotes > 0 {
                    let at = run.text.len() - quotes;
                    run.text.insert_str(at, &p[..1]);
                    let rest = p[1..].to_string();
                    self.text(&rest);
                    return;
                }
            }
        }
        self.text(p);
    }

    /// A title in typographic quotes, the punctuation that follows it (`after`, "," or
    /// ".") inside them: “Title,” — unless the title ends in `?` or `!`, where a period
    /// is dropped (“Why?”) and a comma kept (“Why?,”). Quotes inside the title turn to
    /// single ones.
    pub fn quoted(&mut self, title: &str, after: &str) {
        let inner = flip_quotes(&typographic(title));
        let mut s = String::from("\u{201c}");
        // Punctuation goes inside the title's own closing quotes too: “… ‘affordable,’”.
        let quotes = closing_quotes(&inner);
        let (body, closing) = inner.split_at(inner.len() - quotes);
        s.push_str(body);
        let ends = body.chars().last();
        match after {
            "." if matches!(ends, Some('?' | '!' | '.')) => {}
            a => s.push_str(a),
        }
        s.push_str(closing);
        s.push('\u{201d}');
        self.text(&s);
    }

    /// The entry written out.
    pub fn render(&self, markup: Markup) -> String {
        let mut out = String::new();
        for r in &self.runs {
            match markup {
                Markup::Text => out.push_str(&italics::strip(&r.text)),
                Markup::Markdown => {
                    // A title's own italics: `*…*` in roman text, plain inside italics.
                    let body = escape_markdown(&r.text);
                    let body = if r.italic {
                        italics::strip(&body)
                    } else {
                        italics::markdown(&body)
                    };
                    match (&r.link, r.italic) {
                        (Some(url), _) => out.push_str(&format!("[{body}](<{url}>)")),
                        (None, true) => {
                            // Emphasis cannot begin or end with a space.
                            let t = body.trim();
                            let lead = &body[..body.len() - body.trim_start().len()];
                            let tail = &body[body.trim_end().len()..];
                            out.push_str(&format!("{lead}*{t}*{tail}"));
                        }
                        (None, false) => out.push_str(&body),
                    }
                }
            }
        }
        out
    }
}

/// A space before `:`, `;`, `?`, `!` or `»` turned into a narrow no-break space, as citeproc-js
/// does to every string it writes, whatever the locale ("Calif. : 1997" → "Calif.\u{202f}: 1997").
pub fn narrow_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' && matches!(chars.peek(), Some(':' | ';' | '?' | '!' | '\u{bb}')) {
            out.push('\u{202f}');
        } else {
            out.push(c);
        }
        if c == '\u{ab}' && chars.peek() == Some(&' ') {
            chars.next();
            out.push('\u{202f}');
        }
    }
    out
}

/// Markdown's inline specials escaped.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '[' | ']' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Straight quotes and apostrophes as typographic ones: `"` opens after a space or an
/// opening bracket and closes otherwise; `'` opens likewise, else it is an apostrophe.
pub fn typographic(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        let opening = prev.is_none_or(|p| {
            p.is_whitespace()
                || matches!(
                    p,
                    '(' | '[' | '{' | '\u{201c}' | '\u{2018}' | '-' | '\u{2013}' | '\u{2014}'
                )
        });
        out.push(match c {
            '"' if opening => '\u{201c}',
            '"' => '\u{201d}',
            '\'' if opening => '\u{2018}',
            '\'' => '\u{2019}',
            c => c,
        });
        prev = Some(c);
    }
    out
}

/// Which `’` of `s` close a single quote (one is open and no letter follows) rather than
/// being apostrophes, by byte offset.
fn closing_singles(s: &str) -> Vec<usize> {
    let mut open = 0usize;
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\u{2018}' => open += 1,
            '\u{2019}' if open > 0 && !chars.peek().is_some_and(|(_, n)| n.is_alphanumeric()) => {
                open -= 1;
                out.push(at);
            }
            _ => {}
        }
    }
    out
}

/// The quotation marks of text that goes inside quotes one level down, as citeproc-js nests
/// them: the text's own quotes, double or single, become single, quotes inside those
/// double, and so on (an apostrophe stays one).
fn flip_quotes(s: &str) -> String {
    let closing = closing_singles(s);
    // The level of each quote open: true where it is written single.
    let mut open: Vec<bool> = Vec::new();
    s.char_indices()
        .map(|(at, c)| match c {
            '\u{201c}' | '\u{2018}' => {
                let single = open.len().is_multiple_of(2);
                open.push(single);
                if single {
                    '\u{2018}'
                } else {
                    '\u{201c}'
                }
            }
            '\u{201d}' => match open.pop() {
                Some(false) => '\u{201d}',
                _ => '\u{2019}',
            },
            '\u{2019}' if closing.contains(&at) => match open.pop() {
                Some(false) => '\u{201d}',
                _ => '\u{2019}',
            },
            c => c,
        })
        .collect()
}

/// The bytes of closing quotation marks that end `s` (`”`, and a `’` that closes a `‘`).
fn closing_quotes(s: &str) -> usize {
    let closing = closing_singles(s);
    let mut n = 0;
    for (at, c) in s.char_indices().rev() {
        match c {
            '\u{201d}' => n += c.len_utf8(),
            '\u{2019}' if closing.contains(&at) => n += c.len_utf8(),
            _ => break,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_before_colons_narrow_as_citeproc_js_writes_them() {
        assert_eq!(
            narrow_spaces("J Magn Reson (San Diego, Calif. : 1997)"),
            "J Magn Reson (San Diego, Calif.\u{202f}: 1997)"
        );
        assert_eq!(
            narrow_spaces("Why ? Yes; no !"),
            "Why\u{202f}? Yes; no\u{202f}!"
        );
        assert_eq!(narrow_spaces("a: b"), "a: b");
    }

    #[test]
    fn punctuation_quotes_and_markdown() {
        let mut e = Entry::default();
        e.text("Smith J et al.");
        e.punct(". ");
        e.quoted("What \"real\" data?", ",");
        e.text(" ");
        e.italic("Journal");
        e.punct(". ");
        e.link("doi:10.1/x_(y)", "https://doi.org/10.1/x_(y)");
        assert_eq!(
            e.render(Markup::Text),
            "Smith J et al. \u{201c}What \u{2018}real\u{2019} data?,\u{201d} Journal. doi:10.1/x_(y)"
        );
        assert_eq!(
            e.render(Markup::Markdown),
            "Smith J et al. \u{201c}What \u{2018}real\u{2019} data?,\u{201d} *Journal*. [doi:10.1/x\\_(y)](<https://doi.org/10.1/x_(y)>)"
        );
        assert_eq!(
            typographic("O'Brien's \"test\""),
            "O\u{2019}Brien\u{2019}s \u{201c}test\u{201d}"
        );
    }

    #[test]
    fn quotes_nest_and_punctuation_goes_inside_them() {
        let title = typographic("\"Cost-of-care\" talks: what patients call 'affordable'");
        // Inside a quoted title the title's own quotes, double or single, turn single.
        let mut e = Entry::default();
        e.quoted(&title, ",");
        assert_eq!(
            e.render(Markup::Text),
            "\u{201c}\u{2018}Cost-of-care\u{2019} talks: what patients call \u{2018}affordable,\u{2019}\u{201d}"
        );
        // Unquoted, the period that follows goes inside the title's closing quote.
        let mut e = Entry::default();
        e.text(&title);
        e.punct(". ");
        assert!(e
            .render(Markup::Text)
            .ends_with("\u{2018}affordable.\u{2019} "));
        // An apostrophe is not a closing quote.
        let mut e = Entry::default();
        e.text(&typographic("the nurses' view"));
        e.punct(". ");
        assert_eq!(e.render(Markup::Text), "the nurses\u{2019} view. ");
    }
}
