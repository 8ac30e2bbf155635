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
