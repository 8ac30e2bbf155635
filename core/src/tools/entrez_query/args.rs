//! An `entrez_query` call's arguments as the caller gave them, typed.
//!
//! This is the low-level reading (ripgrep's `LowArgs`): every parameter the
//! tool knows, as given, with nothing defaulted and nothing dropped, because
//! the semantic rules must see what the caller wrote (a `version` beside JSON,
//! `retstart` beside ids) to name what will be ignored. [`crate::tools::entrez_query::call::QueryCall`]
//! is the high-level reading made from it, with every default in place. Both are
//! made once per call, at the door; nothing after reads the JSON again.

use crate::framework::canonical::Canonical;
use crate::framework::view::ViewArgs;
use crate::tools::entrez_query::call::Citation;
use crate::tools::entrez_query::references::input::Reference;
use serde_json::Value;

/// `entrez_query`'s arguments as given: strings trimmed, blanks read as absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryArgs {
    /// The names of the parameters given, in the caller's order.
    pub given: Vec<String>,
    /// info, search, summary, fetch, link, post, global_query, spell, citation_match or
    /// check_references.
    pub operation: Option<String>,
    /// The database, as written.
    pub database: Option<String>,
    /// elink's source database, as written.
    pub dbfrom: Option<String>,
    /// An Entrez query (or espell's text).
    pub term: Option<String>,
    /// The ids, each with its index in the list (numbers as digits; blanks kept, to be named).
    pub ids: Vec<(usize, String)>,
    /// A history environment.
    pub webenv: Option<String>,
    /// A history set's key.
    pub query_key: Option<u64>,
    /// esearch's field.
    pub field: Option<String>,
    /// esearch's sort.
    pub sort: Option<String>,
    /// The date field limited.
    pub datetype: Option<String>,
    /// Start of a date range.
    pub mindate: Option<String>,
    /// End of a date range.
    pub maxdate: Option<String>,
    /// The last this many days.
    pub reldate: Option<u64>,
    /// First record or id returned.
    pub retstart: Option<u64>,
    /// How many records or ids.
    pub retmax: Option<u64>,
    /// esearch: keep the result on the history server.
    pub usehistory: bool,
    /// esearch in PubMed: also ask how many matches are retracted.
    pub check_retractions: bool,
    /// `acc` for accessions.
    pub idtype: Option<String>,
    /// The rettype, as written.
    pub rettype: Option<String>,
    /// The retmode, as written.
    pub retmode: Option<String>,
    /// einfo and esummary XML version.
    pub version: Option<String>,
    /// Most records parsed into the result.
    pub max_records: Option<u64>,
    /// Sequence region: first base.
    pub seq_start: Option<u64>,
    /// Sequence region: last base.
    pub seq_stop: Option<u64>,
    /// Sequence strand.
    pub strand: Option<u64>,
    /// Sequence record complexity.
    pub complexity: Option<u64>,
    /// The elink command.
    pub cmd: Option<String>,
    /// One elink link name.
    pub linkname: Option<String>,
    /// One LinkOut provider.
    pub holding: Option<String>,
    /// elink: one link set per id.
    pub by_id: bool,
    /// global_query's databases, when given.
    pub databases: Option<Vec<String>>,
    /// ecitmatch's citations, each field cleaned of `|` and line breaks.
    pub citations: Vec<Citation>,
    /// check_references' references, each read (a malformed one marked invalid).
    pub references: Vec<Reference>,
    /// detail, fields and max_characters.
    pub view: ViewArgs,
    /// `fresh`: ask upstream even when the cache holds the answer.
    pub fresh: bool,
}

impl QueryArgs {
    /// Reads canonical arguments; values of another type than the schema's are left out
    /// (the schema check names them).
    pub fn read(args: &Value) -> QueryArgs {
        let Some(a) = Canonical::of(args) else {
            return QueryArgs::default();
        };
        QueryArgs {
            given: a.names(),
            operation: a.text("operation"),
            database: a.text("database"),
            dbfrom: a.text("dbfrom"),
            term: a.text("term"),
            ids: a.indexed("ids"),
            webenv: a.text("webenv"),
            query_key: a.int("query_key"),
            field: a.text("field"),
            sort: a.text("sort"),
            datetype: a.text("datetype"),
            mindate: a.text("mindate"),
            maxdate: a.text("maxdate"),
            reldate: a.int("reldate"),
            retstart: a.int("retstart"),
            retmax: a.int("retmax"),
            usehistory: a.flag("usehistory"),
            check_retractions: a.flag("check_retractions"),
            idtype: a.text("idtype"),
            rettype: a.text("rettype"),
            retmode: a.text("retmode"),
            version: a.text("version"),
            max_records: a.int("max_records"),
            seq_start: a.int("seq_start"),
            seq_stop: a.int("seq_stop"),
            strand: a.int("strand"),
            complexity: a.int("complexity"),
            cmd: a.text("cmd"),
            linkname: a.text("linkname"),
            holding: a.text("holding"),
            by_id: a.flag("by_id"),
            databases: a.get("databases").and_then(Value::as_array).map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            }),
            citations: citations(a),
            references: a
                .get("references")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, item)| Reference::read(i, item))
                .collect(),
            view: ViewArgs::read(&a),
            fresh: a.flag("fresh"),
        }
    }

    /// Whether the caller gave parameter `name`.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|g| g == name)
    }

    /// The operation, or "" when none is named.
    pub fn op(&self) -> &str {
        self.operation.as_deref().unwrap_or("")
    }

    /// The ids' text, trimmed, blanks left out: what is sent.
    pub fn id_list(&self) -> Vec<String> {
        self.ids
            .iter()
            .map(|(_, id)| id.trim())
            .filter(|id| !id.is_empty())
            .map(String::from)
            .collect()
    }
}

/// ecitmatch's citations: each field as bdata text (no `|`, no line breaks), keys cit1, cit2, …
/// where none is given.
fn citations(a: Canonical<'_>) -> Vec<Citation> {
    let field = |c: &Value, name: &str| match c.get(name) {
        Some(Value::String(s)) => s.replace(['|', '\r', '\n'], " "),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    a.get("citations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| Citation {
            journal: field(c, "journal"),
            year: field(c, "year"),
            volume: field(c, "volume"),
            first_page: field(c, "first_page"),
            author: field(c, "author"),
            key: match field(c, "key") {
                k if k.is_empty() => format!("cit{}", i + 1),
                k => k,
            },
        })
        .collect()
}
