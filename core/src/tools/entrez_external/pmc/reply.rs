//! What every PMC operation does with a reply it cannot use, and with the ids it leaves out.

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::net::HttpReply;
use crate::tools::entrez_external::shared::client::excerpt;
use serde_json::{Map, Value};

/// The error for a reply with an HTTP status the operation cannot read.
pub fn http_error(service: &str, reply: &HttpReply, what: &str) -> Error {
    Error::new(
        ErrorKind::Upstream,
        format!(
            "The {service} rejected {what} with HTTP {}{}.",
            reply.status,
            excerpt(&reply.body)
        ),
    )
    .with_code("pmc_http_error")
    .with_details(json!({"status": reply.status}))
}

/// A PMC call's arguments for the ids left out.
pub fn next_args(operation: &str, ids: &[String], extra: &[(&str, Value)]) -> Map<String, Value> {
    let mut a = Map::new();
    a.insert("service".into(), json!("pmc"));
    a.insert("operation".into(), json!(operation));
    a.insert("ids".into(), json!(ids));
    for (k, v) in extra {
        a.insert(k.to_string(), v.clone());
    }
    a
}
