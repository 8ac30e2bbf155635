//! # entrez-mcp, the native edge
//!
//! The `entrez-mcp` binary: the pure core ([`entrez_mcp_core`]) behind a byte
//! pump. [`http`] serves Streamable HTTP with axum on hyper's connection loop
//! (header and body timeouts, a connection cap), [`stdio`] feeds stdin lines to
//! the same dispatcher, [`transport`] sends upstream requests with reqwest,
//! [`store`] keeps datasets in one rusqlite file each, [`export`] writes one to a file
//! (`entrez-mcp export`), and [`verify`] checks
//! access-token signatures with ring. Configuration comes from the process
//! environment under the names the Worker reads from its vars and secrets.

pub mod background;
pub mod cache;
pub mod export;
pub mod http;
pub mod platform;
pub mod stdio;
pub mod store;
pub mod transport;
pub mod verify;

/// Every native build (the binary, the replay servers, tests and benchmarks)
/// allocates with mimalloc: parsing and staging build many short strings,
/// and glibc's allocator spent about a tenth of a PubMed parse in malloc/free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entrez_mcp_core::auth::{AuthConfig, Authenticator};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::{Endpoint, Sessions};
use entrez_mcp_core::net::cache::{CacheSettings, ResponseCache};
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::Network;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::ledger::{MemoryLedger, Quotas};
use entrez_mcp_core::staging::{Limits, Staging};
pub use platform::SystemPlatform;

/// Reads the configuration from the process environment.
pub fn config_from_env() -> Config {
    Config::from_lookup(|name| std::env::var(name).ok())
}

/// Builds the server from the environment, with reqwest and an in-process pacer, and the
/// steps of the stagings it continues by itself (where it has a store), to be driven.
pub fn server() -> Result<(Server, Option<background::Steps>), String> {
    server_with(config_from_env())
}

fn server_with(config: Config) -> Result<(Server, Option<background::Steps>), String> {
    // Every schema compiles now, or the server does not start.
    entrez_mcp_core::framework::registry::Registry::prepare(entrez_mcp_core::tools::CATALOG)?;
    let network = Network {
        transport: Box::new(transport::ReqwestTransport::new()?),
        // One pacer per process: every task of this binary shares NCBI's limit.
        pacer: Box::new(MemoryPacer::new()),
        cache: answer_cache(&config.cache),
    };
    let server = Server::new(config, Box::new(SystemPlatform))?.with_network(network);
    match staging_from_env() {
        Ok((staging, steps)) => Ok((server.with_staging(staging)?, Some(steps))),
        Err(e) => {
            // Staging is one tool; the rest of the server is still worth running.
            eprintln!("entrez-mcp: dataset store unavailable, entrez_data disabled: {e}");
            Ok((server, None))
        }
    }
}

/// The cache of upstream answers the settings ask for: `cache.sqlite` beside the datasets.
fn answer_cache(settings: &CacheSettings) -> Option<ResponseCache> {
    if !settings.enabled {
        return None;
    }
    match cache::SqliteAnswers::from_lookup(|name| std::env::var(name).ok(), settings.max_bytes) {
        Ok(store) => Some(ResponseCache::new(Box::new(store), *settings)),
        Err(e) => {
            // The cache saves requests; without it every request still goes upstream.
            eprintln!("entrez-mcp: answer cache unavailable, every request goes upstream: {e}");
            None
        }
    }
}

/// The dataset store under `ENTREZ_DATA_DIR` (or the platform data directory) and its limits,
/// with the steps of the stagings continued by themselves (those a stopped process left first).
pub fn staging_from_env() -> Result<(Staging, background::Steps), String> {
    let env = |name: &str| std::env::var(name).ok();
    let limits = Limits::from_lookup(env);
    let store = store::SqliteStore::from_lookup(env)?;
    let ledger = seeded_ledger(&store, Quotas::from_lookup(env, &limits))?;
    let (scheduler, steps) = background::queue();
    for id in store.in_background()? {
        scheduler.ask(id);
    }
    Ok((
        Staging {
            tasks: Box::new(store.clone()),
            store: Box::new(store),
            limits,
            ledger: Box::new(ledger),
            scheduler: Some(Box::new(scheduler)),
        },
        steps,
    ))
}

/// The ledger under `quotas`, counting what `store` holds from an earlier run: its datasets,
/// and the task results it keeps for calls (each an identity's charged to that identity).
pub fn seeded_ledger(store: &store::SqliteStore, quotas: Quotas) -> Result<MemoryLedger, String> {
    let ledger = MemoryLedger::new(quotas);
    let holdings = |held: Vec<store::Holding>| {
        held.into_iter().map(|(id, owner, bytes, expires)| {
            let account = entrez_mcp_core::staging::account_of_owner(&owner);
            (id, account, bytes, expires)
        })
    };
    ledger.seed(holdings(store.inventory()?), false);
    ledger.seed(holdings(store.task_inventory()?), true);
    Ok(ledger)
}

/// `localhost`, a `*.localhost` name, or a loopback address (`127.x.x.x`, `[::1]`), with any port.
fn loopback_name(host: &str) -> bool {
    let h = host.trim().to_ascii_lowercase();
    let name = match h.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(rest).to_string(),
        None => h.rsplit_once(':').map_or(h.clone(), |(n, _)| n.to_string()),
    };
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Builds the HTTP endpoint; without `MCP_SESSION_SECRET` sessions last until restart.
/// `local` says it listens on a loopback address only, so (unless ALLOWED_HOSTS names a
/// host beyond this machine) its anonymous callers are the machine's own user, who may
/// spend the server's NCBI key.
pub fn endpoint(local: bool) -> Result<(Endpoint, Option<background::Steps>), String> {
    let mut config = config_from_env();
    let lookup = |name: &str| std::env::var(name).ok();
    // A loopback listener is the machine's own only while no other name reaches it: a host
    // name in ALLOWED_HOSTS means a reverse proxy serves it to others.
    let local = local && config.allowed_hosts.iter().all(|h| loopback_name(h));
    config.auth = AuthConfig::from_lookup(&lookup, local)?;
    let auth = Authenticator::new(config.auth.clone(), Some(Box::new(verify::RingVerifier)));
    let (server, steps) = server_with(config)?;
    let key = match &server.config.session_secret {
        Some(secret) => secret.expose().as_bytes().to_vec(),
        None => {
            let mut k = vec![0u8; 32];
            SystemPlatform.fill_random(&mut k);
            k
        }
    };
    let sessions = Sessions::new(key, server.config.session_ttl_secs, true);
    Ok((Endpoint::new(server, sessions).with_auth(auth), steps))
}

#[cfg(test)]
mod tests {
    use super::loopback_name;

    #[test]
    fn only_this_machines_names_are_loopback() {
        for h in [
            "localhost",
            "LOCALHOST:8787",
            "app.localhost",
            "127.0.0.1",
            "127.0.0.1:9000",
            "[::1]",
            "[::1]:8787",
        ] {
            assert!(loopback_name(h), "{h}");
        }
        for h in [
            "entrez.example.org",
            "10.0.0.5",
            "*.workers.dev",
            "[2001:db8::1]",
        ] {
            assert!(!loopback_name(h), "{h}");
        }
    }
}
