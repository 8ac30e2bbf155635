//! The E-utilities layer: request plans, pacing, retries and the client that ties them.

pub mod client;
pub mod databases;
pub mod faults;
pub mod limiter;
pub mod request;
pub mod retry;

pub use client::EntrezClient;
pub use request::{EutilsRequest, Utility};
