//! PubChem's `Fault` body: what the client reads to tell a final refusal from a passing one.
//!
//! The client judges every reply before a slice reads it (PubChem's own timeout is final, its
//! "server busy" is throttling), so the fault's reading sits here, below both slices.

use serde_json::Value;

/// A PUG REST `Fault` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// E.g. `PUGREST.NotFound`.
    pub code: String,
    /// PubChem's one-line message.
    pub message: String,
    /// Further lines PubChem adds.
    pub details: Vec<String>,
}

impl Fault {
    /// Message and details as one sentence.
    pub fn sentence(&self) -> String {
        let mut s = self.message.trim().trim_end_matches('.').to_string();
        let details: Vec<&str> = self
            .details
            .iter()
            .map(|d| d.trim())
            .filter(|d| !d.is_empty() && !d.eq_ignore_ascii_case(&self.message))
            .take(3)
            .collect();
        if !details.is_empty() {
            s.push_str(&format!(" ({})", details.join("; ")));
        }
        s
    }
}

/// The `Fault` in a body, if the body is one.
pub fn fault(body: &[u8]) -> Option<Fault> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let f = v.get("Fault")?;
    Some(Fault {
        code: f["Code"].as_str().unwrap_or("PUGREST.Unknown").to_string(),
        message: f["Message"].as_str().unwrap_or("").to_string(),
        details: f["Details"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d.as_str().map(String::from))
            .collect(),
    })
}
