//! The E-utilities: requests as data, the database table, EFetch's formats, the client, and
//! what NCBI's errors mean.

pub mod client;
pub mod databases;
pub mod faults;
pub mod formats;
pub mod request;

pub use client::EntrezClient;
pub use request::{EutilsRequest, Utility};
