//! From validated `entrez_external` arguments to HTTP calls, as pure data.
//!
//! Everything a caller would otherwise need to know about these services'
//! URL grammar lives here, and is tested by exact URL and body:
//! `pubchem::plan` builds PUG REST calls (path or form body, fast or
//! asynchronous searches), `pmc::plan` the three PMC services' query strings
//! with NCBI's `tool` and `email`; what both share is here.

use crate::error::{Error, ErrorKind};
use crate::net::{HttpCall, Method};

/// Timeout for one PUG REST request; PubChem itself stops synchronous work at 30 s.
pub const PUBCHEM_TIMEOUT_MS: u64 = 35_000;
/// Timeout for one PMC service request.
pub const PMC_TIMEOUT_MS: u64 = 30_000;
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
