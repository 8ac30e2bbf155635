//! A caller's SQL, run under the core's read-only policy with SQLite enforcing it.
//!
//! The authorizer and value-length limit come from `entrez_mcp_sqlite` (shared
//! with the Worker's replica); the time limit is native only: a progress
//! handler stops the statement at its deadline. All are installed on the
//! dataset's connection for the one query and removed afterwards. The
//! connection's mutex is held throughout, so no other statement can run on
//! it while the hooks are in place.

use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::collect::Collector;
use entrez_mcp_core::staging::guard;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::rows::SqlValue;
use entrez_mcp_core::staging::store::QueryResult;
use entrez_mcp_sqlite::{guarded, prepare, value, Denials};
use rusqlite::ffi::ErrorCode;
use rusqlite::Connection;
use std::time::{Duration, Instant};

/// VM instructions between deadline checks: often enough for a prompt stop, cheap enough to ignore.
const PROGRESS_OPS: i32 = 4_000;

/// Runs `sql` under `policy` and returns its rows.
pub(super) fn run(conn: &mut Connection, sql: &str, policy: QueryPolicy) -> Result<QueryResult> {
    let started = Instant::now();
    let deadline = started + Duration::from_millis(policy.time_limit_ms);
    conn.progress_handler(PROGRESS_OPS, Some(move || Instant::now() >= deadline))
        .map_err(entrez_mcp_sqlite::store_error)?;
    let outcome = guarded(conn, |conn, denials| {
        execute(conn, sql, policy, denials, started)
    });
    let _ = conn.progress_handler(0, None::<fn() -> bool>);
    outcome
}

fn execute(
    conn: &Connection,
    sql: &str,
    policy: QueryPolicy,
    denials: &Denials,
    started: Instant,
) -> Result<QueryResult> {
    let fail = |e: rusqlite::Error| failure(e, denials, policy);
    let mut stmt = prepare(conn, sql, denials)?;
    let columns: Vec<String> = stmt.column_names().map(String::from).collect();
    let mut rows = stmt.query([]).map_err(fail)?;
    let mut collected = Collector::new(policy);
    let mut exact = true;
    loop {
        let row = match rows.next() {
            Ok(Some(row)) => row,
            Ok(None) => break,
            // Out of time while only counting: the rows are complete, the total a lower bound.
            Err(e) if interrupted(&e) && collected.rows_complete() => {
                exact = false;
                break;
            }
            Err(e) => return Err(fail(e)),
        };
        let more = collected.offer(|| {
            (0..columns.len())
                .map(|i| row.get_ref(i).map(value))
                .collect::<rusqlite::Result<Vec<SqlValue>>>()
                .map_err(fail)
        })?;
        if !more {
            exact = rows.next().map(|r| r.is_none()).unwrap_or(false);
            break;
        }
    }
    Ok(collected.finish(columns, exact, started.elapsed().as_millis() as u64))
}

fn interrupted(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::OperationInterrupted)
}

fn failure(e: rusqlite::Error, denials: &Denials, policy: QueryPolicy) -> Error {
    if interrupted(&e) {
        return guard::timed_out(policy.time_limit_ms);
    }
    denials.failure(e)
}
