//! Identifiers taken out of a reference line wherever they stand: a DOI (bare, `doi:`, a
//! doi.org link), a PMCID (`PMCID:`, a PMC link) and a PMID (`PMID:`, a PubMed link), each
//! with its label removed so the rest of the line reads as the citation it is. A PMCID is
//! never read as a PMID.

/// Removes `s[from..to]` and the label just before it (`doi:`, `PMID:`, a link's start).
fn cut(s: &mut String, from: usize, to: usize, labels: &[&str]) {
    let lower = s[..from].to_ascii_lowercase();
    let mut start = from;
    for l in labels {
        let trimmed = lower.trim_end();
        if trimmed.ends_with(l) {
            start = trimmed.len() - l.len();
            break;
        }
    }
    s.replace_range(start..to, " ");
}

/// The first well-formed DOI (`10.<4–9 digits>/…`), lower case, taken out of `s`.
pub fn take_doi(s: &mut String) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("10.").map(|p| p + from) {
        from = at + 3;
        let digits = lower[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let slash = lower[at + 3 + digits..].starts_with('/');
        let boundary = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        if !(4..=9).contains(&digits) || !slash || !boundary {
            continue;
        }
        let tail = &lower[at..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '}' | '"' | '<' | '>' | '|'))
            .unwrap_or(tail.len());
        let mut doi = tail[..end].to_string();
        // A sentence's period or a closing bracket is not the DOI's, unless it closes one
        // the DOI opened (10.1016/s0140-6736(97)11096-0).
        while let Some(last) = doi.chars().last() {
            let unbalanced = last == ')' && doi.matches('(').count() < doi.matches(')').count();
            if !(matches!(last, '.' | ',' | ';' | ':' | ']' | '\'') || unbalanced) {
                break;
            }
            doi.pop();
        }
        if doi.len() <= digits + 4 {
            continue;
        }
        let labels = [
            "https://doi.org/",
            "http://doi.org/",
            "https://dx.doi.org/",
            "http://dx.doi.org/",
            "doi.org/",
            "doi:",
            "doi",
        ];
        cut(s, at, at + doi.len(), &labels);
        return Some(doi);
    }
    None
}

/// "PMC5442267" (after `PMCID:` or in a PMC link), taken out of `s`.
pub fn take_pmcid(s: &mut String) -> Option<String> {
    let upper = s.to_ascii_uppercase();
    let mut from = 0;
    while let Some(at) = upper[from..].find("PMC").map(|p| p + from) {
        from = at + 3;
        let digits: String = upper[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let boundary = at == 0 || !upper.as_bytes()[at - 1].is_ascii_alphanumeric();
        if digits.is_empty() || !boundary {
            continue;
        }
        cut(
            s,
            at,
            at + 3 + digits.len(),
            &["pmcid:", "pmcid", "pmc/articles/"],
        );
        return Some(format!("PMC{digits}"));
    }
    None
}

/// "PMID: 9500320", "PMID 9500320" or a PubMed link, taken out of `s`.
pub fn take_pmid(s: &mut String) -> Option<String> {
    let upper = s.to_ascii_uppercase();
    for label in [
        "PMID",
        "PUBMED.NCBI.NLM.NIH.GOV/",
        "NCBI.NLM.NIH.GOV/PUBMED/",
    ] {
        if let Some(at) = upper.find(label) {
            let after = at + label.len();
            let gap = upper[after..].len() - upper[after..].trim_start_matches([':', ' ']).len();
            let digits: String = upper[after + gap..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !digits.is_empty() && digits.len() <= 9 {
                let start = upper[..at]
                    .rfind("HTTP")
                    .filter(|_| label != "PMID")
                    .unwrap_or(at);
                s.replace_range(start..after + gap + digits.len(), " ");
                return Some(digits.trim_start_matches('0').to_string());
            }
        }
    }
    None
}
