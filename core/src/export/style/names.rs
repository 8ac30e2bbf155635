//! Names as the styles print them: a person's family name with its particle ("van der"),
//! given names in full or as initials, a suffix; or a collective's name. The parts are
//! read as CSL processors read a CSL JSON name: lower-case words at the start of a
//! family name are its particle.

use crate::export::record::Author;
use crate::export::style::text::typographic;

/// One author's name in parts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Name {
    /// Family name without its particle.
    pub family: String,
    /// "van der", "de".
    pub particle: Option<String>,
    /// Given names as the record has them ("Jane A").
    pub given: Option<String>,
    /// "Jr".
    pub suffix: Option<String>,
    /// A collective's name (then nothing else is set).
    pub literal: Option<String>,
}

impl Name {
    /// The name of `author` (as the CSL JSON export writes it).
    pub fn of(author: &Author) -> Option<Name> {
        match (&author.family, &author.collective) {
            (Some(f), _) => {
                let (particle, family) = crate::export::csl::particle(&typographic(f.trim()));
                Some(Name {
                    family,
                    particle,
                    given: author.given_or_initials().map(|g| typographic(&g)),
                    suffix: author.suffix.as_ref().map(|s| typographic(s)),
                    literal: None,
                })
            }
            (None, Some(c)) => Some(Name {
                literal: Some(typographic(c.trim())),
                ..Name::default()
            }),
            (None, None) => None,
        }
    }

    /// The family name with its particle: "van der Berg".
    pub fn family_with_particle(&self) -> String {
        match &self.particle {
            Some(p) => format!("{p} {}", self.family),
            None => self.family.clone(),
        }
    }

    /// The given names as initials, each followed by `with` ("J. A." for ". ", "JA" for
    /// ""); the parts of a hyphenated name keep their hyphen when `hyphen` is set ("H.-P.").
    pub fn initials(&self, with: &str, hyphen: bool) -> Option<String> {
        let given = self.given.as_deref()?.trim();
        if given.is_empty() {
            return None;
        }
        let mut out = String::new();
        for word in given.split_whitespace() {
            for (k, part) in word.split('-').filter(|p| !p.is_empty()).enumerate() {
                if k > 0 && hyphen {
                    // No space between an initial and the hyphen.
                    let trimmed = out.trim_end().len();
                    out.truncate(trimmed);
                    out.push('-');
                }
                let mut chars = part.chars();
                if let Some(c) = chars.next() {
                    out.extend(c.to_uppercase());
                    out.push_str(with);
                }
            }
        }
        Some(out.trim_end().to_string())
    }

    /// The given names in full, a lone letter given its period ("Jane A." "J. Michael").
    pub fn given_full(&self) -> Option<String> {
        let given = self.given.as_deref()?.trim();
        if given.is_empty() {
            return None;
        }
        Some(
            given
                .split_whitespace()
                .map(|w| {
                    let parts: Vec<&str> = w.split('-').filter(|p| !p.is_empty()).collect();
                    // Lone letters are initials: "J" is "J.", "J-P" is "J. P.".
                    if parts
                        .iter()
                        .all(|p| p.chars().count() == 1 && p.chars().all(char::is_alphabetic))
                    {
                        parts
                            .iter()
                            .map(|p| format!("{p}."))
                            .collect::<Vec<_>>()
                            .join(" ")
                    } else {
                        w.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

/// The names of a record's authors, collectives included, in order.
pub fn names(authors: &[Author]) -> Vec<Name> {
    authors.iter().filter_map(Name::of).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(family: &str, given: &str) -> Name {
        Name::of(&Author {
            family: Some(family.into()),
            given: Some(given.into()),
            ..Author::default()
        })
        .unwrap()
    }

    #[test]
    fn particles_initials_and_full_given_names() {
        let v = person("van der Berg", "Pieter");
        assert_eq!(
            (v.particle.as_deref(), v.family.as_str()),
            (Some("van der"), "Berg")
        );
        assert_eq!(person("De Luca", "F").particle, None);
        let hp = person("Müller", "Hans-Peter");
        assert_eq!(hp.initials(". ", true).as_deref(), Some("H.-P."));
        assert_eq!(hp.initials(".", true).as_deref(), Some("H.-P."));
        assert_eq!(hp.initials("", false).as_deref(), Some("HP"));
        assert_eq!(
            person("Smith", "Jane A").initials(". ", true).as_deref(),
            Some("J. A.")
        );
        assert_eq!(
            person("Smith", "Jane A").initials(".", true).as_deref(),
            Some("J.A.")
        );
        assert_eq!(
            person("Smith", "J Michael").given_full().as_deref(),
            Some("J. Michael")
        );
        assert_eq!(person("O'Brien", "S").family, "O\u{2019}Brien");
    }
}
