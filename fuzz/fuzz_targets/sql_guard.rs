//! Arbitrary text as a dataset query: the guard and SQLite's own checks on a schema replica.
#![no_main]
use entrez_mcp_sqlite::{authorizer, replica};
use entrez_mcp_core::staging::guard;
use entrez_mcp_core::staging::layouts::PUBMED;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(sql) = std::str::from_utf8(data) else {
        return;
    };
    let _ = guard::check_text(sql);
    let mut conn = replica::open(&PUBMED, true).unwrap();
    if authorizer::check(&mut conn, sql).is_ok() {
        // Whatever passes is one read-only statement with no NUL in it.
        assert!(!sql.contains('\0'), "{sql:?}");
    }
    // Nothing a query does may change the schema.
    let tables: i64 = conn
        .query_row("SELECT COUNT(*) FROM sqlite_schema", [], |r| r.get(0))
        .unwrap();
    assert!(tables > 0);
});
