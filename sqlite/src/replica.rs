//! An empty in-memory copy of a dataset's schema, for checking SQL without the data.

pub use super::authorizer::check;
use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::guard;
use entrez_mcp_core::staging::schema::Layout;
use rusqlite::functions::FunctionFlags;
use rusqlite::Connection;

/// An in-memory database with `layout`'s tables, and its indexes when `indexed`.
pub fn open(layout: &Layout, indexed: bool) -> Result<Connection> {
    let fail = |e: rusqlite::Error| Error::internal(format!("schema replica: {e}"));
    let conn = Connection::open_in_memory().map_err(fail)?;
    conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_ATTACHED, 0)
        .map_err(fail)?;
    let mut ddl = layout.table_ddl();
    if indexed {
        ddl.extend(layout.index_ddl());
    }
    conn.execute_batch(&ddl.join(";\n")).map_err(fail)?;
    // A refused function this SQLite build lacks (wasm builds omit load_extension)
    // would fail as "no such function" before the authorizer could name it; a stub
    // lets the statement compile so the policy refuses it the same way everywhere.
    // The replica never runs a statement, so the stubs never run either.
    for name in guard::DENIED_FUNCTIONS {
        conn.create_scalar_function(
            *name,
            -1,
            FunctionFlags::SQLITE_UTF8,
            |_| -> rusqlite::Result<i64> {
                Err(rusqlite::Error::UserFunctionError(
                    "refused by the read-only policy".into(),
                ))
            },
        )
        .map_err(fail)?;
    }
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use entrez_mcp_core::staging::layouts;

    #[test]
    fn the_replica_compiles_reads_and_refuses_writes_and_foreign_tables() {
        let pubmed = layouts::ALL.iter().find(|l| l.name == "pubmed").unwrap();
        let mut conn = open(pubmed, true).unwrap();
        assert_eq!(
            check(
                &mut conn,
                "SELECT pmid, title FROM article WHERE year > 2020"
            )
            .unwrap(),
            vec!["pmid", "title"]
        );
        assert_eq!(
            check(&mut conn, "DELETE FROM article").unwrap_err().code,
            "sql_not_read_only"
        );
        assert_eq!(
            check(&mut conn, "SELECT 1; SELECT 2").unwrap_err().code,
            "sql_multiple_statements"
        );
        // The Durable Object's own tables do not exist on the replica.
        let e = check(&mut conn, "SELECT * FROM entrez_meta").unwrap_err();
        assert_eq!(e.code, "sql_error");
        assert!(
            e.message.contains("no such table: entrez_meta"),
            "{}",
            e.message
        );
        let e = check(&mut conn, "SELECT load_extension('x')").unwrap_err();
        assert_eq!(e.code, "sql_not_read_only");
        assert!(e.message.contains("load_extension"), "{}", e.message);
        let e = check(&mut conn, "SELECT * FROM _cf_KV").unwrap_err();
        assert!(e.message.contains("no such table"), "{}", e.message);
    }
}
