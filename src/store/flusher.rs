//! Flushing datasets to disk beside staging instead of inside it.
//!
//! A flush is mostly waiting for the disk (on the test machine 1.2 ms per MB
//! written, whether or not writeback had already started), so doing it inside
//! each batch's commit stalls the store thread, and doing it all once at the
//! end adds the whole wait to the last batch. Instead each committed batch
//! starts a flush on a thread of its own, which overlaps the next batch; the
//! final flush before a dataset is called complete then has only the tail
//! left to wait for.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::thread::JoinHandle;

/// Background flushes of the datasets being staged, at most one per dataset.
#[derive(Default)]
pub(super) struct Flusher {
    running: Mutex<HashMap<String, JoinHandle<()>>>,
}

impl Flusher {
    /// Flushes `file` on a background thread, unless a flush of dataset `id` is
    /// still running: the next one covers what this one would have.
    pub(super) fn start(&self, id: &str, file: PathBuf) {
        let mut running = super::lock(&self.running);
        if running.get(id).is_some_and(|h| !h.is_finished()) {
            return;
        }
        // Errors are left to the final, waited-for flush, which reports them.
        let flush = move || {
            let _ = std::fs::File::open(file).and_then(|f| f.sync_data());
        };
        match std::thread::Builder::new()
            .name("entrez-data-flush".into())
            .spawn(flush)
        {
            Ok(handle) => {
                running.insert(id.to_string(), handle);
            }
            Err(_) => {
                running.remove(id);
            }
        }
    }

    /// Stops tracking dataset `id`'s flush (it was dropped); the thread ends on its own.
    pub(super) fn forget(&self, id: &str) {
        super::lock(&self.running).remove(id);
    }

    /// Waits for dataset `id`'s background flush, if one is running.
    pub(super) fn wait(&self, id: &str) {
        let handle = super::lock(&self.running).remove(id);
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_flush_per_dataset_at_a_time_and_wait_joins_it() {
        let file = std::env::temp_dir().join(format!("entrez-flush-{}", std::process::id()));
        std::fs::write(&file, vec![7u8; 1 << 20]).unwrap();
        let flusher = Flusher::default();
        flusher.start("a", file.clone());
        flusher.start("a", file.clone());
        flusher.start("b", file.clone());
        assert_eq!(super::super::lock(&flusher.running).len(), 2);
        flusher.forget("b");
        flusher.wait("a");
        assert!(super::super::lock(&flusher.running).is_empty());
        // A file that vanished is not an error here; the final sync reports it.
        flusher.start("c", file.with_extension("missing"));
        flusher.wait("c");
        std::fs::remove_file(&file).unwrap();
    }
}
