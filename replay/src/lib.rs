//! Stand-ins for the services entrez-mcp talks to, for its tests and benchmarks.
//!
//! NCBI, PubChem and PMC cannot be reached from where this project is tested,
//! and a mock that answers whatever a test expects would only test the test.
//! [`ncbi`] answers E-utilities requests with real recorded replies and NCBI's
//! real rate limits; [`external`] answers PubChem PUG REST and PMC's services
//! from documented fixtures with their limits. Both run as binaries
//! (`ncbi-replay`, `external-replay`, for the end-to-end suites and the
//! benchmarks) or in process ([`start_ncbi`], [`start_external`], for `cargo
//! test`), and both listen on 127.0.0.1 only.

pub mod cli;
pub mod external;
pub mod ncbi;

use std::net::SocketAddr;

/// A replay server running in this process on its own thread; stopped when dropped.
pub struct Running {
    /// Where it listens: `127.0.0.1:PORT`.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts `serve` on a free port of 127.0.0.1 on a thread with a runtime of its own.
fn start<F, Fut>(name: &str, serve: F) -> Running
where
    F: FnOnce(tokio::net::TcpListener, tokio::sync::oneshot::Receiver<()>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = std::io::Result<()>>,
{
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let (ready, bound) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime for the replay");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
                    .await
                    .expect("a loopback port for the replay");
                let _ = ready.send(listener.local_addr().expect("its address"));
                if let Err(e) = serve(listener, stopped).await {
                    eprintln!("replay server failed: {e}");
                }
            });
        })
        .expect("a thread for the replay");
    let addr = bound.recv().expect("the replay reports its address");
    Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    }
}

/// `ncbi-replay` in process, with NCBI's limits (3 per second per address, 10 per key).
pub fn start_ncbi() -> Running {
    start("ncbi-replay", |listener, stopped| {
        let options = ncbi::server::Options {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            anonymous_limit: 3,
            key_limit: 10,
            log_requests: false,
        };
        ncbi::server::serve(listener, options, async move {
            let _ = stopped.await;
        })
    })
}

/// `external-replay` in process, with PubChem's limit (5 per second) and PMC's (3).
pub fn start_external() -> Running {
    start("external-replay", |listener, stopped| {
        let options = external::server::Options {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            pubchem_limit: 5,
            pmc_limit: 3,
            log_requests: false,
        };
        external::server::serve(listener, options, async move {
            let _ = stopped.await;
        })
    })
}
