//! How much of a result the caller wants to read: `detail`, `fields` and `max_characters`.
//!
//! A model reads what a tool returns, and its context is the scarcest thing in
//! the exchange. Every tool that returns records or rows takes the same three
//! parameters, read here once: `detail` chooses how much of each record
//! (`brief`, `standard`, `full`), `fields` names the record fields wanted,
//! and `max_characters` bounds the text block and the `structuredContent`
//! each. The budget is clamped to [`CEILING`]: no caller can ask one call for
//! more than that.

use crate::framework::canonical::Canonical;

/// The budget when the caller names none: 20 whole abstracts with their labels fit.
pub const DEFAULT_MAX_CHARACTERS: usize = 60_000;
/// The largest budget any call may have.
pub const CEILING: usize = 200_000;
/// The smallest budget the schema accepts.
pub const FLOOR: usize = 2_000;

/// How much of each record a result carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Ids, title, year, source: enough to choose.
    Brief,
    /// What a researcher usually reads: authors, the whole abstract, main topics.
    #[default]
    Standard,
    /// Everything parsed.
    Full,
}

impl Detail {
    /// The level's name, as the schema spells it.
    pub fn name(self) -> &'static str {
        match self {
            Detail::Brief => "brief",
            Detail::Standard => "standard",
            Detail::Full => "full",
        }
    }
}

/// The view parameters as given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewArgs {
    /// brief, standard or full, as written.
    pub detail: Option<String>,
    /// Record fields wanted, as written.
    pub fields: Vec<String>,
    /// The budget, as given.
    pub max_characters: Option<u64>,
}

impl ViewArgs {
    /// Reads the three parameters from canonical arguments.
    pub fn read(a: &Canonical<'_>) -> ViewArgs {
        ViewArgs {
            detail: a.lower("detail"),
            // "title,abstract_text" is read as two names.
            fields: a
                .list("fields")
                .iter()
                .flat_map(|f| f.split(','))
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(String::from)
                .collect(),
            max_characters: a.int("max_characters"),
        }
    }

    /// The view with every default in place.
    pub fn view(&self) -> View {
        View {
            detail: match self.detail.as_deref() {
                Some("brief") => Detail::Brief,
                Some("full") => Detail::Full,
                _ => Detail::Standard,
            },
            fields: self.fields.clone(),
            max_characters: self.max_characters.map_or(DEFAULT_MAX_CHARACTERS, |n| {
                (n.min(CEILING as u64) as usize).max(FLOOR)
            }),
        }
    }

    /// Whether the budget asked for is above the ceiling (and will be lowered to it).
    pub fn above_ceiling(&self) -> bool {
        self.max_characters.is_some_and(|n| n > CEILING as u64)
    }
}

/// How a result is shaped and bounded, with every default in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// How much of each record.
    pub detail: Detail,
    /// Record fields wanted (the record's id is always kept); empty for all of the level's.
    pub fields: Vec<String>,
    /// The most characters the text block, and the structuredContent, may each hold.
    pub max_characters: usize,
}

impl Default for View {
    fn default() -> Self {
        View {
            detail: Detail::Standard,
            fields: Vec::new(),
            max_characters: DEFAULT_MAX_CHARACTERS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(args: serde_json::Value) -> View {
        ViewArgs::read(&Canonical::of(&args).unwrap()).view()
    }

    #[test]
    fn defaults_to_standard_and_sixty_thousand_characters() {
        assert_eq!(view(json!({})), View::default());
        assert_eq!(View::default().max_characters, 60_000);
        assert_eq!(View::default().detail, Detail::Standard);
    }

    #[test]
    fn budget_is_clamped_to_the_ceiling_and_the_floor() {
        assert_eq!(
            view(json!({"max_characters": 5_000_000})).max_characters,
            CEILING
        );
        assert_eq!(view(json!({"max_characters": 10})).max_characters, 2_000);
        let args = json!({"max_characters": 300_000});
        assert!(ViewArgs::read(&Canonical::of(&args).unwrap()).above_ceiling());
    }

    #[test]
    fn detail_and_fields_are_read_as_written() {
        let v = view(json!({"detail": "Brief", "fields": ["title", " doi "]}));
        assert_eq!(v.detail, Detail::Brief);
        assert_eq!(v.fields, vec!["title", "doi"]);
        assert_eq!(view(json!({"detail": "full"})).detail, Detail::Full);
    }
}
