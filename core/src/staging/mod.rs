//! Staging: Entrez records fetched in bulk into normalized SQLite tables.
//!
//! An assistant that wants "the 40 most frequent MeSH terms among 8,000
//! asthma papers since 2020" should not page through 8,000 records in its
//! context. `entrez_data` fetches them once, in paced batches, into tables
//! it can then query with SQL. This module is the pure part of that: the
//! tables ([`schema`], [`layouts`], [`rows`]), the read-only query policy
//! ([`guard`], [`collect`]), limits and quotas ([`limits`], [`ledger`]), and the
//! traits an edge implements ([`DatasetStore`], [`TaskStore`], [`Scheduler`]).
//! Who owns a dataset is told on [`owner_of`].

pub mod collect;
pub mod guard;
pub mod layouts;
pub mod ledger;
pub mod limits;
pub mod rows;
pub mod scheduler;
pub mod schema;
pub mod store;
pub mod task_store;

pub use limits::Limits;
pub use scheduler::Scheduler;
pub use store::DatasetStore;
pub use task_store::TaskStore;

use crate::caller::{Channel, RequestContext};
use crate::hex::hex;
use crate::platform::Platform;
use sha2::{Digest, Sha256};

/// A store and the limits it is used under; what a server needs to offer `entrez_data`.
pub struct Staging {
    /// Where datasets live.
    pub store: Box<dyn DatasetStore>,
    /// Where MCP tasks keep what their callers will read (the same store, another trait).
    pub tasks: Box<dyn TaskStore>,
    /// Limits in force.
    pub limits: Limits,
    /// What each account and the deployment may hold.
    pub ledger: Box<dyn ledger::Ledger>,
    /// Where a staging the call's budget did not finish goes on by itself, if anywhere.
    pub scheduler: Option<Box<dyn Scheduler>>,
}

impl Staging {
    /// A store under `limits`, with an in-process ledger under the default quotas.
    pub fn new<S>(store: S, limits: Limits) -> Staging
    where
        S: DatasetStore + TaskStore + Clone + 'static,
    {
        let quotas = ledger::Quotas::from_lookup(|_| None, &limits);
        Staging {
            tasks: Box::new(store.clone()),
            store: Box::new(store),
            limits,
            ledger: Box::new(ledger::MemoryLedger::new(quotas)),
            scheduler: None,
        }
    }

    /// The datasets of `owner` (an [`Owner`]'s key) not expired at `now_ms`, newest first:
    /// what `resources/list` and completion offer a caller.
    pub async fn live_datasets(
        &self,
        owner: &str,
        now_ms: u64,
    ) -> crate::error::Result<Vec<store::DatasetInfo>> {
        let mut all = self.store.list(owner).await?;
        all.retain(|d| !d.expired(now_ms));
        Ok(all)
    }

    /// The same staging, continued by `scheduler` when a call's budget runs out.
    pub fn with_scheduler(mut self, scheduler: Box<dyn Scheduler>) -> Staging {
        self.scheduler = Some(scheduler);
        self
    }
}

/// How an identity's owner key begins.
const IDENTITY_OWNER_PREFIX: &str = "id-";

/// The account a request's stagings are charged to: its identity; an anonymous HTTP
/// caller's address (hashed); or, for the local user (stdio, or an open server on a
/// loopback address, whose every caller is this machine), none but the deployment's totals.
pub fn account_of(request: &RequestContext, auth: &crate::auth::AuthConfig) -> ledger::Account {
    if let Some(p) = &request.principal {
        return ledger::Account::Identity(p.key.clone());
    }
    match request.channel {
        Channel::Local => ledger::Account::Local,
        Channel::Http if auth.local && !auth.enabled() => ledger::Account::Local,
        Channel::Http => ledger::Account::Address(digest(
            "address",
            &address_bucket(request.client_ip.as_deref().unwrap_or("unknown")),
        )),
    }
}

/// The account an owner key names, where it names one: an identity's (`id-…`). Sessions
/// and anonymous owners do not say whose address they came from.
pub fn account_of_owner(owner: &str) -> Option<ledger::Account> {
    owner
        .strip_prefix(IDENTITY_OWNER_PREFIX)
        .map(|key| ledger::Account::Identity(key.to_string()))
}

/// The network a caller's address stands for: an IPv4 address itself (an IPv4-mapped IPv6
/// one too), an IPv6 address's /64, which is what one subscriber is given, so an anonymous
/// caller cannot become 2^64 accounts by changing the low bits.
pub fn address_bucket(ip: &str) -> String {
    match ip.trim().parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => v4.to_string(),
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        Err(_) => ip.trim().to_ascii_lowercase(),
    }
}

/// How the owner of a dataset was determined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnerScope {
    /// An authenticated identity (bearer token or OAuth subject).
    Identity,
    /// The MCP session (Streamable HTTP).
    Session,
    /// A hash of the caller's `X-NCBI-API-Key`, where there is no session.
    ApiKey,
    /// The single local user (stdio).
    Local,
    /// Nobody in particular: a stateless HTTP request without a key; the id is the handle.
    Handle,
}

impl OwnerScope {
    /// `session`, `api_key` or `local`.
    pub fn as_str(self) -> &'static str {
        match self {
            OwnerScope::Identity => "identity",
            OwnerScope::Session => "session",
            OwnerScope::ApiKey => "api_key",
            OwnerScope::Local => "local",
            OwnerScope::Handle => "handle",
        }
    }
}

/// The owner of datasets a request may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// Stored owner key; a hash, never the session id or key itself.
    pub key: String,
    /// Where it came from.
    pub scope: OwnerScope,
}

/// The stored owner of datasets in the handle pool.
pub const HANDLE_OWNER: &str = "handle";

impl Owner {
    /// Whether this owner may use a dataset stored under `dataset_owner`: its own, or
    /// one in the handle pool (whoever presents such an id was given it).
    pub fn may_use(&self, dataset_owner: &str) -> bool {
        dataset_owner == self.key || dataset_owner == HANDLE_OWNER
    }

    /// Whether listing this owner's datasets shows only the caller's own (not the pool).
    pub fn can_list(&self) -> bool {
        self.scope != OwnerScope::Handle
    }
}

/// The owner for a request: identity first, then session, then caller key, then the local
/// user (stdio) or the handle pool (stateless HTTP).
///
/// A dataset belongs to the authenticated identity that staged it, from any session or
/// revision; without one, to the MCP session that staged it (the handshake revision over
/// HTTP). Without a session it belongs to a hash of the caller's NCBI key; on stdio, one
/// local user, to the fixed owner `local`. A stateless (2026-07-28) HTTP request with
/// neither session nor key stages into the shared `handle` pool: such a dataset is reached
/// by its 128-bit `data_access_id` alone, which only the caller that staged it was told,
/// and no one can list the pool. Other owners' datasets are indistinguishable from ones
/// that do not exist.
pub fn owner_of(request: &RequestContext) -> Owner {
    // An authenticated identity owns its datasets from any session, revision or connection.
    if let Some(p) = &request.principal {
        return Owner {
            key: format!("{IDENTITY_OWNER_PREFIX}{}", p.key),
            scope: OwnerScope::Identity,
        };
    }
    if let Some(session) = request.session_id.as_deref().filter(|s| !s.is_empty()) {
        return Owner {
            key: format!("session-{}", digest("session", session)),
            scope: OwnerScope::Session,
        };
    }
    if let Some(key) = &request.caller_api_key {
        return Owner {
            key: format!("key-{}", digest("api-key", key.expose())),
            scope: OwnerScope::ApiKey,
        };
    }
    match request.channel {
        Channel::Http => Owner {
            key: HANDLE_OWNER.to_string(),
            scope: OwnerScope::Handle,
        },
        Channel::Local => Owner {
            key: "local".to_string(),
            scope: OwnerScope::Local,
        },
    }
}

// Domain-separated so an owner key cannot be matched against other hashes of the same secret.
fn digest(domain: &str, secret: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"entrez-data-owner:");
    h.update(domain.as_bytes());
    h.update(b":");
    h.update(secret.as_bytes());
    hex(&h.finalize()[..16])
}

/// A new dataset id: 128 bits from the platform's entropy source, as 32 hex digits.
pub fn new_dataset_id(platform: &dyn Platform) -> String {
    let mut bytes = [0u8; 16];
    platform.fill_random(&mut bytes);
    hex(&bytes)
}

/// Whether `id` has the form of a dataset id (it becomes a file name natively).
pub fn is_dataset_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Unix milliseconds as an ISO 8601 UTC timestamp (see [`crate::platform::iso8601`]).
pub use crate::platform::iso8601;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::ApiKey;

    #[test]
    fn addresses_are_charged_by_host_or_ipv6_prefix() {
        assert_eq!(address_bucket("203.0.113.7"), "203.0.113.7");
        assert_eq!(address_bucket("::ffff:203.0.113.7"), "203.0.113.7");
        let a = address_bucket("2001:db8:1:2:aaaa::1");
        assert_eq!(a, "2001:db8:1:2::/64");
        assert_eq!(a, address_bucket("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"));
        assert_ne!(a, address_bucket("2001:db8:1:3::1"));
        assert_eq!(address_bucket(" Unknown "), "unknown");
    }

    #[test]
    fn owners_prefer_sessions_and_never_store_secrets() {
        let both = RequestContext {
            caller_api_key: Some(ApiKey::new("k3y")),
            session_id: Some("sess".into()),
            ..RequestContext::default()
        };
        let o = owner_of(&both);
        assert_eq!(o.scope, OwnerScope::Session);
        assert!(o.key.starts_with("session-") && !o.key.contains("sess\0"));
        assert_eq!(o.key.len(), "session-".len() + 32);
        let key_only = RequestContext {
            caller_api_key: Some(ApiKey::new("k3y")),
            session_id: None,
            channel: Channel::Http,
            stateless: true,
            ..RequestContext::default()
        };
        let k = owner_of(&key_only);
        assert_eq!(k.scope, OwnerScope::ApiKey);
        assert!(!k.key.contains("k3y"));
        assert_eq!(owner_of(&RequestContext::default()).key, "local");
    }

    #[test]
    fn a_keyless_stateless_http_caller_stages_into_the_unlistable_pool() {
        let anonymous = RequestContext {
            channel: Channel::Http,
            stateless: true,
            ..RequestContext::default()
        };
        let o = owner_of(&anonymous);
        assert_eq!(
            (o.key.as_str(), o.scope),
            (HANDLE_OWNER, OwnerScope::Handle)
        );
        assert!(!o.can_list());
        assert!(o.may_use(HANDLE_OWNER) && !o.may_use("local"));
        // Anyone holding a pool dataset's id may use it; nobody else's.
        let session = owner_of(&RequestContext {
            session_id: Some("s".into()),
            channel: Channel::Http,
            ..RequestContext::default()
        });
        assert!(session.can_list());
        assert!(session.may_use(HANDLE_OWNER) && session.may_use(&session.key));
        assert!(!session.may_use("local") && !o.may_use(&session.key));
    }

    #[test]
    fn ids_and_timestamps() {
        assert!(is_dataset_id("0123456789abcdef0123456789abcdef"));
        assert!(!is_dataset_id("../../etc/passwd0123456789abcdef0"));
        assert!(!is_dataset_id("0123456789ABCDEF0123456789ABCDEF"));
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_763_000_000_000), "2025-11-13T02:13:20Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
    }
}
