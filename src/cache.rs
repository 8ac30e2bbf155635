//! The native store of upstream answers: one SQLite file, bounded in bytes.
//!
//! `cache.sqlite` sits beside the datasets under `ENTREZ_DATA_DIR` (in memory with
//! `:memory:`), so answers outlive a restart and are shared by every process of one user
//! (several stdio servers of one desktop client). How entries go, and how the file is
//! written, is on [`SqliteAnswers`].

use entrez_mcp_core::net::cache::{Entry, ResponseStore};
use entrez_mcp_core::platform::BoxFuture;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{Arc, Mutex};

const DDL: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS kept (
  key TEXT PRIMARY KEY, status INTEGER NOT NULL, content_type TEXT,
  bytes INTEGER NOT NULL, stored_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,
  used INTEGER NOT NULL, body BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS kept_used ON kept (used);
CREATE INDEX IF NOT EXISTS kept_expires ON kept (expires_ms);";

/// Answers in SQLite, at most `max_bytes` of them.
///
/// Each entry records when it was last used, by a counter; past the byte bound the least
/// recently used go first, and expired entries go whenever they are read or room is made. The
/// body is each row's last column, so the sums and scans that make room never read a body.
/// Writes go through a WAL that is synced at checkpoints, not at each commit (an answer lost at
/// a power cut is asked again); a file SQLite calls damaged, or that fails its quick check, is
/// replaced by an empty one.
#[derive(Clone)]
pub struct SqliteAnswers {
    inner: Arc<Inner>,
}

struct Inner {
    conn: Mutex<Connection>,
    max_bytes: u64,
}

impl SqliteAnswers {
    /// The store `ENTREZ_DATA_DIR` names: `cache.sqlite` in that directory (or the default
    /// data directory), or memory for `:memory:`.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        max_bytes: u64,
    ) -> Result<SqliteAnswers, String> {
        let conn = match lookup("ENTREZ_DATA_DIR").filter(|v| !v.trim().is_empty()) {
            Some(v) if v.trim() == ":memory:" => Connection::open_in_memory(),
            Some(v) => return SqliteAnswers::open(Path::new(v.trim()), max_bytes),
            None => match crate::store::default_dir(lookup) {
                Some(dir) => return SqliteAnswers::open(&dir, max_bytes),
                None => Connection::open_in_memory(),
            },
        };
        SqliteAnswers::with(conn.map_err(|e| e.to_string())?, max_bytes).map_err(|e| e.to_string())
    }

    /// The store in `dir/cache.sqlite`; a damaged file is replaced by an empty one. Any
    /// other failure (the file busy past the timeout, a full disk) is reported and leaves
    /// the file alone: other processes may be using it.
    pub fn open(dir: &Path, max_bytes: u64) -> Result<SqliteAnswers, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let file = dir.join("cache.sqlite");
        match Connection::open(&file).and_then(|c| SqliteAnswers::with(c, max_bytes)) {
            Ok(store) => Ok(store),
            Err(e) if damaged(&e) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
                }
                let conn = Connection::open(&file).map_err(|e| e.to_string())?;
                SqliteAnswers::with(conn, max_bytes).map_err(|e| e.to_string())
            }
            Err(e) => Err(format!("{}: {e}", file.display())),
        }
    }

    fn with(conn: Connection, max_bytes: u64) -> rusqlite::Result<SqliteAnswers> {
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        conn.execute_batch(DDL)?;
        let ok: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
        if ok != "ok" {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
                Some(format!("cache file damaged: {ok}")),
            ));
        }
        Ok(SqliteAnswers {
            inner: Arc::new(Inner {
                conn: Mutex::new(conn),
                max_bytes,
            }),
        })
    }

    /// Runs `f` on the connection, off the async threads when there are any.
    fn blocking<T: Send + Default + 'static>(
        &self,
        f: impl FnOnce(&Inner) -> rusqlite::Result<T> + Send + 'static,
    ) -> BoxFuture<'static, T> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            // A failure of the cache is a miss, never an error of the call.
            let run = move || f(&inner).unwrap_or_default();
            if tokio::runtime::Handle::try_current().is_err() {
                return run();
            }
            tokio::task::spawn_blocking(run).await.unwrap_or_default()
        })
    }
}

impl Inner {
    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: &str, now_ms: u64) -> rusqlite::Result<Option<Entry>> {
        let conn = self.conn();
        let found = conn
            .query_row(
                "SELECT status, content_type, body, stored_ms, expires_ms FROM kept WHERE key = ?1",
                [key],
                |r| {
                    Ok(Entry {
                        status: r.get(0)?,
                        content_type: r.get(1)?,
                        body: r.get(2)?,
                        stored_ms: unsigned(r.get(3)?),
                        expires_ms: unsigned(r.get(4)?),
                    })
                },
            )
            .optional()?;
        match found {
            Some(e) if e.expires_ms > now_ms => {
                conn.execute(
                    "UPDATE kept SET used = (SELECT COALESCE(MAX(used), 0) + 1 FROM kept) WHERE key = ?1",
                    [key],
                )?;
                Ok(Some(e))
            }
            Some(_) => {
                conn.execute("DELETE FROM kept WHERE key = ?1", [key])?;
                Ok(None)
            }
            None => Ok(None),
        }
    }

    fn put(&self, key: &str, entry: &Entry) -> rusqlite::Result<()> {
        let bytes = entry.bytes();
        if bytes > self.max_bytes {
            return Ok(());
        }
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT OR REPLACE INTO kept (key, status, content_type, body, bytes, stored_ms, expires_ms, used)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT COALESCE(MAX(used), 0) + 1 FROM kept))",
            params![
                key,
                entry.status,
                entry.content_type,
                entry.body,
                signed(bytes),
                signed(entry.stored_ms),
                signed(entry.expires_ms)
            ],
        )?;
        // Room is made from what has expired first, then from the least recently used.
        tx.execute(
            "DELETE FROM kept WHERE expires_ms <= ?1",
            [signed(entry.stored_ms)],
        )?;
        let mut total: u64 = tx.query_row("SELECT TOTAL(bytes) FROM kept", [], |r| {
            r.get::<_, f64>(0).map(|t| t as u64)
        })?;
        while total > self.max_bytes {
            let oldest: Option<(String, u64)> = tx
                .query_row(
                    "SELECT key, bytes FROM kept ORDER BY used LIMIT 1",
                    [],
                    |r| Ok((r.get(0)?, unsigned(r.get(1)?))),
                )
                .optional()?;
            let Some((gone, b)) = oldest else { break };
            tx.execute("DELETE FROM kept WHERE key = ?1", [&gone])?;
            total = total.saturating_sub(b);
        }
        tx.commit()
    }

    fn usage(&self) -> rusqlite::Result<(u64, u64)> {
        self.conn()
            .query_row("SELECT COUNT(*), TOTAL(bytes) FROM kept", [], |r| {
                Ok((unsigned(r.get(0)?), r.get::<_, f64>(1)? as u64))
            })
    }
}

/// Whether SQLite says the file is not a database, or a damaged one.
fn damaged(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt)
    )
}

/// SQLite's integers are signed; sizes and times are not.
fn signed(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn unsigned(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

impl ResponseStore for SqliteAnswers {
    fn get<'a>(&'a self, key: &'a str, now_ms: u64) -> BoxFuture<'a, Option<Entry>> {
        let key = key.to_string();
        self.blocking(move |inner| inner.get(&key, now_ms))
    }

    fn put<'a>(&'a self, key: &'a str, entry: Entry) -> BoxFuture<'a, ()> {
        let key = key.to_string();
        self.blocking(move |inner| inner.put(&key, &entry))
    }

    fn usage(&self) -> (u64, u64) {
        self.inner.usage().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    fn entry(body: &str, stored_ms: u64, expires_ms: u64) -> Entry {
        Entry {
            status: 200,
            content_type: Some("text/xml".into()),
            body: body.as_bytes().to_vec(),
            stored_ms,
            expires_ms,
        }
    }

    fn now<T>(f: BoxFuture<'_, T>) -> T {
        f.now_or_never().expect("runs inline without a runtime")
    }

    #[test]
    fn entries_expire_the_least_recently_used_go_and_the_file_survives() {
        let dir = std::env::temp_dir().join(format!("entrez-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Each body is 100 bytes plus its 8-byte content type: three fit in 330.
        let store = SqliteAnswers::open(&dir, 330).expect("opens");
        let body = |c: char| c.to_string().repeat(100);
        now(store.put("a", entry(&body('a'), 0, 1_000)));
        now(store.put("b", entry(&body('b'), 0, 1_000)));
        now(store.put("c", entry(&body('c'), 0, 1_000)));
        assert_eq!(store.usage(), (3, 324));
        // a is used, so b is the least recently used when d needs room.
        assert!(now(store.get("a", 10)).is_some());
        now(store.put("d", entry(&body('d'), 10, 1_000)));
        assert!(now(store.get("b", 10)).is_none());
        assert!(now(store.get("a", 10)).is_some());
        assert_eq!(store.usage(), (3, 324));
        // Expired at 1,000: not served, and gone.
        assert!(now(store.get("c", 1_000)).is_none());
        assert_eq!(store.usage().0, 2);
        // Larger than the whole bound: never kept.
        now(store.put("huge", entry(&"x".repeat(400), 0, 5_000)));
        assert!(now(store.get("huge", 1)).is_none());
        drop(store);
        let again = SqliteAnswers::open(&dir, 330).expect("reopens");
        assert_eq!(
            now(again.get("a", 20)).map(|e| e.body),
            Some(body('a').into_bytes())
        );
        // A damaged file is replaced, not fatal.
        drop(again);
        std::fs::write(dir.join("cache.sqlite"), b"not a database at all").expect("writes");
        for s in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(dir.join(format!("cache.sqlite{s}")));
        }
        let fresh = SqliteAnswers::open(&dir, 330).expect("replaced");
        assert_eq!(fresh.usage(), (0, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
