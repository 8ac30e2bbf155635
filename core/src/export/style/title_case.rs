//! Title case as CSL defines it for English titles: every word capitalized but the stop
//! words inside a title (articles, conjunctions, prepositions), words with capitals of
//! their own left as they are, and the short words of a hyphenated compound kept low.

/// Words that title case leaves in lower case inside a title: English articles,
/// conjunctions and prepositions (the CSL stop words, as the CSL processors apply them).
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "across",
    "afore",
    "after",
    "against",
    "al",
    "along",
    "alongside",
    "amid",
    "amidst",
    "among",
    "amongst",
    "an",
    "and",
    "anenst",
    "apropos",
    "apud",
    "around",
    "as",
    "aside",
    "astride",
    "at",
    "athwart",
    "atop",
    "barring",
    "before",
    "behind",
    "below",
    "beneath",
    "beside",
    "besides",
    "between",
    "beyond",
    "but",
    "by",
    "c",
    "ca",
    "circa",
    "de",
    "despite",
    "down",
    "during",
    "et",
    "except",
    "for",
    "forenenst",
    "from",
    "given",
    "in",
    "inside",
    "into",
    "lest",
    "like",
    "modulo",
    "near",
    "next",
    "nor",
    "notwithstanding",
    "of",
    "off",
    "on",
    "onto",
    "or",
    "out",
    "over",
    "per",
    "plus",
    "pro",
    "qua",
    "sans",
    "since",
    "so",
    "than",
    "the",
    "through",
    "throughout",
    "thruout",
    "till",
    "to",
    "toward",
    "towards",
    "under",
    "underneath",
    "until",
    "unto",
    "up",
    "upon",
    "v",
    "van",
    "versus",
    "via",
    "vis-à-vis",
    "von",
    "vs",
    "with",
    "within",
    "without",
    "yet",
];

fn is_stop_word(lower: &str) -> bool {
    let n = lower.chars().count();
    STOP_WORDS.contains(&lower)
        // citeproc-js matches "v." and "vs." as patterns: a "v" and one more letter, "vs"
        // and one more.
        || (n == 2 && lower.starts_with('v'))
        || (n == 3 && lower.starts_with("vs"))
}

/// Genera a title names most often, whose species' epithets ("Escherichia coli", "Homo
/// sapiens") keep their lower case where PubMed's title carries no italics to say so.
const GENERA: &[&str] = &[
    "Acinetobacter",
    "Aedes",
    "Anopheles",
    "Arabidopsis",
    "Aspergillus",
    "Bacillus",
    "Bacteroides",
    "Bifidobacterium",
    "Bordetella",
    "Borrelia",
    "Bos",
    "Caenorhabditis",
    "Campylobacter",
    "Candida",
    "Chlamydia",
    "Clostridioides",
    "Clostridium",
    "Cryptococcus",
    "Danio",
    "Drosophila",
    "Enterococcus",
    "Escherichia",
    "Gallus",
    "Haemophilus",
    "Helicobacter",
    "Homo",
    "Klebsiella",
    "Lactobacillus",
    "Legionella",
    "Leishmania",
    "Listeria",
    "Macaca",
    "Mus",
    "Mycobacterium",
    "Mycoplasma",
    "Neisseria",
    "Oryza",
    "Plasmodium",
    "Pseudomonas",
    "Rattus",
    "Saccharomyces",
    "Salmonella",
    "Schistosoma",
    "Schizosaccharomyces",
    "Shigella",
    "Staphylococcus",
    "Streptococcus",
    "Streptomyces",
    "Sus",
    "Toxoplasma",
    "Trypanosoma",
    "Vibrio",
    "Xenopus",
    "Yersinia",
    "Zea",
];

/// What the words before a word say of it: a species' epithet follows a genus
/// ("Escherichia coli") or its abbreviation ("E. coli").
#[derive(Clone, Copy, PartialEq)]
enum Before {
    Genus,
    Initial,
    InitialDot,
    Other,
}

/// Characters that split a title into the runs title case works on.
fn is_break(c: char) -> bool {
    matches!(
        c,
        '\u{2018}'
            | '\u{2019}'
            | '\u{201c}'
            | '\u{201d}'
            | '"'
            | '\''
            | '-'
            | '\u{2013}'
            | '\u{2014}'
            | '/'
            | '.'
            | ','
            | ';'
            | '?'
            | '!'
            | ':'
            | '['
            | ']'
            | '('
            | ')'
    )
}

fn capitalize_first(word: &str) -> String {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    // A lone Greek letter (a symbol in a scientific title) keeps its case.
    if ('\u{0370}'..='\u{03ff}').contains(&first) && chars.clone().next().is_none() {
        return word.to_string();
    }
    first.to_uppercase().chain(chars).collect()
}

/// Title case as CSL defines it for English: every word written in lower case gets a
/// capital, except stop words that are neither the first word, nor the first after a
/// colon, question or exclamation mark, nor the last; words with a capital already
/// ("iPhone", "DNA") are left as written; the parts of a hyphenated word are words.
pub fn title_case(s: &str) -> String {
    // The title as alternating runs of words and breaks.
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_break(c) {
            // An apostrophe followed by a word belongs to the word ("'s").
            let joins = c == '\''
                && chars
                    .get(i + 1)
                    .is_some_and(|n| !n.is_whitespace() && !is_break(*n));
            if joins {
                parts.push((std::mem::take(&mut current), false));
                parts.push((String::new(), true));
                current.push(c);
            } else {
                parts.push((std::mem::take(&mut current), false));
                parts.push((c.to_string(), true));
            }
        } else {
            current.push(c);
        }
        i += 1;
    }
    parts.push((current, false));

    let mut first = true;
    let mut after_punct = false;
    let mut last_word: Option<(usize, usize)> = None;
    let mut words_of: Vec<Vec<String>> = Vec::with_capacity(parts.len());
    let mut before = Before::Other;
    for (index, (text, is_tag)) in parts.iter().enumerate() {
        if *is_tag {
            if text.ends_with(['!', '?', ':']) {
                after_punct = true;
            }
            before = match (before, text.as_str()) {
                (Before::Initial, ".") => Before::InitialDot,
                _ => Before::Other,
            };
            words_of.push(Vec::new());
            continue;
        }
        let following_hyphen = parts
            .get(index + 1)
            .is_some_and(|(t, tag)| *tag && t == "-");
        // Split keeping the spaces between words.
        let mut pieces: Vec<String> = Vec::new();
        let mut buf = String::new();
        let mut in_space = false;
        for c in text.chars() {
            if c.is_whitespace() != in_space && !buf.is_empty() {
                pieces.push(std::mem::take(&mut buf));
            }
            in_space = c.is_whitespace();
            buf.push(c);
        }
        pieces.push(buf);
        let word_count = pieces.len();
        for (j, piece) in pieces.iter_mut().enumerate() {
            if piece.is_empty() || piece.chars().all(char::is_whitespace) {
                continue;
            }
            let lower = piece.to_lowercase();
            let capitalize = (piece.chars().count() > 1 && !is_stop_word(&lower))
                || (j == word_count - 1 && following_hyphen && !is_stop_word(&lower))
                || first
                || after_punct;
            // A word with a digit is a symbol ("p53", "p21"): gene and protein names keep
            // their case, as a style manual's title case keeps "mRNA" (CMOS 8.159).
            let symbol = piece.chars().any(|c| c.is_ascii_digit())
                && piece.chars().next().is_some_and(char::is_alphabetic);
            let epithet = matches!(before, Before::Genus | Before::InitialDot);
            before = if GENERA.contains(&piece.as_str()) {
                Before::Genus
            } else if piece.chars().count() == 1 && piece.chars().all(char::is_uppercase) {
                Before::Initial
            } else {
                Before::Other
            };
            if capitalize && *piece == lower && !symbol && !epithet {
                *piece = capitalize_first(piece);
            }
            first = false;
            after_punct = false;
            last_word = Some((index, j));
        }
        words_of.push(pieces);
    }
    if let Some((p, w)) = last_word {
        let word = &mut words_of[p][w];
        if word.chars().count() > 1 && is_stop_word(&word.to_lowercase()) {
            *word = capitalize_first(word);
        }
    }
    parts
        .iter()
        .zip(words_of)
        .map(|((text, is_tag), words)| {
            if *is_tag {
                text.clone()
            } else {
                words.concat()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_case_follows_csl() {
        assert_eq!(
            title_case("deep learning for in silico drug discovery: a review & outlook"),
            "Deep Learning for in Silico Drug Discovery: A Review & Outlook"
        );
        assert_eq!(
            title_case("twenty-five authors and a consortium"),
            "Twenty-Five Authors and a Consortium"
        );
        assert_eq!(
            title_case("stop words at the end: what are they for?"),
            "Stop Words at the End: What Are They For?"
        );
        assert_eq!(
            title_case("the role of p53 in DNA repair, e.g. in vitro"),
            "The Role of p53 in DNA Repair, e.g. in Vitro"
        );
        // A title's italic words (marked by super::italics) keep their case: a species'
        // epithet stays low ("Escherichia coli", not "Escherichia Coli").
        let marked = super::super::italics::mark(
            "resistance of <i>Escherichia coli</i> and <i>Homo sapiens</i> cells to BRCA1 loss",
        );
        assert_eq!(
            super::super::italics::strip(&title_case(&marked)),
            "Resistance of Escherichia coli and Homo sapiens Cells to BRCA1 Loss"
        );
        // Without italics, a known genus or a genus's initial marks its epithet.
        assert_eq!(
            title_case("growth of Saccharomyces cerevisiae and E. coli in mRNA-rich media"),
            "Growth of Saccharomyces cerevisiae and E. coli in mRNA-Rich Media"
        );
        assert_eq!(
            title_case("the homo sapiens genome"),
            "The Homo Sapiens Genome"
        );
        assert_eq!(
            title_case("mixed-case words like iPhone"),
            "Mixed-Case Words like iPhone"
        );
        assert_eq!(title_case("women's health"), "Women's Health");
        assert_eq!(
            title_case("seven authors trigger et al in vancouver"),
            "Seven Authors Trigger et al in Vancouver"
        );
        assert_eq!(
            title_case("the limit before et al"),
            "The Limit before et Al"
        );
        assert_eq!(title_case("UPPER CASE"), "UPPER CASE");
        // Short words inside a hyphenated compound stay low (CMOS 8.161), inner capitals stay.
        assert_eq!(
            title_case("cost-of-care talks on mRNA and SARS-CoV-2 in long-term care"),
            "Cost-of-Care Talks on mRNA and SARS-CoV-2 in Long-Term Care"
        );
        assert_eq!(title_case("x-ray findings"), "X-Ray Findings");
    }
}
