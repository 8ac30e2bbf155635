//! PUG REST's operation options: the documented table, and reading a caller's value for one.
//!
//! Every option PubChem documents (the option tables of "PUG REST": full records,
//! SIDS/CIDS/AIDS, the structure searches, dose-response, dates, pagination, output and
//! standardize) with its value type and where it has an effect. A value is read from what
//! the caller wrote (a JSON boolean, number or string) into the text PubChem reads.

use serde_json::Value;

/// The type of an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// true or false.
    Bool,
    /// A whole number, at least the given minimum.
    Int(u64),
    /// One of these words.
    Word(&'static [&'static str]),
    /// A comma-separated list of these words.
    Words(&'static [&'static str]),
    /// Any text.
    Text,
}

/// Where an option applies, for the check that says when PubChem would ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Full records and PNG pictures.
    Record,
    /// PNG output.
    Picture,
    /// An assay's data rows (record, concise, doseresponse).
    AssayRows,
    /// The sids, cids and aids operations.
    Lists,
    /// Name input.
    Name,
    /// Substructure and superstructure searches.
    Substructure,
    /// Similarity searches.
    Similarity,
    /// Identity searches.
    Identity,
    /// Formula searches.
    Formula,
    /// Any structure or formula search.
    Search,
    /// The dates operation.
    Dates,
    /// Anything that reads a stored list (listkey namespace, `sid=listkey`).
    Paging,
    /// JSONP output.
    Jsonp,
    /// The standardize domain.
    Standardize,
    /// Anywhere.
    Any,
}

/// One operation option (a query parameter), under PubChem's own spelling.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// The parameter name as PubChem writes it.
    pub name: &'static str,
    /// Its value type.
    pub kind: Kind,
    /// Where it has an effect.
    pub scope: Scope,
}

const fn opt(name: &'static str, kind: Kind, scope: Scope) -> OptionSpec {
    OptionSpec { name, kind, scope }
}

/// Every documented option (S, the option tables of Full-record Retrieval, SIDS/CIDS/AIDS,
/// the structure searches, Dose-Response, Dates, Pagination, Output and Standardize).
pub const OPTIONS: &[OptionSpec] = &[
    opt("record_type", Kind::Word(&["2d", "3d"]), Scope::Record),
    opt("image_size", Kind::Text, Scope::Picture),
    opt("sid", Kind::Text, Scope::AssayRows),
    opt("listkey", Kind::Text, Scope::Any),
    opt("version", Kind::Text, Scope::AssayRows),
    opt(
        "aids_type",
        Kind::Word(&["all", "active", "inactive"]),
        Scope::Lists,
    ),
    opt(
        "sids_type",
        Kind::Word(&[
            "all",
            "active",
            "inactive",
            "doseresponse",
            "standardized",
            "component",
            "original",
        ]),
        Scope::Lists,
    ),
    opt(
        "cids_type",
        Kind::Word(&[
            "all",
            "active",
            "inactive",
            "standardized",
            "component",
            "original",
            "parent",
            "preferred",
            "same_stereo",
            "same_isotopes",
            "same_connectivity",
            "same_tautomer",
            "same_parent",
            "same_parent_stereo",
            "same_parent_isotopes",
            "same_parent_connectivity",
            "same_parent_tautomer",
        ]),
        Scope::Lists,
    ),
    opt(
        "list_return",
        Kind::Word(&["grouped", "flat", "listkey", "cachekey"]),
        Scope::Any,
    ),
    opt("sourcename", Kind::Text, Scope::Lists),
    opt(
        "hold_type",
        Kind::Word(&["live_only", "live_and_on_hold", "on_hold_only"]),
        Scope::Lists,
    ),
    opt("name_type", Kind::Word(&["word", "complete"]), Scope::Name),
    opt("MatchIsotopes", Kind::Bool, Scope::Substructure),
    opt("MatchCharges", Kind::Bool, Scope::Substructure),
    opt("MatchTautomers", Kind::Bool, Scope::Substructure),
    opt("RingsNotEmbedded", Kind::Bool, Scope::Substructure),
    opt("SingleDoubleBondsMatch", Kind::Bool, Scope::Substructure),
    opt("ChainsMatchRings", Kind::Bool, Scope::Substructure),
    opt("StripHydrogen", Kind::Bool, Scope::Substructure),
    opt(
        "Stereo",
        Kind::Word(&["ignore", "exact", "relative", "nonconflicting"]),
        Scope::Substructure,
    ),
    opt("Threshold", Kind::Int(0), Scope::Similarity),
    opt(
        "identity_type",
        Kind::Word(&[
            "same_connectivity",
            "same_tautomer",
            "same_stereo",
            "same_isotope",
            "same_stereo_isotope",
            "nonconflicting_stereo",
            "same_isotope_nonconflicting_stereo",
        ]),
        Scope::Identity,
    ),
    opt("AllowOtherElements", Kind::Bool, Scope::Formula),
    opt("MaxSeconds", Kind::Int(1), Scope::Search),
    opt("MaxRecords", Kind::Int(1), Scope::Search),
    opt("cachekey", Kind::Text, Scope::Search),
    opt(
        "dates_type",
        Kind::Words(&["deposition", "modification", "hold", "creation"]),
        Scope::Dates,
    ),
    opt("listkey_start", Kind::Int(0), Scope::Paging),
    opt("listkey_count", Kind::Int(1), Scope::Paging),
    opt("callback", Kind::Text, Scope::Jsonp),
    opt("include_components", Kind::Bool, Scope::Standardize),
];

/// The option spelled `name` (any case), under PubChem's spelling.
pub fn option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The entry of `table` that `given` names (any case, spaces trimmed), as the table spells it.
pub fn one_of(table: &'static [&'static str], given: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|t| t.eq_ignore_ascii_case(given.trim()))
        .copied()
}

/// An option's value as PubChem reads it, from what the caller wrote.
pub fn option_value(kind: Kind, value: &Value) -> Result<String, String> {
    let text = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return Err("give a string, a number or true/false.".into()),
    };
    match kind {
        Kind::Bool => match text.to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Ok("true".into()),
            "false" | "no" | "0" => Ok("false".into()),
            _ => Err(format!("\"{text}\" is not true or false.")),
        },
        Kind::Int(min) => match text.parse::<u64>() {
            Ok(n) if n >= min => Ok(n.to_string()),
            _ => Err(format!(
                "\"{text}\" is not a whole number of at least {min}."
            )),
        },
        Kind::Word(words) => one_of(words, &text)
            .map(str::to_string)
            .ok_or_else(|| format!("\"{text}\" is not one of {}.", words.join(", "))),
        Kind::Words(words) => text
            .split(',')
            .map(|w| {
                one_of(words, w)
                    .ok_or_else(|| format!("\"{}\" is not one of {}.", w.trim(), words.join(", ")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join(",")),
        Kind::Text if text.is_empty() => Err("it is empty.".into()),
        Kind::Text => Ok(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_are_found_in_any_case_and_values_read_by_type() {
        assert_eq!(option("maxrecords").unwrap().name, "MaxRecords");
        assert_eq!(option_value(Kind::Bool, &json!("Yes")).unwrap(), "true");
        assert_eq!(option_value(Kind::Int(1), &json!(100)).unwrap(), "100");
        assert!(option_value(Kind::Int(1), &json!(0)).is_err());
        assert_eq!(
            option_value(Kind::Word(&["2d", "3d"]), &json!("3D")).unwrap(),
            "3d"
        );
        assert_eq!(
            option_value(Kind::Words(&["hold", "creation"]), &json!("Hold,creation")).unwrap(),
            "hold,creation"
        );
        assert!(option_value(Kind::Text, &json!("")).is_err());
    }
}
