//! The two edges: thin adapters from a runtime to the pure core.

#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod sqlite;
pub mod stream;
#[cfg(target_arch = "wasm32")]
pub mod worker;
#[cfg(target_arch = "wasm32")]
pub mod worker_data;
#[cfg(target_arch = "wasm32")]
pub mod worker_net;
#[cfg(target_arch = "wasm32")]
pub mod worker_verify;
