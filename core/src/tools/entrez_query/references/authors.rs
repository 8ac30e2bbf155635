//! Whether a cited first author is the record's: a person by family name and first initial,
//! a group (PubMed's `CollectiveName`) by its name's words, accents and case folded.

use crate::tools::entrez_query::references::fold::{fold, squeeze};
use crate::tools::entrez_query::references::input::Reference;
use crate::tools::entrez_query::references::parts::is_group;

/// "Beane Freeman LE" → ("Beane Freeman", "LE"); a group's name stays whole.
pub fn family_of(name: &str) -> (String, String) {
    let words: Vec<&str> = name.split_whitespace().collect();
    match words.as_slice() {
        [.., last]
            if words.len() >= 2 && last.chars().all(|c| c.is_uppercase()) && last.len() <= 3 =>
        {
            (words[..words.len() - 1].join(" "), last.to_string())
        }
        _ => (name.trim().to_string(), String::new()),
    }
}

/// Whether the cited first author is the record's. A person: the record's first author's
/// family name and first initial, or, where PubMed lists a group first (its
/// `CollectiveName`), the first person after it ("Horby P" of "RECOVERY Collaborative
/// Group; Horby P"). A group: one of the record's groups, by the same words (case, accents,
/// "The" and "of" folded).
pub fn first_author_agrees(
    r: &Reference,
    first: &str,
    authors: &[String],
    groups: &[String],
) -> bool {
    let group_words = |s: &str| -> Vec<String> {
        fold(s)
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && !matches!(*w, "the" | "of" | "for" | "and" | "on"))
            .map(str::to_string)
            .collect()
    };
    let same_group = |g: &String| group_words(first) == group_words(g);
    if is_group(first) || (groups.iter().any(same_group) && r.initials.is_none()) {
        return groups.iter().any(same_group);
    }
    let person = |record: &String| {
        let (family, initials) = family_of(record);
        let same_initial = match (
            r.initials.as_deref().and_then(|i| i.chars().next()),
            initials.chars().next(),
        ) {
            (Some(a), Some(b)) => fold(&a.to_string()) == fold(&b.to_string()),
            _ => true,
        };
        squeeze(first) == squeeze(&family) && same_initial
    };
    let first_person = authors.iter().find(|a| !groups.contains(a));
    match authors.first() {
        Some(g) if groups.contains(g) => same_group(g) || first_person.is_some_and(person),
        Some(record) => person(record),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::pubmed::integrity::Integrity;
    use crate::tools::entrez_query::references::compare::{compare, Candidate};
    use crate::tools::entrez_query::references::input::Reference;

    fn recovery() -> Candidate {
        Candidate {
            pmid: "32678530".into(),
            title: "Dexamethasone in Hospitalized Patients with Covid-19".into(),
            authors: vec!["RECOVERY Collaborative Group".into(), "Horby P".into()],
            groups: vec!["RECOVERY Collaborative Group".into()],
            source: "N Engl J Med".into(),
            journal: "The New England journal of medicine".into(),
            year: Some(2021),
            epub_year: None,
            volume: "384".into(),
            issue: "8".into(),
            pages: "693-704".into(),
            doi: None,
            pmcid: None,
            integrity: Integrity::default(),
        }
    }

    /// PubMed lists a group first ("RECOVERY Collaborative Group; Horby P"): the group's
    /// name (any case, with or without "The") or the first person after it agree; another
    /// group or person does not.
    #[test]
    fn a_group_first_author_agrees_by_its_name_or_the_first_person_after_it() {
        let w = recovery();
        let cited = |line: &str| Reference::from_text(line);
        let tail = "Dexamethasone in hospitalized patients with Covid-19. N Engl J Med. 2021;384(8):693-704.";
        for who in [
            "RECOVERY Collaborative Group",
            "The RECOVERY Collaborative Group",
            "Recovery Collaborative Group",
            "Horby P, Lim WS",
        ] {
            let r = cited(&format!("{who}. {tail}"));
            let cmp = compare(&r, &w);
            assert!(cmp.agreed.contains(&"first_author"), "{who}: {r:?}");
            assert_eq!(cmp.disagreed, Vec::<&str>::new(), "{who}: {r:?}");
        }
        for who in ["ESC Scientific Document Group", "Lim WS, Horby PW"] {
            let r = cited(&format!("{who}. {tail}"));
            assert!(
                compare(&r, &w).disagreed.contains(&"first_author"),
                "{who}: {r:?}"
            );
        }
    }

    /// "Horby P. Dexamethasone…": a last author with one initial ends the author list; "P."
    /// was read as a page abbreviation, gluing the authors to the title.
    #[test]
    fn a_one_initial_last_author_ends_the_author_list() {
        let r = Reference::from_text("Lim WS, Horby P. Dexamethasone in hospitalized patients with Covid-19. N Engl J Med. 2021;384(8):693-704.");
        assert_eq!(r.authors, ["Lim"]);
        assert_eq!(
            r.title.as_deref(),
            Some("Dexamethasone in hospitalized patients with Covid-19")
        );
        let cmp = compare(&r, &recovery());
        assert!(cmp.agreed.contains(&"title"), "{cmp:?}");
        let r = Reference::from_text("Smith J. Trial results. Lancet. 2020;395:1-10. p. 5.");
        assert_eq!(r.title.as_deref(), Some("Trial results"));
    }
}
