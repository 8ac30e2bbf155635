//! What a query may do: the read-only policy, as data, enforced by SQLite.
//!
//! Guessing from keywords is both too strict (a column named `deleted` or
//! `last_update`) and too loose (comments, `WITH ... DELETE`, `VACUUM INTO`).
//! SQLite knows exactly what a statement does once it has compiled it, so the
//! backends ask SQLite, in layers that each stop a different thing: the text
//! ([`check_text`]), the authorizer ([`authorize`]), the compiled statement
//! ([`check_statement`]) and one statement only ([`multiple_statements`]); a
//! time limit bounds the rest ([`QueryPolicy`]). The Worker backend implements
//! the same policy with the Durable Object SQL API.

use crate::error::{Error, ErrorKind};
use crate::json;

/// Functions a query may never call, whatever else is allowed.
pub const DENIED_FUNCTIONS: &[&str] = &[
    "load_extension",
    "fts3_tokenizer",
    "fts5",
    "readfile",
    "writefile",
    "edit",
    "sqlite_dbpage",
];

/// Pragmas a query may run: each only describes the schema or reads a counter and changes
/// nothing (`data_version` is read by FTS5 itself whenever a query uses its index).
pub const INTROSPECTION_PRAGMAS: &[&str] = &[
    "data_version",
    "table_info",
    "table_xinfo",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
];

/// Default rows returned by a query.
pub const DEFAULT_LIMIT: usize = 100;
/// Most rows one query returns.
pub const MAX_LIMIT: usize = 1000;
/// Default wall-clock time one query may run.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 10_000;
/// Most JSON bytes of rows one result carries; further rows are counted, not returned.
pub const MAX_RESULT_BYTES: usize = 2 * 1024 * 1024;
/// Rows counted for `total` before counting stops (the total is then a lower bound).
pub const COUNT_CAP: u64 = 1_000_000;
/// Longest SQL text accepted.
pub const MAX_SQL_BYTES: usize = 100_000;
/// Longest string or blob a query may build (`SQLITE_LIMIT_LENGTH`). Natively the connection
/// also runs with `SQLITE_LIMIT_ATTACHED` 0.
pub const MAX_VALUE_BYTES: i32 = 16 * 1024 * 1024;

/// One action SQLite asks the authorizer about while preparing a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access<'a> {
    /// The statement is a SELECT (also reported for each subquery).
    Select,
    /// A column of a table, view or table-valued function is read.
    Read {
        /// Table name.
        table: &'a str,
        /// Column name.
        column: &'a str,
    },
    /// A function is called.
    Function {
        /// Function name.
        name: &'a str,
    },
    /// A recursive common table expression.
    Recursive,
    /// A PRAGMA, with its argument or assigned value.
    Pragma {
        /// Pragma name.
        name: &'a str,
        /// Argument or value.
        arg: Option<&'a str>,
    },
    /// Anything else, described for the error message (e.g. "INSERT into article").
    Other {
        /// Human-readable description of the action.
        action: &'a str,
    },
}

/// The authorizer's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Go ahead.
    Allow,
    /// Refuse the whole statement, for this reason.
    Deny(String),
}

/// The read-only policy: what a query statement may ask SQLite to do.
///
/// Layer 1. While the statement is prepared, SQLite reports every action it needs; only
/// `SELECT`, reading columns, calling functions not in [`DENIED_FUNCTIONS`], recursive CTEs,
/// and the introspection pragmas in [`INTROSPECTION_PRAGMAS`] are allowed. Writes, DDL,
/// `ATTACH`, transactions, pragma writes and `ANALYZE` are refused.
pub fn authorize(access: &Access<'_>) -> Verdict {
    match access {
        // A pragma used as a table (`SELECT * FROM pragma_journal_mode`) is read at
        // prepare time like any table, so it is judged here by the pragma list, not
        // later when the statement runs (the Worker compiles on a replica and runs elsewhere).
        Access::Read { table, .. } => match pragma_table(table) {
            Some(name) if !is_introspection(name) => {
                Verdict::Deny(format!("PRAGMA {name} is not allowed"))
            }
            _ => Verdict::Allow,
        },
        Access::Select | Access::Recursive => Verdict::Allow,
        Access::Function { name } => {
            if DENIED_FUNCTIONS
                .iter()
                .any(|d| d.eq_ignore_ascii_case(name))
            {
                Verdict::Deny(format!("the function {name}() is not allowed"))
            } else {
                Verdict::Allow
            }
        }
        Access::Pragma { name, .. } if is_introspection(name) => Verdict::Allow,
        Access::Pragma { name, arg } => Verdict::Deny(match arg {
            Some(a) => format!("PRAGMA {name}({a}) is not allowed"),
            None => format!("PRAGMA {name} is not allowed"),
        }),
        Access::Other { action } => Verdict::Deny(format!("{action} is not allowed")),
    }
}

fn is_introspection(pragma: &str) -> bool {
    INTROSPECTION_PRAGMAS
        .iter()
        .any(|p| p.eq_ignore_ascii_case(pragma))
}

/// The pragma behind an eponymous `pragma_*` table, e.g. `journal_mode`.
fn pragma_table(table: &str) -> Option<&str> {
    let prefix = table.get(..7)?;
    prefix.eq_ignore_ascii_case("pragma_").then(|| &table[7..])
}

/// What a backend learned about a prepared statement, for [`check_statement`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prepared {
    /// `sqlite3_stmt_readonly`.
    pub read_only: bool,
    /// Number of result columns.
    pub columns: usize,
}

/// Layers 2 and 3: a compiled statement must be read-only and return columns.
///
/// Some statements never consult the authorizer (`VACUUM`, `VACUUM INTO`); they are not
/// read-only (`sqlite3_stmt_readonly`), so they are refused here. A statement that yields no
/// columns (an empty string, a comment) is refused too: a query must return rows.
pub fn check_statement(p: Prepared) -> Result<(), Error> {
    if !p.read_only {
        return Err(not_read_only(&[
            "SQLite reports that this statement writes (e.g. VACUUM)".to_string(),
        ]));
    }
    if p.columns == 0 {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            "The SQL returns no columns; send one SELECT (or WITH ... SELECT) statement.",
        )
        .with_code("sql_not_a_query")
        .suggest("Example: SELECT COUNT(*) FROM article"));
    }
    Ok(())
}

/// The error for a statement the policy refused, with SQLite's reasons.
pub fn not_read_only(reasons: &[String]) -> Error {
    let mut unique: Vec<&String> = Vec::new();
    for r in reasons {
        if !unique.contains(&r) {
            unique.push(r);
        }
    }
    let why = if unique.is_empty() {
        "SQLite refused the statement".to_string()
    } else {
        unique
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    };
    Error::new(
        ErrorKind::InvalidArguments,
        format!("Only read-only queries are allowed: {why}."),
    )
    .with_code("sql_not_read_only")
    .suggest("Datasets are read-only once staged: use SELECT, WITH ... SELECT, joins, aggregates and window functions.")
    .suggest("To change what a dataset holds, stage a new one with fetch_and_stage.")
    .with_details(json!({ "denied": unique }))
}

/// Layer 0, before SQLite sees the text: its size, and no NUL character.
///
/// SQLite stops reading at a NUL, so `SELECT 1\0; DROP TABLE article` would
/// compile as `SELECT 1` and the rest would vanish without a word; such text
/// is refused whole instead.
pub fn check_text(sql: &str) -> Result<(), Error> {
    if sql.len() > MAX_SQL_BYTES {
        return Err(sql_error(&format!(
            "the SQL is {} bytes, over the limit of {MAX_SQL_BYTES}",
            sql.len()
        )));
    }
    if let Some(at) = sql.find('\0') {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "The SQL holds a NUL character at byte {at}; SQLite would ignore everything after it, so the query was not run."
            ),
        )
        // What follows a NUL is text after the statement, refused as such.
        .with_code("sql_multiple_statements")
        .suggest("Remove the \\u0000 character and send exactly one statement."));
    }
    Ok(())
}

/// The error for SQL with more than one statement (layer 4): anything but whitespace and
/// comments after the first statement is refused, never silently dropped or run.
pub fn multiple_statements() -> Error {
    Error::new(
        ErrorKind::InvalidArguments,
        "The SQL holds more than one statement; send exactly one query.",
    )
    .with_code("sql_multiple_statements")
    .suggest("Remove everything after the first statement's semicolon, or combine the queries with UNION ALL or a CTE.")
}

/// The error for a query that ran past its time limit.
pub fn timed_out(limit_ms: u64) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!(
            "The query was stopped after its time limit of {} ms.",
            limit_ms
        ),
    )
    .with_code("sql_timeout")
    .suggest("Filter earlier (WHERE on indexed columns such as the primary key), aggregate, or add LIMIT.")
    .suggest("Call operation schema to see the indexes of this dataset.")
}

/// The error for SQL that SQLite could not compile or run.
pub fn sql_error(message: &str) -> Error {
    let e = Error::new(
        ErrorKind::InvalidArguments,
        format!("SQLite rejected the query: {message}."),
    )
    .with_code("sql_error");
    if message.contains("pattern too complex") {
        // Durable Objects' SQLite caps LIKE and GLOB patterns at 50 bytes (SQLITE_LIMIT_LIKE_PATTERN_LENGTH).
        return Error::new(
            ErrorKind::InvalidArguments,
            format!("SQLite rejected the query: {message}: a LIKE or GLOB pattern is longer than this SQLite allows (50 bytes in Cloudflare's Durable Objects)."),
        )
        .with_code("sql_error")
        .suggest("Look for a long phrase with instr(lower(text), 'the phrase') > 0 instead of LIKE, or split the pattern into shorter LIKE terms joined by AND.");
    }
    e.suggest("Call operation schema for the exact table and column names of this dataset, and its example queries.")
}

/// Limits that apply to one query. Natively the time limit is enforced by a progress handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueryPolicy {
    /// Rows to return.
    pub limit: usize,
    /// JSON bytes of rows to return at most.
    pub max_result_bytes: usize,
    /// Wall-clock limit for preparing, stepping and counting.
    pub time_limit_ms: u64,
    /// Rows to count before `total` becomes a lower bound.
    pub count_cap: u64,
}

impl QueryPolicy {
    /// The policy for a caller's `limit`, clamped to 1..=[`MAX_LIMIT`].
    pub fn with_limit(limit: Option<u64>, time_limit_ms: u64) -> QueryPolicy {
        QueryPolicy {
            limit: limit
                .map_or(DEFAULT_LIMIT, |l| l as usize)
                .clamp(1, MAX_LIMIT),
            max_result_bytes: MAX_RESULT_BYTES,
            time_limit_ms,
            count_cap: COUNT_CAP,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_like_pattern_too_long_for_the_worker_says_so_and_suggests_instr() {
        let e = super::sql_error("LIKE or GLOB pattern too complex");
        assert!(e.message.contains("50 bytes"), "{}", e.message);
        assert!(e.suggestions[0].contains("instr("));
        let other = super::sql_error("no such table: x");
        assert!(!other.message.contains("50 bytes"));
    }

    use super::*;

    #[test]
    fn policy_allows_reads_and_refuses_everything_else() {
        assert_eq!(authorize(&Access::Select), Verdict::Allow);
        assert_eq!(
            authorize(&Access::Read {
                table: "article",
                column: "deleted"
            }),
            Verdict::Allow
        );
        assert_eq!(
            authorize(&Access::Function {
                name: "json_extract"
            }),
            Verdict::Allow
        );
        assert!(matches!(
            authorize(&Access::Function {
                name: "LOAD_EXTENSION"
            }),
            Verdict::Deny(_)
        ));
        assert_eq!(
            authorize(&Access::Pragma {
                name: "table_info",
                arg: Some("article")
            }),
            Verdict::Allow
        );
        assert!(matches!(
            authorize(&Access::Pragma {
                name: "writable_schema",
                arg: Some("1")
            }),
            Verdict::Deny(_)
        ));
        assert!(matches!(
            authorize(&Access::Read {
                table: "pragma_journal_mode",
                column: "journal_mode"
            }),
            Verdict::Deny(_)
        ));
        assert_eq!(
            authorize(&Access::Read {
                table: "pragma_table_info",
                column: "name"
            }),
            Verdict::Allow
        );
        assert!(matches!(
            authorize(&Access::Other {
                action: "INSERT into article"
            }),
            Verdict::Deny(_)
        ));
    }

    #[test]
    fn statements_must_be_read_only_queries() {
        assert!(check_statement(Prepared {
            read_only: true,
            columns: 2
        })
        .is_ok());
        let vacuum = check_statement(Prepared {
            read_only: false,
            columns: 0,
        })
        .unwrap_err();
        assert_eq!(vacuum.code, "sql_not_read_only");
        let empty = check_statement(Prepared {
            read_only: true,
            columns: 0,
        })
        .unwrap_err();
        assert_eq!(empty.code, "sql_not_a_query");
        assert_eq!(QueryPolicy::with_limit(None, 5).limit, 100);
        assert_eq!(QueryPolicy::with_limit(Some(5000), 5).limit, 1000);
        assert_eq!(QueryPolicy::with_limit(Some(0), 5).limit, 1);
    }
}
