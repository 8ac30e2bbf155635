//! The two edges: thin adapters from a runtime to the pure core.

#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod sqlite;
pub mod stream;
#[cfg(all(target_arch = "wasm32", not(feature = "cpu-bench")))]
pub mod worker;
#[cfg(all(target_arch = "wasm32", not(feature = "cpu-bench")))]
pub mod worker_data;
#[cfg(all(target_arch = "wasm32", not(feature = "cpu-bench")))]
pub mod worker_net;
#[cfg(all(target_arch = "wasm32", not(feature = "cpu-bench")))]
pub mod worker_verify;
