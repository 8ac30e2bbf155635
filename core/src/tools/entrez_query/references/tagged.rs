//! BibTeX and RIS entries pasted as one string, read by their tags.

use super::parts::{first_author, first_page, Read};

/// `@article{key, title = {…}, author = {A and B}, …}`.
pub fn bibtex(s: &str, r: &mut Read) {
    r.style = Some("bibtex");
    let lower = s.to_ascii_lowercase();
    let field = |name: &str| -> Option<String> {
        let mut from = 0;
        while let Some(at) = lower[from..].find(name).map(|p| p + from) {
            from = at + name.len();
            let before_ok = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
            let rest = lower[at + name.len()..].trim_start();
            if !before_ok || !rest.starts_with('=') {
                continue;
            }
            let value_at = s.len() - rest.len() + 1;
            let v = s[value_at..].trim_start();
            let text = if let Some(inner) = v.strip_prefix('{') {
                let mut depth = 1;
                let mut end = inner.len();
                for (i, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                inner[..end].replace(['{', '}'], "")
            } else if let Some(inner) = v.strip_prefix('"') {
                inner.split('"').next().unwrap_or("").to_string()
            } else {
                v.split([',', '}']).next().unwrap_or("").trim().to_string()
            };
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            return (!text.is_empty()).then_some(text);
        }
        None
    };
    r.title = field("title");
    r.journal = field("journal");
    r.year = field("year").and_then(|y| y.get(..4)?.parse().ok());
    r.volume = field("volume");
    r.issue = field("number");
    r.first_page = field("pages").map(|p| first_page(&p));
    if let Some(a) = field("author") {
        let first = a.split(" and ").next().unwrap_or("");
        let (family, initials) = first_author(first.trim());
        r.authors = vec![family];
        r.initials = initials;
    }
    if r.doi.is_none() {
        r.doi = field("doi").map(|d| d.to_ascii_lowercase());
    }
    if r.pmid.is_none() {
        r.pmid = field("pmid");
    }
}

/// RIS pasted as one string: `TY  - JOUR AU  - Smith, J. TI  - … ER  -` (spaces squeezed).
pub fn ris(s: &str, r: &mut Read) {
    r.style = Some("ris");
    let mut tags: Vec<(String, String)> = Vec::new();
    let b = s.as_bytes();
    let mut starts = Vec::new();
    for i in 0..b.len().saturating_sub(5) {
        let tag = b[i].is_ascii_uppercase() && b[i + 1].is_ascii_alphanumeric();
        let boundary = i == 0 || b[i - 1].is_ascii_whitespace();
        if tag && boundary && &b[i + 2..i + 5] == b" - " {
            starts.push(i);
        }
    }
    for (n, &at) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(s.len());
        let value = s[at + 4..end].trim().to_string();
        tags.push((s[at..at + 2].to_string(), value));
    }
    let get = |names: &[&str]| {
        names.iter().find_map(|n| {
            tags.iter()
                .find(|(t, v)| t == n && !v.is_empty())
                .map(|(_, v)| v.clone())
        })
    };
    r.title = get(&["TI", "T1"]);
    r.journal = get(&["JO", "JF", "T2", "JA", "J2"]);
    r.year = get(&["PY", "Y1", "DA"]).and_then(|y| y.get(..4)?.parse().ok());
    r.volume = get(&["VL"]);
    r.issue = get(&["IS"]);
    r.first_page = get(&["SP"]).map(|p| first_page(&p));
    if let Some(a) = get(&["AU", "A1"]) {
        let (family, initials) = first_author(a.trim());
        r.authors = vec![family];
        r.initials = initials;
    }
    if r.doi.is_none() {
        r.doi = get(&["DO"]).map(|d| d.to_ascii_lowercase());
    }
}
