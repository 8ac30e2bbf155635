//! Durable Object SQL in the core's terms: values, statements, transactions, replies.

use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::rows::SqlValue;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use worker::js_sys::{Function, Reflect};
use worker::wasm_bindgen::closure::Closure;
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::{Request, Response, SqlCursor, SqlStorage, SqlStorageValue, Storage};

/// A value read back from a cursor.
pub(super) fn read(v: SqlStorageValue) -> SqlValue {
    match v {
        SqlStorageValue::Null => SqlValue::Null,
        SqlStorageValue::Boolean(b) => SqlValue::Integer(i64::from(b)),
        SqlStorageValue::Integer(n) => SqlValue::Integer(n),
        SqlStorageValue::Float(f) => SqlValue::Real(f),
        SqlStorageValue::String(s) => SqlValue::Text(s),
        SqlStorageValue::Blob(b) => SqlValue::Blob(b),
    }
}

/// The first row of one of the object's own tables, or None when the table is empty or
/// not made yet (an object that never held a dataset, or a kept result).
pub(super) fn only_row(sql: &SqlStorage, query: &str) -> Result<Option<Vec<SqlValue>>> {
    match rows(sql, query, Vec::new()) {
        Ok(rows) => Ok(rows.into_iter().next()),
        Err(e) if e.message.contains("no such table") => Ok(None),
        Err(e) => Err(e),
    }
}

/// A text cell, or "" for any other.
pub(super) fn text(v: &SqlValue) -> String {
    match v {
        SqlValue::Text(s) => s.clone(),
        _ => String::new(),
    }
}

/// A count or a time: an integer cell (or a real one, truncated), else 0.
pub(super) fn unsigned(v: &SqlValue) -> u64 {
    match v {
        SqlValue::Integer(n) => *n as u64,
        SqlValue::Real(f) => *f as u64,
        _ => 0,
    }
}

/// Runs one of the store's own statements.
pub(super) fn exec(
    sql: &SqlStorage,
    query: &str,
    binds: Vec<SqlStorageValue>,
) -> Result<SqlCursor> {
    sql.exec(query, binds)
        .map_err(|e| Error::internal(format!("dataset store: {e}")))
}

/// Every row of one of the store's own statements.
pub(super) fn rows(
    sql: &SqlStorage,
    query: &str,
    binds: Vec<SqlStorageValue>,
) -> Result<Vec<Vec<SqlValue>>> {
    exec(sql, query, binds)?
        .raw()
        .map(|row| {
            row.map(|values| values.into_iter().map(read).collect())
                .map_err(|e| Error::internal(format!("dataset store: {e}")))
        })
        .collect()
}

/// The single integer a statement such as `SELECT total_changes()` returns.
pub(super) fn integer(sql: &SqlStorage, query: &str) -> Result<i64> {
    match rows(sql, query, Vec::new())?
        .first()
        .and_then(|r| r.first())
    {
        Some(SqlValue::Integer(n)) => Ok(*n),
        other => Err(Error::internal(format!("{query} returned {other:?}"))),
    }
}

/// Runs `f` inside `storage.transactionSync`: if it fails, every write it made is rolled back.
pub(super) fn transaction<T: 'static>(
    storage: &Storage,
    f: impl FnOnce() -> Result<T> + 'static,
) -> Result<T> {
    let raw: &JsValue = storage.as_raw().as_ref();
    let run: Function = Reflect::get(raw, &JsValue::from_str("transactionSync"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| {
            Error::internal("this Durable Object has no transactionSync (not SQLite-backed?)")
        })?;
    let outcome: Rc<RefCell<Option<Result<T>>>> = Rc::default();
    let slot = Rc::clone(&outcome);
    let body = Closure::once(move || -> std::result::Result<JsValue, JsValue> {
        let result = f();
        let failed = result.is_err();
        *slot.borrow_mut() = Some(result);
        // Throwing is how transactionSync learns to roll back.
        if failed {
            Err(JsValue::from_str("rolled back"))
        } else {
            Ok(JsValue::UNDEFINED)
        }
    });
    let called = run.call1(raw, body.as_ref().unchecked_ref());
    drop(body);
    let result = outcome.borrow_mut().take();
    match (result, called) {
        (Some(Err(e)), _) => Err(e),
        (Some(Ok(v)), Ok(_)) => Ok(v),
        (_, Err(e)) => Err(Error::internal(format!(
            "dataset transaction failed: {}",
            e.as_string().unwrap_or_else(|| format!("{e:?}"))
        ))),
        (None, Ok(_)) => Err(Error::internal("dataset transaction did not run")),
    }
}

/// The command in a request's body, as `super::call` wrote it (`wire::to_wire`).
///
/// Read as text and parsed by serde_json, not with `Request::json`: that parses in JavaScript
/// and converts the result with serde_wasm_bindgen, a second deserializer for every command
/// type (about 60 KB of the bundle) for JSON that serde_json, already in the bundle, reads.
pub(super) async fn command<T: DeserializeOwned>(req: &mut Request) -> worker::Result<T> {
    let text = req.text().await?;
    entrez_mcp_wire::from_wire(&text).map_err(|e| worker::Error::RustError(e.message))
}

/// The JSON answer to a command: the core `Result`, serialized whole.
pub(super) fn reply<T: Serialize>(result: Result<T>) -> worker::Result<Response> {
    Response::from_json(&result)
}
