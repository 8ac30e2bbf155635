//! Which methods each revision answers (those of 2025-11-25's handshake, those of the
//! stateless 2026-07-28, and those both have), and the errors for a method not answered
//! here or sent without the parameters it needs.

use crate::error::{Error, ErrorKind};
use crate::mcp::meta::Revision;

/// Methods both revisions answer.
const COMMON_METHODS: [&str; 8] = [
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
];

/// Methods of the handshake revision only (2026-07-28 removed them).
pub const HANDSHAKE_ONLY: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
];

/// Methods of the stateless revision only (the tasks extension's among them).
pub const STATELESS_ONLY: &[&str] = &[
    "server/discover",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// Whether `method` is one this server answers in `revision` (notifications excluded).
pub fn knows(method: &str, revision: &Revision) -> bool {
    let own = match revision {
        Revision::Handshake => HANDSHAKE_ONLY,
        Revision::Stateless(_) => STATELESS_ONLY,
    };
    COMMON_METHODS.contains(&method) || own.contains(&method)
}

/// Whether `method` exists only in the stateless revision (a handshake request for it lacks
/// its `_meta`); the task methods both revisions have are not.
pub fn stateless_only(method: &str) -> bool {
    STATELESS_ONLY.contains(&method) && !HANDSHAKE_ONLY.contains(&method)
}

/// The error for a request without a parameter it needs, or with one of the wrong type.
pub fn invalid_params(message: &str) -> Error {
    Error::new(ErrorKind::InvalidParams, message.to_string())
}

/// The error for a method this server does not answer in `revision`, naming those it does.
pub fn method_not_found(method: &str, revision: &Revision) -> Error {
    let (own, other, other_revision) = match revision {
        Revision::Handshake => (
            HANDSHAKE_ONLY,
            STATELESS_ONLY,
            "stateless 2026-07-28 requests",
        ),
        Revision::Stateless(_) => (
            STATELESS_ONLY,
            HANDSHAKE_ONLY,
            "a session opened with initialize",
        ),
    };
    let answered: Vec<&str> = COMMON_METHODS.iter().chain(own).copied().collect();
    let mut e = Error::new(
        ErrorKind::MethodNotFound,
        format!("Method not found: {method}"),
    )
    .suggest(format!(
        "Here this server answers: {}.",
        answered.join(", ")
    ));
    if other.contains(&method) {
        e = e.suggest(format!("{method} belongs to {other_revision}."));
    }
    e
}
