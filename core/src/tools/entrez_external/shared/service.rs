//! What every service's request plan shares: the services and their pacing, one GET, one error.
//!
//! Each slice builds its own requests as data (`pubchem::plan`, `pmc::plan`), tested by exact
//! URL and body; here are the pieces they have in common.

use crate::error::{Error, ErrorKind};
use crate::net::{percent_encode, HttpCall, Method};

/// The most reply bytes one PubChem or PMC request may read (records, tables, a PNG, a citation).
pub const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// The external services, each with its own pacing bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// PubChem PUG REST.
    PubChem,
    /// PMC's ID Converter, OA web service and citation exporter.
    Pmc,
    /// PMC's Cloud Service: the `pmc-oa-opendata` bucket on AWS S3.
    PmcCloud,
}

impl Service {
    /// The pacing bucket, shared by every call of this server.
    pub fn bucket(self) -> &'static str {
        match self {
            Service::PubChem => "pubchem",
            Service::Pmc => "pmc",
            Service::PmcCloud => "pmc_cloud",
        }
    }

    /// Requests per window: PubChem asks for at most 5 per second; the PMC
    /// citation exporter documents 3, which is applied to all three PMC services.
    pub fn limit(self) -> u32 {
        match self {
            Service::PubChem => 5,
            Service::Pmc => 3,
            // S3 documents no per-client limit; this server stays polite.
            Service::PmcCloud => 10,
        }
    }

    /// The name used in messages.
    pub fn label(self) -> &'static str {
        match self {
            Service::PubChem => "PubChem",
            Service::Pmc => "PMC",
            Service::PmcCloud => "PMC Cloud Service",
        }
    }
}

/// An `invalid_arguments` error: the request is wrong before it is ever sent.
pub(crate) fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArguments, message)
}

/// A GET with everything in the URL.
pub(crate) fn get_call(url: String, timeout_ms: u64) -> HttpCall {
    HttpCall {
        method: Method::Get,
        url,
        headers: Vec::new(),
        body: None,
        timeout_ms,
        max_bytes: MAX_REPLY_BYTES,
        follow_redirects: true,
    }
}

/// Encodes one path segment, leaving readable what SMILES writes most (`()=@:*`) and the
/// comma that separates ids (text with a comma of its own is POSTed instead).
pub fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.' | '_' | '~' | '(' | ')' | '=' | '@' | ':' | '*' | ','
            )
        {
            out.push(c);
        } else {
            out.push_str(&percent_encode(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}
