//! Starting the external-replay server (PubChem and PMC stand-in) for a test, and driving its
//! controls; and a scripted transport for tests that must not wait on real time.

use crate::common::replay::Replay;

/// A running external-replay, killed when dropped; controls and stats come from [`Replay`].
pub(crate) struct ExternalReplay(Replay);

impl std::ops::Deref for ExternalReplay {
    type Target = Replay;
    fn deref(&self) -> &Replay {
        &self.0
    }
}

impl ExternalReplay {
    /// Starts `external-replay` in process on a free loopback port.
    pub(crate) fn start() -> ExternalReplay {
        ExternalReplay(Replay::from(entrez_mcp_replay::start_external()))
    }

    /// The configuration variables that point the server at this replay.
    pub(crate) fn env(&self, name: &str) -> Option<String> {
        let a = &self.addr;
        match name {
            "PUBCHEM_BASE_URL" => Some(format!("http://{a}/rest/pug/")),
            "PMC_IDCONV_URL" => Some(format!("http://{a}/tools/idconv/api/v1/articles/")),
            "PMC_OA_URL" => Some(format!("http://{a}/pmc/utils/oa/oa.fcgi")),
            "PMC_CLOUD_URL" => Some(format!("http://{a}/pmc-oa-opendata/")),
            "PMC_CTXP_URL" => Some(format!("http://{a}/api/ctxp/v1/")),
            "PMC_BIOC_URL" => Some(format!("http://{a}/research/bionlp/RESTful/pmcoa.cgi/")),
            "ICITE_URL" => Some(format!("http://{a}")),
            _ => None,
        }
    }
}

pub(crate) mod scripted {
    //! A transport that answers from a script and a clock that jumps when slept on,
    //! so long waits (the 60 s poll deadline) and pacing decisions run instantly.

    use entrez_mcp_core::config::Config;
    use entrez_mcp_core::error::Error;
    use entrez_mcp_core::net::pacing::{Grant, Pacer};
    use entrez_mcp_core::net::Network;
    use entrez_mcp_core::net::{HttpCall, HttpReply, Transport};
    use entrez_mcp_core::platform::{BoxFuture, Platform};
    use entrez_mcp_core::protocol::Server;
    use serde_json::Value;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::sync::Mutex;

    #[derive(Default)]
    pub(crate) struct Clock(AtomicU64, AtomicU64);

    impl Platform for Clock {
        fn now_unix_ms(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
        /// Every draw its own (task ids differ), and the same in every run.
        fn fill_random(&self, buf: &mut [u8]) {
            let draw = self.1.fetch_add(1, Ordering::SeqCst) as u8;
            buf.fill(7u8.wrapping_add(draw));
        }
    }

    pub(crate) struct Script {
        pub clock: Arc<Clock>,
        pub reply: Box<dyn Fn(&HttpCall) -> HttpReply + Send + Sync>,
        pub sent: Mutex<Vec<String>>,
    }

    impl Transport for Script {
        fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
            self.sent.lock().unwrap().push(call.url.clone());
            let reply = (self.reply)(&call);
            Box::pin(async move { Ok(reply) })
        }
        fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
            self.clock.0.fetch_add(ms, Ordering::SeqCst);
            Box::pin(async {})
        }
    }

    /// Counts reservations per bucket and never makes anyone wait.
    #[derive(Default)]
    pub(crate) struct CountingPacer(pub Mutex<Vec<String>>);

    impl Pacer for CountingPacer {
        fn reserve<'a>(
            &'a self,
            bucket: &'a str,
            _limit: u32,
            now: u64,
            _room: u64,
        ) -> BoxFuture<'a, Result<Grant, Error>> {
            self.0.lock().unwrap().push(bucket.to_string());
            Box::pin(async move { Ok(Grant::unpaced(now)) })
        }
    }

    pub(crate) struct Shared<T>(pub Arc<T>);

    impl Transport for Shared<Script> {
        fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
            self.0.send(call)
        }
        fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
            self.0.sleep(ms)
        }
    }

    impl Pacer for Shared<CountingPacer> {
        fn reserve<'a>(
            &'a self,
            bucket: &'a str,
            limit: u32,
            now: u64,
            room: u64,
        ) -> BoxFuture<'a, Result<Grant, Error>> {
            self.0.reserve(bucket, limit, now, room)
        }
    }

    pub(crate) fn json_reply(status: u16, header: Option<&str>, body: Value) -> HttpReply {
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        if let Some(h) = header {
            headers.push(("x-throttling-control".to_string(), h.to_string()));
        }
        HttpReply {
            status,
            headers,
            body: body.to_string().into_bytes(),
        }
    }

    pub(crate) fn server(script: Arc<Script>, pacer: Arc<CountingPacer>) -> Server {
        Server::new(Config::defaults(), Box::new(script.clock.clone()))
            .unwrap()
            .with_network(Network {
                transport: Box::new(Shared(script)),
                pacer: Box::new(Shared(pacer)),
                cache: None,
            })
    }
}
