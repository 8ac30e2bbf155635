//! The core's read-only policy (`staging::guard`) installed as a rusqlite authorizer.

use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::guard;
use entrez_mcp_core::staging::guard::Access;
use entrez_mcp_core::staging::guard::Prepared;
use entrez_mcp_core::staging::guard::Verdict;
use entrez_mcp_core::staging::rows::SqlValue;
use rusqlite::ffi::ErrorCode;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Statement};
use std::sync::{Arc, Mutex};

/// Reasons the authorizer gave for refusing actions while one statement was prepared.
#[derive(Clone, Default)]
pub struct Denials(Arc<Mutex<Vec<String>>>);

impl Denials {
    fn push(&self, reason: String) {
        if let Ok(mut l) = self.0.lock() {
            l.push(reason);
        }
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Names a failure by the layer that stopped it (time limits are the caller's to name).
    pub fn failure(&self, e: rusqlite::Error) -> Error {
        let reasons = self.all();
        match e {
            rusqlite::Error::MultipleStatement if reasons.is_empty() => {
                guard::multiple_statements()
            }
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
}

/// Runs `f` with the policy's authorizer and value-length limit installed on
/// `conn`, removing both afterwards whatever happened, so the store's own
/// statements never run under them.
pub fn guarded<T>(
    conn: &mut Connection,
    f: impl FnOnce(&Connection, &Denials) -> Result<T>,
) -> Result<T> {
    let denials = Denials::default();
    let log = denials.clone();
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        match guard::authorize(&access(&ctx.action, &mut String::new())) {
            Verdict::Allow => Authorization::Allow,
            Verdict::Deny(reason) => {
                log.push(reason);
                Authorization::Deny
            }
        }
    }))
    .map_err(store_error)?;
    let length = conn
        .set_limit(Limit::SQLITE_LIMIT_LENGTH, guard::MAX_VALUE_BYTES)
        .map_err(store_error)?;
    let outcome = f(conn, &denials);
    let _ = conn.authorizer(None::<fn(AuthContext<'_>) -> Authorization>);
    let _ = conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, length);
    outcome
}

/// Compiles one caller statement inside [`guarded`] and applies the checks
/// that need the compiled statement: read-only, one statement, result columns.
pub fn prepare<'c>(conn: &'c Connection, sql: &str, denials: &Denials) -> Result<Statement<'c>> {
    guard::check_text(sql)?;
    let stmt = conn.prepare(sql).map_err(|e| denials.failure(e))?;
    guard::check_statement(Prepared {
        read_only: stmt.readonly(),
        columns: stmt.column_count(),
    })?;
    Ok(stmt)
}

/// Compiles `sql` under the policy without running it; returns its column names.
pub fn check(conn: &mut Connection, sql: &str) -> Result<Vec<String>> {
    guarded(conn, |conn, denials| {
        let stmt = prepare(conn, sql, denials)?;
        Ok(stmt.column_names().map(String::from).collect())
    })
}

/// A core value bound as a statement parameter.
#[derive(Debug, Clone, Copy)]
pub struct Bound<'a>(pub &'a SqlValue);

impl rusqlite::ToSql for Bound<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::Borrowed(match self.0 {
            SqlValue::Null => ValueRef::Null,
            SqlValue::Integer(n) => ValueRef::Integer(*n),
            SqlValue::Real(f) => ValueRef::Real(*f),
            SqlValue::Text(s) => ValueRef::Text(s.as_bytes()),
            SqlValue::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// A SQLite value in the core's terms.
pub fn value(v: ValueRef<'_>) -> SqlValue {
    match v {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(n) => SqlValue::Integer(n),
        ValueRef::Real(f) => SqlValue::Real(f),
        ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
    }
}

use crate::store_error;

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
        // Named here rather than through Debug, which the Worker build prints shallowly.
        AuthAction::Unknown { code, .. } => format!("SQLite authorizer action {code}"),
        _ => "an action read-only queries do not take".to_string(),
    }
}
