//! The SMILES sanity check: what no SMILES reader accepts, and what only some forgive.
//!
//! A wrong SMILES costs a PubChem request and comes back as "Unable to
//! standardize the given structure", which reads like "no such compound".
//! This is a sanity check, not a parse: characters SMILES uses, bracket atoms
//! and branches that open and close, atoms a reader knows, ring labels that
//! pair. Only what no reader accepts is fatal; what a lenient reader (PubChem
//! standardises with OpenEye's) may still take, or what this walk cannot be
//! sure of, only warns, so a structure PubChem would run is never refused.

use crate::tools::entrez_external::pubchem::atoms::digits;

use crate::tools::entrez_external::pubchem::atoms::is_element as element;

/// What a structure check found: `fatal` when no SMILES/InChI reader accepts the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Clearly impossible (an error) rather than doubtful (a warning).
    pub fatal: bool,
    /// One sentence naming the offending part.
    pub message: String,
}

impl Problem {
    fn fatal(message: String) -> Problem {
        Problem {
            fatal: true,
            message,
        }
    }

    fn doubt(message: String) -> Problem {
        Problem {
            fatal: false,
            message,
        }
    }
}

/// SMILES's organic subset, the only atoms it may write without brackets.
const ORGANIC: &[&str] = &["B", "C", "N", "O", "P", "S", "F", "Cl", "Br", "I"];
/// Aromatic atoms allowed without brackets.
const AROMATIC: &[u8] = b"bcnops";
/// Bond symbols, the dot between components, and `*` (any atom).
const BONDS: &[u8] = b"-=#$:/\\.*";

/// Ring labels still open at the end, in the order they were opened.
type OpenRings = Vec<String>;

/// The SMILES sanity check: every problem found, fatal ones first.
pub fn smiles_problems(text: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    let s = text.trim();
    if s.is_empty() {
        return vec![Problem::fatal("An empty SMILES.".into())];
    }
    // SMILES ends at whitespace; what follows is a title (or a CXSMILES extension) readers may drop.
    let smiles = match s.split_once(char::is_whitespace) {
        Some((head, tail)) => {
            found.push(Problem::doubt(format!(
                "\"{s}\" has text after a space (\"{}\"); SMILES readers treat it as a title and PubChem may ignore or refuse it.",
                tail.trim()
            )));
            head
        }
        None => s,
    };
    let mut fatal = Vec::new();
    let open = scan(smiles, &mut fatal, &mut found);
    if fatal.is_empty() && !open.is_empty() {
        found.push(Problem::doubt(format!(
            "Ring-closure label(s) {} in \"{smiles}\" open a ring that never closes; PubChem will most likely refuse the structure.",
            open.join(", ")
        )));
    }
    fatal.extend(found);
    fatal
}

fn fail(fatal: &mut Vec<Problem>, message: String) {
    fatal.push(Problem::fatal(message));
}

/// Walks the SMILES once: brackets, branches, atoms outside brackets and ring labels.
fn scan(s: &str, fatal: &mut Vec<Problem>, doubts: &mut Vec<Problem>) -> OpenRings {
    let b = s.as_bytes();
    let mut open: OpenRings = Vec::new();
    let mut branches: i64 = 0;
    let mut atoms = 0usize;
    let mut i = 0;
    while i < b.len() && fatal.is_empty() {
        let c = b[i];
        match c {
            b'[' => match s[i + 1..].find([']', '[']) {
                Some(k) if b[i + 1 + k] == b']' => {
                    let inner = &s[i + 1..i + 1 + k];
                    if let Some(m) = bracket_problem(s, inner) {
                        fail(fatal, m);
                    }
                    atoms += 1;
                    i += k + 2;
                    continue;
                }
                Some(_) => fail(
                    fatal,
                    format!("\"{s}\" opens a bracket atom inside another ('[' before ']')."),
                ),
                None => fail(
                    fatal,
                    format!("\"{s}\" opens a bracket atom '[' that never closes."),
                ),
            },
            b']' => fail(
                fatal,
                format!("\"{s}\" closes a bracket ']' that was never opened."),
            ),
            b'(' => {
                if b.get(i + 1) == Some(&b')') {
                    fail(fatal, format!("\"{s}\" has an empty branch \"()\"."));
                }
                branches += 1;
            }
            b')' => {
                branches -= 1;
                if branches < 0 {
                    fail(
                        fatal,
                        format!("\"{s}\" closes a branch ')' that was never opened."),
                    );
                }
            }
            b'0'..=b'9' | b'%' => {
                let label = if c == b'%' {
                    // %nn, or OpenSMILES's %(nnn) for labels past 99.
                    let long = s[i + 1..]
                        .strip_prefix('(')
                        .and_then(|r| r.split_once(')'))
                        .map(|(l, _)| l)
                        .filter(|l| digits(l));
                    let two = s.get(i + 1..i + 3).filter(|l| digits(l));
                    match (long, two) {
                        (Some(l), _) => {
                            i += l.len() + 2;
                            l.to_string()
                        }
                        (None, Some(l)) => {
                            i += 2;
                            l.to_string()
                        }
                        (None, None) => {
                            fail(fatal, format!("\"{s}\" has '%' without the two digits of a ring label (%10 to %99, or %(100) and up)."));
                            break;
                        }
                    }
                } else {
                    (c as char).to_string()
                };
                if atoms == 0 {
                    fail(
                        fatal,
                        format!("\"{s}\" starts with a ring-closure label before any atom."),
                    );
                } else if let Some(p) = open.iter().position(|l| *l == label) {
                    open.remove(p);
                } else {
                    open.push(label);
                }
            }
            c if BONDS.contains(&c) => {
                if c == b'*' {
                    atoms += 1;
                }
            }
            c if c.is_ascii_alphabetic() => {
                let (len, problem) = bare_atom(s, i);
                match problem {
                    Some(p) if p.fatal => fatal.push(p),
                    Some(p) => doubts.push(p),
                    None => {}
                }
                atoms += 1;
                i += len;
                continue;
            }
            c => {
                let shown = s[i..].chars().next().unwrap_or(c as char);
                fail(
                    fatal,
                    format!("\"{s}\" contains {shown:?}, which SMILES never uses."),
                );
            }
        }
        i += 1;
    }
    if fatal.is_empty() && branches > 0 {
        fail(
            fatal,
            format!("\"{s}\" leaves {branches} '(' unclosed: every branch must close with ')'."),
        );
    }
    if fatal.is_empty() && atoms == 0 {
        fail(fatal, format!("\"{s}\" has no atom."));
    }
    open
}

/// An atom outside brackets at `i`: its length, and what is wrong with it.
fn bare_atom(s: &str, i: usize) -> (usize, Option<Problem>) {
    let b = s.as_bytes();
    let one = &s[i..i + 1];
    let next = b.get(i + 1).copied().filter(u8::is_ascii_lowercase);
    let two = next.and_then(|_| s.get(i..i + 2));
    if let Some(t) = two.filter(|t| ORGANIC.contains(t)) {
        return (t.len(), None);
    }
    // "Sc" and "Co" are S then aromatic c, C then aromatic o: SMILES reads the organic atom first.
    let organic = ORGANIC.contains(&one) || AROMATIC.contains(&b[i]);
    if organic && next.is_none_or(|n| AROMATIC.contains(&n)) {
        return (1, None);
    }
    // Other elements need brackets; some readers forgive "Na" or "CH4", so this only warns.
    let unbracketed = |t: &str| {
        Problem::doubt(format!(
            "\"{s}\" writes {t} without brackets; SMILES writes it [{t}] (only B, C, N, O, P, S, F, Cl, Br and I may go bare)."
        ))
    };
    if let Some(t) = two.filter(|t| element(t)) {
        return (2, Some(unbracketed(t)));
    }
    if organic {
        return (1, None);
    }
    if element(one) {
        return (1, Some(unbracketed(one)));
    }
    let m = format!("\"{s}\" contains '{one}', which is no atom SMILES can write here.");
    (1, Some(Problem::fatal(m)))
}

/// What is wrong inside `[...]`: isotope, element, chirality, hydrogens, charge, class.
fn bracket_problem(s: &str, inner: &str) -> Option<String> {
    if let Some(c) = inner
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '@' | '+' | '-' | ':' | '*')))
    {
        return Some(format!(
            "\"{s}\" has {c:?} inside the bracket atom [{inner}]."
        ));
    }
    let symbol = inner.trim_start_matches(|c: char| c.is_ascii_digit());
    let letters: String = symbol
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .take(2)
        .collect();
    let known = |t: &str| {
        element(t)
            || t == "*"
            || matches!(t, "b" | "c" | "n" | "o" | "p" | "s" | "se" | "as" | "te")
    };
    let ok = symbol.starts_with('*')
        || (letters.len() == 2 && known(&letters))
        || letters.get(..1).is_some_and(known);
    if ok {
        None
    } else {
        Some(format!(
            "\"{s}\" has no element symbol in the bracket atom [{inner}]."
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fatal(s: &str) -> bool {
        smiles_problems(s).iter().any(|p| p.fatal)
    }

    fn clean(s: &str) -> bool {
        smiles_problems(s).is_empty()
    }

    #[test]
    fn real_smiles_pass() {
        for s in [
            "CC(=O)OC1=CC=CC=C1C(=O)O",
            "C1=CC=CC=C1",
            "c1ccccc1",
            "C/C=C/C",
            "[Na+].[Cl-]",
            "C[C@@H](C(=O)O)N",
            "[13CH4]",
            "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
            "C%10CCCCC%10",
            "C%(123)CC%(123)",
            "ClC(Cl)Cl",
            "O=C=O",
            "[2H]C([2H])([2H])[2H]",
            "[Fe+2]",
            "[se]1cccc1",
            "*C",
        ] {
            assert!(clean(s), "{s}: {:?}", smiles_problems(s));
        }
    }

    #[test]
    fn impossible_smiles_are_fatal() {
        for s in [
            "CC(C", "CC)C", "C[NH4+", "C]C", "C[[N]]", "CC()C", "1CC1", "CC!C", "C,C", "aspirin",
            "C[+]", "", "()", "C%1",
        ] {
            assert!(fatal(s), "{s}: {:?}", smiles_problems(s));
        }
    }

    #[test]
    fn doubtful_smiles_only_warn() {
        for s in ["C1CC", "NaCl", "CCO ethanol", "CH4"] {
            let p = smiles_problems(s);
            assert!(!p.is_empty() && !p.iter().any(|p| p.fatal), "{s}: {p:?}");
        }
    }
}
