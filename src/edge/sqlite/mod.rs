//! SQLite code both edges share: the read-only policy wired into rusqlite,
//! and schema description.
//!
//! Natively these run on the dataset's own connection. On Workers the data
//! lives in Durable Object SQLite, whose API offers no authorizer and no
//! `sqlite3_stmt_readonly`, so the Durable Object prepares each query first
//! on a [`replica`]: an in-memory SQLite (compiled to wasm) holding the
//! dataset's exact schema and no rows. A statement is only sent to the
//! Durable Object once SQLite itself has compiled it there under the same
//! authorizer, found it read-only, found exactly one statement and found
//! result columns. Because the replica has the same tables, columns and
//! indexes, and nothing else, what compiles there compiles to the same
//! plan shape against the real data, and a statement that names anything
//! outside the dataset's tables (the object's own bookkeeping, `_cf_*`
//! tables) fails on the replica first.

pub mod authorizer;
pub mod describe;
pub mod replica;

pub use authorizer::{check, guarded, prepare, value, Denials};
