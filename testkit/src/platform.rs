//! A server on a clock the test moves, and the HTTP endpoint around it.

use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::{Endpoint, Sessions};
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// A clock tests can move and an entropy source that counts.
#[derive(Default)]
pub struct TestPlatform {
    /// The time it says, in Unix milliseconds.
    pub now_ms: AtomicU64,
    counter: AtomicU8,
}

impl Platform for TestPlatform {
    fn now_unix_ms(&self) -> u64 {
        self.now_ms.load(Ordering::SeqCst)
    }
    fn fill_random(&self, buf: &mut [u8]) {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        buf.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = n ^ i as u8);
    }
}

/// Where every [`TestPlatform`] clock starts (November 2025).
pub const T0: u64 = 1_763_000_000_000;

/// A server with `config`, and the platform handle to move its clock.
pub fn server_with(config: Config) -> (Server, Arc<TestPlatform>) {
    let platform = Arc::new(TestPlatform::default());
    platform.now_ms.store(T0, Ordering::SeqCst);
    let server = Server::new(config, Box::new(platform.clone())).expect("server builds");
    (server, platform)
}

/// An endpoint with default config and a 60-second session TTL.
pub fn endpoint() -> (Endpoint, Arc<TestPlatform>) {
    endpoint_with(Config::defaults(), true)
}

/// An endpoint with `config`, a 60-second session TTL, and DELETE ending sessions when
/// `termination`.
pub fn endpoint_with(config: Config, termination: bool) -> (Endpoint, Arc<TestPlatform>) {
    let (server, platform) = server_with(config);
    (
        Endpoint::new(server, Sessions::new(b"test-key".to_vec(), 60, termination)),
        platform,
    )
}
