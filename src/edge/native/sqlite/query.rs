//! A caller's SQL, run under the core's read-only policy with SQLite enforcing it.
//!
//! The authorizer, progress handler and value-length limit are installed on
//! the dataset's connection for the one query and removed afterwards, so the
//! store's own statements (staging, describing) never run under them. The
//! connection's mutex is held throughout, so no other statement can run on
//! it while the hooks are in place.

use super::db_error;
use crate::error::{Error, Result};
use crate::staging::guard::{self, Access, Prepared, QueryPolicy, Verdict};
use crate::staging::rows::SqlValue;
use crate::staging::store::QueryResult;
use rusqlite::ffi::ErrorCode;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::Connection;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// VM instructions between deadline checks: often enough for a prompt stop, cheap enough to ignore.
const PROGRESS_OPS: i32 = 4_000;

/// Runs `sql` under `policy` and returns its rows.
pub fn run(conn: &mut Connection, sql: &str, policy: QueryPolicy) -> Result<QueryResult> {
    if sql.len() > guard::MAX_SQL_BYTES {
        return Err(guard::sql_error(&format!(
            "the SQL is {} bytes, over the limit of {}",
            sql.len(),
            guard::MAX_SQL_BYTES
        )));
    }
    let started = Instant::now();
    let deadline = started + Duration::from_millis(policy.time_limit_ms);
    let denied: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = Arc::clone(&denied);
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        match guard::authorize(&access(&ctx.action, &mut String::new())) {
            Verdict::Allow => Authorization::Allow,
            Verdict::Deny(reason) => {
                if let Ok(mut l) = log.lock() {
                    l.push(reason);
                }
                Authorization::Deny
            }
        }
    }))
    .map_err(db_error)?;
    conn.progress_handler(PROGRESS_OPS, Some(move || Instant::now() >= deadline))
        .map_err(db_error)?;
    let length = conn
        .set_limit(Limit::SQLITE_LIMIT_LENGTH, guard::MAX_VALUE_BYTES)
        .map_err(db_error)?;
    let outcome = execute(conn, sql, policy, &denied, started);
    // Restore the connection whatever happened: the next caller is the store itself.
    let _ = conn.authorizer(None::<fn(AuthContext<'_>) -> Authorization>);
    let _ = conn.progress_handler(0, None::<fn() -> bool>);
    let _ = conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, length);
    outcome
}

fn execute(
    conn: &Connection,
    sql: &str,
    policy: QueryPolicy,
    denied: &Mutex<Vec<String>>,
    started: Instant,
) -> Result<QueryResult> {
    let fail = |e: rusqlite::Error| failure(e, denied, policy);
    let mut stmt = conn.prepare(sql).map_err(fail)?;
    guard::check_statement(Prepared {
        read_only: stmt.readonly(),
        columns: stmt.column_count(),
    })?;
    let columns: Vec<String> = stmt.column_names().map(String::from).collect();
    let mut rows = stmt.query([]).map_err(fail)?;
    let mut kept: Vec<Vec<SqlValue>> = Vec::new();
    let (mut total, mut bytes, mut bytes_capped, mut exact) = (0u64, 0usize, false, true);
    loop {
        let row = match rows.next() {
            Ok(Some(row)) => row,
            Ok(None) => break,
            // Out of time while only counting: the rows are complete, the total a lower bound.
            Err(e) if interrupted(&e) && kept.len() == policy.limit => {
                exact = false;
                break;
            }
            Err(e) => return Err(fail(e)),
        };
        total += 1;
        if kept.len() < policy.limit && !bytes_capped {
            let values: Vec<SqlValue> = (0..columns.len())
                .map(|i| row.get_ref(i).map(value))
                .collect::<rusqlite::Result<_>>()
                .map_err(fail)?;
            // Each cell costs its payload plus JSON punctuation.
            let weight: usize = values.iter().map(|v| v.weight() + 4).sum();
            if bytes + weight > policy.max_result_bytes && !kept.is_empty() {
                bytes_capped = true;
            } else {
                bytes += weight;
                kept.push(values);
            }
        }
        if total >= policy.count_cap {
            exact = rows.next().map(|r| r.is_none()).unwrap_or(false);
            break;
        }
    }
    Ok(QueryResult {
        columns,
        rows: kept,
        total,
        total_exact: exact,
        bytes_capped,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

fn interrupted(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::OperationInterrupted)
}

/// Names a failure by the layer that stopped it.
fn failure(e: rusqlite::Error, denied: &Mutex<Vec<String>>, policy: QueryPolicy) -> Error {
    if interrupted(&e) {
        return guard::timed_out(policy.time_limit_ms);
    }
    let reasons = denied.lock().map(|l| l.clone()).unwrap_or_default();
    match e {
        rusqlite::Error::MultipleStatement if reasons.is_empty() => guard::multiple_statements(),
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == ErrorCode::AuthorizationForStatementDenied || !reasons.is_empty() =>
        {
            guard::not_read_only(&reasons)
        }
        _ if !reasons.is_empty() => guard::not_read_only(&reasons),
        rusqlite::Error::SqliteFailure(_, Some(message)) => guard::sql_error(&message),
        other => guard::sql_error(&other.to_string()),
    }
}

fn value(v: ValueRef<'_>) -> SqlValue {
    match v {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(n) => SqlValue::Integer(n),
        ValueRef::Real(f) => SqlValue::Real(f),
        ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
    }
}

/// rusqlite's view of an authorizer call in the core's terms; `scratch` holds descriptions.
fn access<'a>(a: &AuthAction<'a>, scratch: &'a mut String) -> Access<'a> {
    match *a {
        AuthAction::Select => Access::Select,
        AuthAction::Read {
            table_name,
            column_name,
        } => Access::Read {
            table: table_name,
            column: column_name,
        },
        AuthAction::Function { function_name } => Access::Function {
            name: function_name,
        },
        AuthAction::Recursive => Access::Recursive,
        AuthAction::Pragma {
            pragma_name,
            pragma_value,
        } => Access::Pragma {
            name: pragma_name,
            arg: pragma_value,
        },
        ref other => {
            *scratch = describe(other);
            let text: &'a String = scratch;
            Access::Other { action: text }
        }
    }
}

fn describe(a: &AuthAction<'_>) -> String {
    match a {
        AuthAction::Insert { table_name } => format!("INSERT into {table_name}"),
        AuthAction::Update { table_name, .. } => format!("UPDATE of {table_name}"),
        AuthAction::Delete { table_name } => format!("DELETE from {table_name}"),
        AuthAction::Attach { .. } => "ATTACH".to_string(),
        AuthAction::Detach { .. } => "DETACH".to_string(),
        AuthAction::Transaction { operation } => format!("transaction control ({operation:?})"),
        AuthAction::Savepoint { .. } => "SAVEPOINT".to_string(),
        AuthAction::Analyze { .. } => "ANALYZE".to_string(),
        AuthAction::Reindex { .. } => "REINDEX".to_string(),
        AuthAction::AlterTable { table_name, .. } => format!("ALTER TABLE {table_name}"),
        AuthAction::CreateTable { .. }
        | AuthAction::CreateTempTable { .. }
        | AuthAction::CreateIndex { .. }
        | AuthAction::CreateTempIndex { .. }
        | AuthAction::CreateView { .. }
        | AuthAction::CreateTempView { .. }
        | AuthAction::CreateTrigger { .. }
        | AuthAction::CreateTempTrigger { .. }
        | AuthAction::CreateVtable { .. } => "creating schema objects (CREATE ...)".to_string(),
        AuthAction::DropTable { .. }
        | AuthAction::DropTempTable { .. }
        | AuthAction::DropIndex { .. }
        | AuthAction::DropTempIndex { .. }
        | AuthAction::DropView { .. }
        | AuthAction::DropTempView { .. }
        | AuthAction::DropTrigger { .. }
        | AuthAction::DropTempTrigger { .. }
        | AuthAction::DropVtable { .. } => "dropping schema objects (DROP ...)".to_string(),
        other => format!("{other:?}"),
    }
}
