//! What every service slice of `entrez_external` stands on, and nothing of any one service.
//!
//! [`service`] names the services with their pacing and builds the plain GET; [`client`]
//! paces, sends and retries in the service's own bucket, reading PubChem's throttling
//! ([`throttle`]) and faults ([`fault`]) on every reply; [`fit`] shapes a result's list to
//! the caller's view and budget; [`output`] writes the result's text and hint blocks.

pub mod client;
pub mod fault;
pub mod fit;
pub mod output;
pub mod service;
pub mod throttle;
