//! SQLite code both edges share: the read-only policy wired into rusqlite,
//! and schema description.
//!
//! Natively these run on the dataset's own connection. On Workers the data
//! lives in Durable Object SQLite, whose API offers no authorizer and no
//! `sqlite3_stmt_readonly`, so the Durable Object prepares each query first on a
//! [`replica`]: an in-memory SQLite (compiled to wasm) with the dataset's exact
//! schema and no rows, checked by the whole policy of `staging::guard`. What
//! compiles there compiles to the same plan shape against the real data, and a
//! statement naming anything else (`_cf_*` tables, the bookkeeping) fails there.

pub mod authorizer;
pub mod describe;
pub mod replica;

pub use authorizer::{check, guarded, prepare, value, Bound, Denials};

use entrez_mcp_core::error::Error;

/// An unexpected SQLite failure of a dataset store itself (not of a caller's query).
pub fn store_error(e: rusqlite::Error) -> Error {
    Error::internal(format!("dataset store: {e}"))
}
