//! Semantic validation: the rules a JSON Schema cannot express.
//!
//! A schema can say that `database` is a word and `ids` is a list; it cannot
//! say that "pubmd" is not an Entrez database, that `NP_000537.3` belongs in
//! protein and not in pubmed, or that PubMed will not page past 10,000. Those
//! rules are data taken from NCBI (the EInfo recordings under `data/ncbi/`, the
//! EFetch format table) and small pure functions: the shared ones and the
//! [`Report`] here, each tool's own in `tools::<tool>::validation`, run through
//! [`ToolCall::check`](crate::framework::spec::ToolCall::check). Nothing here
//! touches the network, a clock or a file, so it compiles for wasm32.

pub mod databases;
pub mod ids;

use crate::error::{Error, ErrorKind};
use crate::json;
use serde_json::Value;

/// Stable codes, one constant each so a typo cannot mint a new code.
pub mod codes {
    /// A tool name (target of validate, or `name`/`tool` argument) is not registered.
    pub const UNKNOWN_TOOL: &str = "unknown_tool";
    /// A database name is not in NCBI's EInfo list.
    pub const INVALID_DATABASE: &str = "invalid_database";
    /// A database NCBI has retired.
    pub const RETIRED_DATABASE: &str = "retired_database";
    /// An EFetch rettype the database does not offer.
    pub const UNSUPPORTED_RETTYPE: &str = "unsupported_rettype";
    /// A retmode the utility or rettype does not offer.
    pub const UNSUPPORTED_RETMODE: &str = "unsupported_retmode";
    /// An id that cannot be an id of the database.
    pub const INVALID_ID: &str = "invalid_id";
    /// An id that clearly belongs to another database.
    pub const ID_WRONG_DATABASE: &str = "id_wrong_database";
    /// More ids than the utility accepts in one request.
    pub const TOO_MANY_IDS: &str = "too_many_ids";
    /// A retmax above what the utility returns.
    pub const RETMAX_TOO_LARGE: &str = "retmax_too_large";
    /// retstart + retmax beyond the 10,000 records PubMed's esearch returns.
    pub const PUBMED_PAGING_LIMIT: &str = "pubmed_paging_limit";
    /// An odd number of double quotes in a term.
    pub const UNBALANCED_QUOTES: &str = "unbalanced_quotes";
    /// A `[` without `]` or the reverse in a term.
    pub const UNBALANCED_BRACKETS: &str = "unbalanced_brackets";
    /// A `(` without `)` or the reverse in a term.
    pub const UNBALANCED_PARENTHESES: &str = "unbalanced_parentheses";
    /// A date that is not YYYY, YYYY/MM or YYYY/MM/DD, or not on the calendar.
    pub const INVALID_DATE: &str = "invalid_date";
    /// A date range whose start is after its end.
    pub const DATE_RANGE_REVERSED: &str = "date_range_reversed";
    /// mindate without maxdate, or the reverse.
    pub const DATE_PAIR_INCOMPLETE: &str = "date_pair_incomplete";
    /// seq_start after seq_stop.
    pub const SEQUENCE_RANGE_REVERSED: &str = "sequence_range_reversed";
    /// webenv without query_key, or the reverse.
    pub const HISTORY_PAIR_INCOMPLETE: &str = "history_pair_incomplete";
    /// A link name that does not start from dbfrom or does not lead to database.
    pub const LINKNAME_MISMATCH: &str = "linkname_mismatch";
    /// An entrez_external operation under the other service.
    pub const WRONG_SERVICE: &str = "wrong_service";
    /// A PubChem identifier with the shape of another namespace (an InChIKey sent as a name).
    pub const WRONG_NAMESPACE: &str = "wrong_namespace";
    /// A SMILES, SMARTS or InChI that no reader accepts.
    pub const INVALID_STRUCTURE: &str = "invalid_structure";
    /// A PMC id of another type than idtype (or the citation database) declares.
    pub const IDTYPE_MISMATCH: &str = "idtype_mismatch";
    /// PMC ids of several types in one call that takes one type.
    pub const MIXED_ID_TYPES: &str = "mixed_id_types";
    /// A similarity threshold that is not a whole percentage from 0 to 100.
    pub const THRESHOLD_OUT_OF_RANGE: &str = "threshold_out_of_range";
    /// pug_rest: a domain PUG REST does not document.
    pub const INVALID_DOMAIN: &str = "invalid_domain";
    /// pug_rest: a namespace the domain does not have (or a missing or extra one).
    pub const INVALID_NAMESPACE: &str = "invalid_namespace";
    /// pug_rest: an operation the domain does not offer, or a property, xref or target name PubChem does not document.
    pub const INVALID_PUG_OPERATION: &str = "invalid_pug_operation";
    /// pug_rest: an output format PubChem does not document for the operation.
    pub const UNSUPPORTED_OUTPUT: &str = "unsupported_output";
    /// A PUG REST option PubChem does not document.
    pub const UNKNOWN_OPTION: &str = "unknown_option";
    /// A documented PUG REST option with a value of the wrong type.
    pub const INVALID_OPTION_VALUE: &str = "invalid_option_value";
    /// pug_rest: a path that does not follow PUG REST's grammar.
    pub const INVALID_PATH: &str = "invalid_path";
    /// No dataset with this id belongs to the caller.
    pub const DATASET_NOT_FOUND: &str = "dataset_not_found";
    /// The caller's dataset has passed its expiry time.
    pub const DATASET_EXPIRED: &str = "dataset_expired";
    /// A staging's dataset was dropped by its owner while it was being staged (a tool error).
    pub const DATASET_DROPPED: &str = "dataset_dropped";
    /// fetch_and_stage with a data_access_id: the dataset is complete, nothing to continue.
    pub const DATASET_COMPLETE: &str = "dataset_complete";
    /// fetch_and_stage with a data_access_id: another call is staging the dataset now.
    pub const DATASET_BUSY: &str = "dataset_busy";
    /// fetch_and_stage with a data_access_id: the dataset's staging failed; it cannot continue.
    pub const DATASET_FAILED: &str = "dataset_failed";
    /// SQLite cannot compile the SQL against the dataset (a missing table or column, a syntax error).
    pub const SQL_ERROR: &str = "sql_error";
    /// The SQL would write, change the schema, attach, or call a refused function.
    pub const SQL_NOT_READ_ONLY: &str = "sql_not_read_only";
    /// More than one statement.
    pub const SQL_MULTIPLE_STATEMENTS: &str = "sql_multiple_statements";
    /// A statement that returns no columns.
    pub const SQL_NOT_A_QUERY: &str = "sql_not_a_query";
    /// export or bibliography: a format this server does not write; the message lists those it does.
    pub const UNKNOWN_FORMAT: &str = "unknown_format";
    /// export or bibliography: a bibliography style this server does not write; the message
    /// lists those it does.
    pub const UNKNOWN_STYLE: &str = "unknown_style";
    /// entrez_data chart: a chart name this server does not draw; the message lists those it does.
    pub const UNKNOWN_CHART: &str = "unknown_chart";
    /// A chart's statement returns other than one or two columns.
    pub const CHART_UNSUITABLE: &str = "chart_unsuitable";
    /// A chart's statement returns more rows than a chart reads, or a year range too long.
    pub const CHART_TOO_LARGE: &str = "chart_too_large";
    /// Runtime level: NCBI has no record with this id in the database.
    pub const ID_NOT_FOUND: &str = "id_not_found";

    /// A value no rule of the intake can read (a word for a number, a list naming nothing).
    pub const ARGUMENT_UNREADABLE: &str = "argument_unreadable";
    /// Two names of one parameter given with different values.
    pub const ARGUMENT_CONFLICT: &str = "argument_conflict";
    /// A parameter given under another name (NCBI's, or another spelling), read as the schema's.
    pub const ARGUMENT_ALIAS: &str = "argument_alias";
    /// A value read as the parameter's type (a number from text, a list from a string, an enum's case).
    pub const ARGUMENT_COERCED: &str = "argument_coerced";
    /// A null or empty value, read as not given.
    pub const ARGUMENT_OMITTED: &str = "argument_omitted";

    /// The same id more than once.
    pub const DUPLICATE_ID: &str = "duplicate_id";
    /// 200 or more ids: the request goes by POST.
    pub const MANY_IDS_POST: &str = "many_ids_post";
    /// An id of no shape this server knows for the database; NCBI decides.
    pub const UNRECOGNIZED_ID: &str = "unrecognized_id";
    /// A `[tag]` that is not one of the database's search fields.
    pub const UNKNOWN_FIELD_TAG: &str = "unknown_field_tag";
    /// and/or/not in lower case, which NCBI reads as words.
    pub const LOWERCASE_OPERATOR: &str = "lowercase_operator";
    /// AND/OR/NOT with nothing on one side.
    pub const DANGLING_OPERATOR: &str = "dangling_operator";
    /// Dates given without datetype.
    pub const DATETYPE_MISSING: &str = "datetype_missing";
    /// A parameter the operation does not use.
    pub const IGNORED_PARAMETER: &str = "ignored_parameter";
    /// A fetch retmax above the per-call cap, which will be lowered.
    pub const RETMAX_CAPPED: &str = "retmax_capped";
    /// fetch: the server chose the format NCBI is asked for (rettype/retmode omitted).
    pub const FORMAT_CHOSEN: &str = "format_chosen";
    /// A result cut to a server limit or default (records, CIDs, synonyms, text), with the total
    /// and how to get the rest; raised while the call runs.
    pub const RESULTS_CAPPED: &str = "results_capped";
    /// Records, rows or text left out or cut to keep the result within `max_characters`,
    /// named with what is missing and the call that returns it; raised while the call runs.
    pub const RESULTS_CUT: &str = "results_cut";
    /// A `max_characters` above the ceiling, which will be lowered to it.
    pub const BUDGET_CAPPED: &str = "budget_capped";
    /// A value the caller left out that this server sends on its own (a detected id type),
    /// where NCBI would otherwise apply its own default.
    pub const DEFAULT_CHOSEN: &str = "default_chosen";
    /// An EFetch database or default format that NCBI's table does not list.
    pub const UNDOCUMENTED_FORMAT: &str = "undocumented_format";
    /// A PubMed link name that einfo does not list.
    pub const UNKNOWN_LINKNAME: &str = "unknown_linkname";
    /// A sort value NCBI does not document for PubMed.
    pub const UNKNOWN_SORT: &str = "unknown_sort";
    /// A SMILES that fails a sanity check some lenient readers forgive.
    pub const SUSPICIOUS_STRUCTURE: &str = "suspicious_structure";
    /// An id whose shape fits another kind too, read as the call declares it.
    pub const AMBIGUOUS_ID: &str = "ambiguous_id";
    /// check_references: a reference that cannot be checked (empty, too long, a malformed
    /// DOI or PMID); it is answered `invalid`, the others are checked.
    pub const INVALID_REFERENCE: &str = "invalid_reference";
    /// check_references: a line in no known citation layout; it is answered `unreadable`
    /// with the parts that could not be told apart, never `not_found`.
    pub const UNREADABLE_REFERENCE: &str = "unreadable_reference";
    /// Runtime level: the upstream check did not finish within its budget; nothing was concluded.
    pub const RUNTIME_BUDGET_EXCEEDED: &str = "runtime_budget_exceeded";
    /// Runtime level: the upstream check could not be made (no network, NCBI failed).
    pub const RUNTIME_UNAVAILABLE: &str = "runtime_unavailable";
    /// Runtime level: only some of the ids were checked.
    pub const RUNTIME_PARTIAL: &str = "runtime_partial";

    /// Every error code the semantic level can raise.
    pub const ERRORS: &[&str] = &[
        ARGUMENT_UNREADABLE,
        ARGUMENT_CONFLICT,
        UNKNOWN_TOOL,
        INVALID_DATABASE,
        RETIRED_DATABASE,
        UNSUPPORTED_RETTYPE,
        UNSUPPORTED_RETMODE,
        INVALID_ID,
        ID_WRONG_DATABASE,
        TOO_MANY_IDS,
        RETMAX_TOO_LARGE,
        PUBMED_PAGING_LIMIT,
        UNBALANCED_QUOTES,
        UNBALANCED_BRACKETS,
        UNBALANCED_PARENTHESES,
        INVALID_DATE,
        DATE_RANGE_REVERSED,
        DATE_PAIR_INCOMPLETE,
        SEQUENCE_RANGE_REVERSED,
        HISTORY_PAIR_INCOMPLETE,
        LINKNAME_MISMATCH,
        WRONG_SERVICE,
        WRONG_NAMESPACE,
        INVALID_STRUCTURE,
        IDTYPE_MISMATCH,
        MIXED_ID_TYPES,
        THRESHOLD_OUT_OF_RANGE,
        INVALID_DOMAIN,
        INVALID_NAMESPACE,
        INVALID_PUG_OPERATION,
        UNSUPPORTED_OUTPUT,
        UNKNOWN_OPTION,
        INVALID_OPTION_VALUE,
        INVALID_PATH,
        DATASET_NOT_FOUND,
        DATASET_EXPIRED,
        DATASET_COMPLETE,
        DATASET_BUSY,
        DATASET_FAILED,
        SQL_ERROR,
        SQL_NOT_READ_ONLY,
        SQL_MULTIPLE_STATEMENTS,
        SQL_NOT_A_QUERY,
        UNKNOWN_FORMAT,
        UNKNOWN_STYLE,
        UNKNOWN_CHART,
        CHART_UNSUITABLE,
        CHART_TOO_LARGE,
        ID_NOT_FOUND,
    ];

    /// The codes only the opt-in runtime level raises (it asks NCBI).
    pub const RUNTIME_CODES: &[&str] = &[
        ID_NOT_FOUND,
        RUNTIME_BUDGET_EXCEEDED,
        RUNTIME_UNAVAILABLE,
        RUNTIME_PARTIAL,
    ];

    /// The error codes that need a dataset store: checked against the caller's datasets.
    pub const DATASET_ERRORS: &[&str] = &[
        DATASET_NOT_FOUND,
        DATASET_EXPIRED,
        DATASET_COMPLETE,
        DATASET_BUSY,
        DATASET_FAILED,
        SQL_ERROR,
        SQL_NOT_READ_ONLY,
        SQL_MULTIPLE_STATEMENTS,
        SQL_NOT_A_QUERY,
        UNKNOWN_FORMAT,
        UNKNOWN_STYLE,
        UNKNOWN_CHART,
        CHART_UNSUITABLE,
    ];

    /// Every warning code the semantic level can raise.
    pub const WARNINGS: &[&str] = &[
        ARGUMENT_ALIAS,
        ARGUMENT_COERCED,
        ARGUMENT_OMITTED,
        DUPLICATE_ID,
        MANY_IDS_POST,
        UNRECOGNIZED_ID,
        UNKNOWN_FIELD_TAG,
        LOWERCASE_OPERATOR,
        DANGLING_OPERATOR,
        DATETYPE_MISSING,
        IGNORED_PARAMETER,
        RETMAX_CAPPED,
        FORMAT_CHOSEN,
        RESULTS_CAPPED,
        RESULTS_CUT,
        BUDGET_CAPPED,
        DEFAULT_CHOSEN,
        UNDOCUMENTED_FORMAT,
        UNKNOWN_LINKNAME,
        UNKNOWN_SORT,
        SUSPICIOUS_STRUCTURE,
        AMBIGUOUS_ID,
        INVALID_REFERENCE,
        UNREADABLE_REFERENCE,
        RUNTIME_BUDGET_EXCEEDED,
        RUNTIME_UNAVAILABLE,
        RUNTIME_PARTIAL,
    ];
}

/// One thing found: a stable code, where (JSONPath in the arguments) and what, specifically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// One of [`codes::ERRORS`] or [`codes::WARNINGS`].
    pub code: &'static str,
    /// JSONPath of the offending value, e.g. `$.ids[2]`.
    pub path: String,
    /// One specific sentence, naming the value and the fix.
    pub message: String,
}

impl Finding {
    /// The wire form used in validate results and tools/call error details.
    pub fn to_value(&self) -> Value {
        json!({ "code": self.code, "path": self.path, "message": self.message })
    }
}

/// What the semantic level found for one call.
///
/// The same rules guard two doors: the `validate` tool runs them to report, and
/// [`crate::framework::Registry::call`] runs them after the schema check to refuse. A call
/// `validate` rejects is therefore never sent to NCBI, and a call it passes is not refused
/// for a reason it did not name. The NCBI data is embedded at build time, so this level
/// costs microseconds.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Problems that stop the call.
    pub errors: Vec<Finding>,
    /// Problems worth knowing that do not stop it.
    pub warnings: Vec<Finding>,
    /// Concrete fixes, de-duplicated, in the order found.
    pub suggestions: Vec<String>,
    /// The arguments as the tool will act on them, when the tool has a normaliser.
    pub normalized: Option<Value>,
}

impl Report {
    /// Records an error.
    pub fn error(
        &mut self,
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.errors.push(Finding {
            code,
            path: path.into(),
            message: message.into(),
        });
    }

    /// Records a warning.
    pub fn warn(
        &mut self,
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.warnings.push(Finding {
            code,
            path: path.into(),
            message: message.into(),
        });
    }

    /// Adds a fix unless it is already listed.
    pub fn suggest(&mut self, suggestion: impl Into<String>) {
        let s = suggestion.into();
        if !self.suggestions.contains(&s) {
            self.suggestions.push(s);
        }
    }

    /// The error `tools/call` returns for a call with errors, or `None` when it may run.
    ///
    /// The code is the findings' shared code when they all agree (so a lone
    /// unknown tool name still reads `unknown_tool`), `invalid_arguments` otherwise.
    pub fn rejection(&self, tool: &str) -> Option<Error> {
        let first = self.errors.first()?;
        let shared = self.errors.iter().all(|e| e.code == first.code);
        let code = if shared {
            first.code
        } else {
            "invalid_arguments"
        };
        let message = if self.errors.len() == 1 {
            format!("{} The {tool} call was not run.", first.message)
        } else {
            format!(
                "Invalid arguments for {tool}: {} problems found; the call was not run.",
                self.errors.len()
            )
        };
        let mut error = Error::new(ErrorKind::InvalidArguments, message)
            .with_code(code)
            .with_details(json!({
                "errors": self.errors.iter().map(Finding::to_value).collect::<Vec<_>>(),
                "warnings": self.warnings.iter().map(Finding::to_value).collect::<Vec<_>>(),
            }));
        error.suggestions = self.suggestions.clone();
        error.suggestions.push(format!(
            "Check a corrected call with validate ({{\"tool\": \"{tool}\", \"arguments\": {{...}}}}) before sending it."
        ));
        Some(error)
    }
}

/// What the rules may know about the server beyond the arguments.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// Names of every registered tool, for arguments that name a tool.
    pub tool_names: &'a [&'a str],
    /// What one call may spend (CPU and NCBI requests), for calls sized by it.
    pub allowance: crate::allowance::Allowance,
}

/// `$.name`.
pub fn path(name: &str) -> String {
    format!("$.{name}")
}

/// `$.name[i]`.
pub fn item_path(name: &str, index: usize) -> String {
    format!("$.{name}[{index}]")
}
