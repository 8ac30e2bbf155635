//! PubChem identifier shapes: what a CID, an InChIKey, an InChI or a formula looks like.
//!
//! PubChem answers a malformed identifier with "Unable to standardize the
//! given structure" or "No CID found", and an assistant reads either as "the
//! compound does not exist". An InChIKey sent as a name, or a CID sent as a
//! SMILES, fails the same way. These functions recognise each namespace's
//! shape so the checker can refuse what cannot work and name the namespace
//! that would (element symbols are in [`crate::tools::entrez_external::pubchem::atoms`]); SMILES have their own sanity check in [`crate::tools::entrez_external::pubchem::smiles`].

use crate::tools::entrez_external::pubchem::atoms::{digits, ELEMENTS};
use crate::tools::entrez_external::pubchem::smiles::smiles_problems;

/// The namespace an identifier's shape points to, for "use namespace X instead".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Digits only: a CID, SID, AID or ListKey.
    Digits,
    /// `^[A-Z]{14}-[A-Z]{10}-[A-Z]$`.
    InChIKey,
    /// Starts with `InChI=`.
    InChI,
    /// Element symbols with counts, at least one count.
    Formula,
    /// Passes the SMILES sanity check without a fatal problem.
    Smiles,
    /// Words: a chemical or trade name.
    Name,
}

/// A positive record number as PubChem numbers them (CID, SID, AID: from 1).
pub fn record_number(s: &str) -> bool {
    digits(s) && s.bytes().any(|b| b != b'0')
}

/// Whether `s` has the InChIKey shape: 14 letters, hyphen, 10 letters, hyphen, 1 letter.
pub fn is_inchikey(s: &str) -> bool {
    // The tool's own test, so that what passes here is what the request builder sends.
    crate::tools::entrez_external::pubchem::plan::is_inchikey(s)
}

/// Why `s` is not a molecular formula such as C9H8O4, or `None` when it is one.
pub fn formula_problem(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("An empty formula.".into());
    }
    if let Some(c) = s.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Some(format!(
            "\"{s}\" contains {c:?}; a formula is element symbols with counts, such as C9H8O4 (no charges, dots or spaces)."
        ));
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_uppercase() {
            return Some(format!(
                "\"{s}\" is not a formula: element symbols start with a capital letter (C9H8O4, NaCl)."
            ));
        }
        let mut end = i + 1;
        if end < b.len() && b[end].is_ascii_lowercase() {
            end += 1;
        }
        let symbol = &s[i..end];
        if !ELEMENTS.contains(&symbol) {
            return Some(format!(
                "\"{s}\" is not a formula: {symbol} is not an element symbol."
            ));
        }
        let count_start = end;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if end > count_start && b[count_start] == b'0' {
            return Some(format!(
                "\"{s}\" is not a formula: the count after {symbol} starts with 0."
            ));
        }
        i = end;
    }
    None
}

/// Why `s` is not an InChI PubChem can read, or `None` when it has the shape.
pub fn inchi_problem(s: &str) -> Option<String> {
    let Some(rest) = s.strip_prefix("InChI=") else {
        if let Some(head) = s.get(..6).filter(|h| h.eq_ignore_ascii_case("inchi=")) {
            return Some(format!(
                "\"{s}\" starts with \"{head}\"; InChI strings start with exactly \"InChI=\"."
            ));
        }
        if s.starts_with("1S/") || s.starts_with("1/") {
            return Some(format!(
                "\"{s}\" lacks the \"InChI=\" prefix; write InChI={s}."
            ));
        }
        return Some(format!(
            "\"{s}\" is not an InChI: InChI strings start with \"InChI=1S/\" (standard) or \"InChI=1/\"."
        ));
    };
    if !(rest.starts_with("1S/") || rest.starts_with("1/")) {
        return Some(format!(
            "\"{s}\" has no InChI version layer: after \"InChI=\" comes 1S/ (standard InChI) or 1/."
        ));
    }
    if rest.trim_end_matches('/').len() <= 3 {
        return Some(format!("\"{s}\" has no formula layer after the version."));
    }
    if s.chars().any(char::is_whitespace) {
        return Some(format!(
            "\"{s}\" contains whitespace, which no InChI layer holds; remove it."
        ));
    }
    None
}

/// SMARTS is a query language with its own grammar; only what no SMARTS can be is checked.
pub fn smarts_problem(s: &str) -> Option<String> {
    for (open, close, what) in [('(', ')', "parenthesis"), ('[', ']', "bracket")] {
        let mut depth: i64 = 0;
        for c in s.chars() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth < 0 {
                    return Some(format!(
                        "\"{s}\" closes a {what} ('{close}') that was never opened."
                    ));
                }
            }
        }
        if depth > 0 {
            return Some(format!(
                "\"{s}\" leaves {depth} '{open}' unclosed: every {what} must close with '{close}'."
            ));
        }
    }
    None
}

/// The namespace `s` most likely belongs to, judged by shape alone.
pub fn guess(s: &str) -> Option<Shape> {
    let t = s.trim();
    if digits(t) {
        return Some(Shape::Digits);
    }
    if is_inchikey(&t.to_ascii_uppercase()) {
        return Some(Shape::InChIKey);
    }
    if t.get(..6).is_some_and(|h| h.eq_ignore_ascii_case("inchi=")) {
        return Some(Shape::InChI);
    }
    if formula_problem(t).is_none() && t.bytes().any(|b| b.is_ascii_digit()) {
        return Some(Shape::Formula);
    }
    if !smiles_problems(t).iter().any(|p| p.fatal) {
        return Some(Shape::Smiles);
    }
    // A name has a word in it; "c9h8o4" is a mis-cased formula, not a name.
    let word = t
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.len() >= 3 && w.bytes().any(|b| b.is_ascii_lowercase()));
    word.then_some(Shape::Name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_inchis_and_keys() {
        assert_eq!(formula_problem("C9H8O4"), None);
        assert_eq!(formula_problem("NaCl"), None);
        assert_eq!(formula_problem("C2D6O"), None);
        assert!(formula_problem("c9h8o4").is_some());
        assert!(formula_problem("C9H8Q4").is_some());
        assert!(formula_problem("C9H8O4+").is_some());
        assert!(formula_problem("C09").is_some());
        let aspirin = "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)";
        assert_eq!(inchi_problem(aspirin), None);
        assert!(inchi_problem(&aspirin[6..]).unwrap().contains("prefix"));
        assert!(inchi_problem("inchi=1S/CH4/h1H4").is_some());
        assert!(inchi_problem("InChI=2/CH4").is_some());
        assert!(inchi_problem("InChI=1S/").is_some());
        assert!(is_inchikey("BSYNRYMUTXBXSQ-UHFFFAOYSA-N"));
        assert!(!is_inchikey("bsynrymutxbxsq-uhfffaoysa-n"));
        assert_eq!(smarts_problem("[$([CX3]=O)][OX2H1]"), None);
        assert!(smarts_problem("[CX3](=O").is_some());
    }

    #[test]
    fn shapes_point_to_namespaces() {
        assert_eq!(guess("2244"), Some(Shape::Digits));
        assert_eq!(guess("BSYNRYMUTXBXSQ-UHFFFAOYSA-N"), Some(Shape::InChIKey));
        assert_eq!(guess("InChI=1S/CH4/h1H4"), Some(Shape::InChI));
        assert_eq!(guess("C9H8O4"), Some(Shape::Formula));
        assert_eq!(guess("CC(=O)O"), Some(Shape::Smiles));
        assert_eq!(guess("aspirin"), Some(Shape::Name));
        assert_eq!(guess("acetylsalicylic acid"), Some(Shape::Name));
        assert_eq!(guess("!?"), None);
        assert_eq!(guess("c9h8o4"), None);
        assert_eq!(guess("BSYNRYMUTXBXSQ-UHFFFAOYSA"), None);
    }
}
