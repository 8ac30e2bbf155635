//! What the native store does when it opens a directory a previous process left.
//!
//! Datasets still `loading` were interrupted. One the server continued by
//! itself is `partial` again, with its cursor, for the edge to take up; the
//! others were a caller's, and are marked `failed`, and
//! since staging does not fsync each batch, one that a machine crash stopped
//! may be torn, so each is checked with `PRAGMA quick_check` before it can be
//! queried. A damaged one is emptied (its tables laid out again, no rows) and
//! says why in its reason; files without a catalog entry and entries without
//! a file are removed.

use super::{dataset, lock, Inner};
use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::layouts::named;
use entrez_mcp_core::staging::scheduler::in_background;
use entrez_mcp_core::staging::store::{CANCELLED, CANCEL_MARK};
use entrez_mcp_core::staging::{is_dataset_id, layouts};
use entrez_mcp_sqlite::store_error;
use rusqlite::params;
use std::sync::{Arc, Mutex};

/// Whether a stored reason is the cursor of a staging the server continues by itself.
pub(super) fn background_cursor(reason: Option<&str>) -> bool {
    reason.is_some_and(in_background)
}

/// Reason recorded for datasets found `loading` when the store opens.
pub const INTERRUPTED: &str =
    "the server stopped while this dataset was being staged; it holds only the batches staged before that";

/// Reason recorded for an interrupted dataset whose file a machine crash left damaged.
pub const DAMAGED: &str =
    "the machine stopped while this dataset was being staged and its file was damaged; its rows were discarded, stage it again";

impl Inner {
    /// Marks interrupted stagings failed and removes files and entries without a partner.
    pub(super) fn recover(&self) -> Result<()> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let catalog = lock(&self.catalog);
        // A staging cancelled while it ran ended there.
        catalog
            .execute(
                "UPDATE dataset SET status = 'failed', reason = ?1 WHERE status = 'loading' AND reason = ?2",
                [CANCELLED, CANCEL_MARK],
            )
            .map_err(store_error)?;
        let loading: Vec<(String, Option<String>)> = catalog
            .prepare("SELECT id, reason FROM dataset WHERE status = 'loading'")
            .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .map_err(store_error)?;
        // A staging the server continued by itself goes on from its stored cursor (the
        // edge asks for its next step); every other one was a caller's, and has stopped.
        let (in_background, interrupted): (Vec<_>, Vec<_>) = loading
            .into_iter()
            .partition(|(_, reason)| background_cursor(reason.as_deref()));
        let in_background: Vec<String> = in_background.into_iter().map(|(id, _)| id).collect();
        let interrupted: Vec<String> = interrupted.into_iter().map(|(id, _)| id).collect();
        for id in &in_background {
            catalog
                .execute("UPDATE dataset SET status = 'partial' WHERE id = ?1", [id])
                .map_err(store_error)?;
        }
        catalog
            .execute(
                "UPDATE dataset SET status = 'failed', reason = ?1 WHERE status = 'loading'",
                [INTERRUPTED],
            )
            .map_err(store_error)?;
        let ids: Vec<String> = catalog
            .prepare("SELECT id FROM dataset")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .map_err(store_error)?;
        let mut kept = Vec::new();
        for id in &ids {
            if dataset::path(dir, id).exists() {
                kept.push(id.clone());
            } else {
                catalog
                    .execute("DELETE FROM dataset WHERE id = ?1", [id])
                    .map_err(store_error)?;
            }
        }
        drop(catalog);
        // Interrupted datasets never reached finish(). Staging does not fsync each
        // batch, so one a machine crash interrupted may be torn: check it before it is
        // ever queried, then give it its indexes.
        for id in interrupted.iter().filter(|i| kept.contains(i)) {
            let salvaged = self.connection(id).and_then(|conn| {
                if dataset::intact(&lock(&conn)) {
                    self.build_indexes(id)
                } else {
                    Err(Error::internal("damaged"))
                }
            });
            if salvaged.is_err() && self.reset_damaged(id).is_err() {
                // Could not even lay out an empty replacement: forget the dataset.
                self.remove(id)?;
            }
        }
        // One continued is checked the same way before its staging goes on.
        for id in in_background.iter().filter(|i| kept.contains(i)) {
            let intact = self
                .connection(id)
                .is_ok_and(|conn| dataset::intact(&lock(&conn)));
            if !intact && self.reset_damaged(id).is_err() {
                self.remove(id)?;
            }
        }
        let entries =
            std::fs::read_dir(dir.join("datasets")).map_err(|e| Error::internal(e.to_string()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let id = name.split('.').next().unwrap_or_default();
            if !is_dataset_id(id) || !kept.iter().any(|k| k == id) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }

    /// Replaces a damaged dataset's file with an empty one of its layout, and says so.
    fn reset_damaged(&self, id: &str) -> Result<()> {
        let (Some(dir), Some(info)) = (&self.dir, self.info(id)?) else {
            return Ok(());
        };
        drop(lock(&self.open).remove(id));
        dataset::delete_files(dir, id);
        let layout = named(&info.layout).unwrap_or(&layouts::GENERIC);
        let conn = dataset::open(Some(dir), id)?;
        conn.execute_batch(
            &[layout.table_ddl(), layout.index_ddl()]
                .concat()
                .join(";\n"),
        )
        .map_err(store_error)?;
        dataset::sync(dir, id)?;
        let bytes = std::fs::metadata(dataset::path(dir, id)).map_or(0, |m| m.len());
        let tables = layout.empty_counts();
        lock(&self.open).insert(id.to_string(), Arc::new(Mutex::new(conn)));
        lock(&self.catalog)
            .execute(
                "UPDATE dataset SET status = 'failed', reason = ?2, records = 0, rows = 0, bytes = ?3, tables = ?4 WHERE id = ?1",
                params![id, DAMAGED, bytes as i64, serde_json::to_string(&tables).unwrap_or_default()],
            )
            .map_err(store_error)?;
        Ok(())
    }
}
