//! A query's rows gathered under its policy: which to return, how many to count.
//!
//! Both backends step their own cursor and offer each row here, so the row
//! limit, the result-size ceiling and the count cap mean the same on each.

use crate::staging::guard::QueryPolicy;
use crate::staging::rows::SqlValue;
use crate::staging::store::QueryResult;

/// Rows kept and counted so far.
pub struct Collector {
    policy: QueryPolicy,
    kept: Vec<Vec<SqlValue>>,
    total: u64,
    bytes: usize,
    bytes_capped: bool,
}

impl Collector {
    /// An empty collection under `policy`.
    pub fn new(policy: QueryPolicy) -> Collector {
        Collector {
            policy,
            kept: Vec::new(),
            total: 0,
            bytes: 0,
            bytes_capped: false,
        }
    }

    /// Counts the next row and keeps it if it still fits; `values` is only
    /// called for a row that may be returned. False once the count cap is reached.
    pub fn offer<E>(
        &mut self,
        values: impl FnOnce() -> Result<Vec<SqlValue>, E>,
    ) -> Result<bool, E> {
        self.total += 1;
        if self.kept.len() < self.policy.limit && !self.bytes_capped {
            let row = values()?;
            // Each cell costs its payload plus JSON punctuation.
            let weight: usize = row.iter().map(|v| v.weight() + 4).sum();
            if self.bytes + weight > self.policy.max_result_bytes && !self.kept.is_empty() {
                self.bytes_capped = true;
            } else {
                self.bytes += weight;
                self.kept.push(row);
            }
        }
        Ok(self.total < self.policy.count_cap)
    }

    /// Whether every row that will be returned is already kept (only counting remains).
    pub fn rows_complete(&self) -> bool {
        self.kept.len() == self.policy.limit || self.bytes_capped
    }

    /// The result; `total_exact` says whether counting reached the last row.
    pub fn finish(self, columns: Vec<String>, total_exact: bool, elapsed_ms: u64) -> QueryResult {
        QueryResult {
            columns,
            rows: self.kept,
            total: self.total,
            total_exact,
            bytes_capped: self.bytes_capped,
            elapsed_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(limit: usize, max_result_bytes: usize, count_cap: u64) -> QueryPolicy {
        QueryPolicy {
            limit,
            max_result_bytes,
            time_limit_ms: 1_000,
            count_cap,
        }
    }

    fn row(n: i64) -> Result<Vec<SqlValue>, ()> {
        Ok(vec![SqlValue::Integer(n)])
    }

    #[test]
    fn rows_past_the_limit_are_counted_not_kept() {
        let mut c = Collector::new(policy(2, 1_000, 100));
        for n in 0..5 {
            assert!(c.offer(|| row(n)).unwrap());
        }
        assert!(c.rows_complete());
        let r = c.finish(vec!["n".into()], true, 3);
        assert_eq!(
            r.rows,
            vec![vec![SqlValue::Integer(0)], vec![SqlValue::Integer(1)]]
        );
        assert_eq!(r.total, 5);
        assert!(!r.bytes_capped);
    }

    #[test]
    fn the_byte_ceiling_and_the_count_cap_stop_what_they_should() {
        // Each integer row weighs 12 bytes: two fit under 30, the third does not.
        let mut c = Collector::new(policy(10, 30, 4));
        let mut asked = 0;
        let mut more = true;
        while more {
            more = c
                .offer(|| {
                    asked += 1;
                    row(asked)
                })
                .unwrap();
        }
        assert!(c.rows_complete());
        let r = c.finish(vec!["n".into()], false, 0);
        assert_eq!(r.rows.len(), 2);
        assert!(r.bytes_capped);
        assert_eq!(r.total, 4, "counting stops at the cap");
        assert_eq!(asked, 3, "rows past the ceiling are never read");
    }
}
