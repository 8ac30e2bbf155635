//! Stand-ins for the network in tests that must not reach one.

use entrez_mcp_core::error::{Error, ErrorKind};
use entrez_mcp_core::net::pacing::{Grant, Pacer};
use entrez_mcp_core::net::{HttpCall, HttpReply, Network, Transport};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::protocol::Server;
use std::sync::{Arc, Mutex};

/// Pacing is not under test: every slot is free, so each call reaches the transport at once.
pub struct NoWait;

impl Pacer for NoWait {
    fn reserve<'a>(
        &'a self,
        _: &'a str,
        _: u32,
        now: u64,
        _: u64,
    ) -> BoxFuture<'a, Result<Grant, Error>> {
        Box::pin(async move { Ok(Grant::unpaced(now)) })
    }
}

/// Records every request (`METHOD URL BODY`) and answers none: there is no network.
#[derive(Clone, Default)]
pub struct Recording(Arc<Mutex<Vec<String>>>);

impl Recording {
    /// The requests recorded since the last call, oldest first.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }

    /// How many requests are recorded now.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

impl Transport for Recording {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
        let body = call
            .body
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        self.0
            .lock()
            .unwrap()
            .push(format!("{:?} {} {body}", call.method, call.url));
        Box::pin(async {
            Err(Error::new(
                ErrorKind::Unavailable,
                "test transport: no network",
            ))
        })
    }
    fn sleep<'a>(&'a self, _ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// A server with default settings whose every upstream request is recorded, never sent.
pub fn recording_server() -> (Server, Recording) {
    let (server, _) = crate::platform::server_with(entrez_mcp_core::config::Config::defaults());
    let recording = Recording::default();
    let server = server.with_network(Network {
        transport: Box::new(recording.clone()),
        pacer: Box::new(NoWait),
        cache: None,
    });
    (server, recording)
}
