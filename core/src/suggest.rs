//! "Did you mean" for names a caller typed by hand.

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub fn closest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let needle = input.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                c,
                strsim::damerau_levenshtein(&needle, &c.to_ascii_lowercase()),
            )
        })
        // Allow roughly one edit per three characters, and never more than three.
        .filter(|(c, d)| *d <= (c.len().max(needle.len()) / 3).clamp(1, 3))
        .min_by_key(|(_, d)| *d)
        .map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos_and_rejects_strangers() {
        let names = ["entrez_query", "entrez_data", "validate"];
        assert_eq!(closest("entrez_qurey", names), Some("entrez_query"));
        assert_eq!(closest("ENTREZ_DATA", names), Some("entrez_data"));
        assert_eq!(closest("validat", names), Some("validate"));
        assert_eq!(closest("pubchem", names), None);
        assert_eq!(closest("pubmd", ["pubmed", "pmc"]), Some("pubmed"));
    }
}
