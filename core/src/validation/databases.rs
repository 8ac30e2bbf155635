//! Entrez database names: NCBI's own list, its aliases, and the retired ones.
//!
//! The list is NCBI's, not ours: the DbName elements of an einfo reply
//! recorded from live NCBI (`data/ncbi/einfo1.xml`), embedded at build time and
//! parsed once with the same parser `entrez_query` uses for live einfo. A name
//! not on it is refused before it costs a request, with the nearest real name
//! when there is one. Retired databases get their own message, because "not a
//! database" is confusing for a name that was one for twenty years.

use crate::entrez::databases::UNLISTED;
use crate::parse::einfo::{parse_einfo, DbInfo, EInfo};
use crate::suggest::closest;
use crate::validation::{codes, Report};
use std::sync::OnceLock;

const EINFO_DATABASES: &[u8] = include_bytes!("../../../data/ncbi/einfo1.xml");
const EINFO_PUBMED: &[u8] = include_bytes!("../../../data/ncbi/einfo2.xml");

pub use crate::entrez::databases::{
    canonical, Retired, ALIASES, COMMON_NAMES, FETCH_ONLY, RETIRED,
};

/// NCBI's Entrez databases, from the embedded einfo recording.
pub fn entrez_databases() -> &'static [String] {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| match parse_einfo(EINFO_DATABASES) {
        Ok(EInfo::Databases(names)) => names,
        // The file is fixed at build time and a unit test parses it.
        _ => panic!("data/ncbi/einfo1.xml is not an einfo database list"),
    })
}

/// PubMed's einfo description (fields and links), from the embedded recording.
pub fn pubmed_info() -> &'static DbInfo {
    static INFO: OnceLock<DbInfo> = OnceLock::new();
    INFO.get_or_init(|| match parse_einfo(EINFO_PUBMED) {
        Ok(EInfo::Database(info)) => info,
        _ => panic!("data/ncbi/einfo2.xml is not an einfo description of pubmed"),
    })
}

/// Whether `db` (lower case) is a database NCBI serves.
pub fn is_known(db: &str, fetch: bool) -> bool {
    entrez_databases().iter().any(|d| d == db)
        || UNLISTED.contains(&db)
        || (fetch && FETCH_ONLY.contains(&db))
}

/// Checks one database argument; returns the lower-cased name when it is usable.
///
/// `fetch` admits the EFetch-only composite names.
pub fn check(name: &str, at: &str, fetch: bool, report: &mut Report) -> Option<String> {
    let db = name.trim().to_ascii_lowercase();
    if is_known(&db, fetch) {
        return Some(db);
    }
    if let Some(r) = RETIRED.iter().find(|r| r.name == db) {
        report.error(
            codes::RETIRED_DATABASE,
            at,
            format!(
                "Database \"{name}\" was retired by NCBI in {} ({}); use \"{}\" instead.",
                r.when, r.note, r.replacement
            ),
        );
        report.suggest(format!("Use \"{}\" at {at}.", r.replacement));
        return None;
    }
    let common = COMMON_NAMES
        .iter()
        .find(|(n, _)| *n == db)
        .map(|(_, to)| *to);
    let mut candidates: Vec<&str> = entrez_databases().iter().map(String::as_str).collect();
    candidates.extend(UNLISTED);
    if fetch {
        candidates.extend(FETCH_ONLY);
    }
    match common.or_else(|| closest(&db, candidates.iter().copied())) {
        Some(best) => {
            report.error(
                codes::INVALID_DATABASE,
                at,
                format!("Invalid database \"{name}\". Did you mean \"{best}\"?"),
            );
            report.suggest(format!("Use \"{best}\" at {at}."));
        }
        None => {
            report.error(
                codes::INVALID_DATABASE,
                at,
                format!("Invalid database \"{name}\": it is not one of NCBI's Entrez databases."),
            );
            report.suggest(format!("Entrez databases: {}.", candidates.join(", ")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_recordings_parse() {
        let dbs = entrez_databases();
        assert_eq!(dbs.len(), 39);
        assert!(dbs.iter().any(|d| d == "pubmed"));
        assert!(dbs.iter().any(|d| d == "nucleotide"));
        let pubmed = pubmed_info();
        assert_eq!(pubmed.db_name, "pubmed");
        assert!(pubmed.fields.iter().any(|f| f.name == "TIAB"));
        assert!(!pubmed.links.is_empty());
    }

    #[test]
    fn retired_and_aliases_are_disjoint_from_the_live_list() {
        for r in RETIRED {
            assert!(!is_known(r.name, true), "{} is live", r.name);
            assert!(is_known(r.replacement, false), "{}", r.replacement);
        }
        for (alias, to) in ALIASES {
            assert!(is_known(alias, false) && is_known(to, false));
        }
        for (name, to) in COMMON_NAMES {
            assert!(!is_known(name, true) && is_known(to, false), "{name}");
        }
    }

    #[test]
    fn near_misses_name_the_database() {
        let mut r = Report::default();
        assert_eq!(
            check("PubMed", "$.database", false, &mut r),
            Some("pubmed".into())
        );
        assert!(check("pubmd", "$.database", false, &mut r).is_none());
        assert_eq!(
            r.errors[0].message,
            "Invalid database \"pubmd\". Did you mean \"pubmed\"?"
        );
        assert!(check("sequences", "$.database", false, &mut r).is_none());
        assert!(check("sequences", "$.database", true, &mut r).is_some());
    }
}
