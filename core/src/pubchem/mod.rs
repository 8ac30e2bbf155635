//! PubChem's PUG REST as data: the documented grammar, one typed request, and its reading.
//!
//! Like [`crate::entrez`] for the E-utilities, this is the upstream concept
//! without a runtime: [`grammar`] is PubChem's documentation as tables,
//! [`request`] the typed request and the one function that turns any PubChem
//! request into an HTTP call, [`options`] the option table, and [`read`] (with
//! [`path`]) the reading of a call's arguments (structured fields or a documented path)
//! into that request.

pub mod grammar;
pub mod options;
pub mod path;
pub mod read;
pub mod request;

pub use read::{read, Given, Problem, ProblemKind};
pub use request::PugRequest;
