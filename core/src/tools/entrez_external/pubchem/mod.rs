//! PubChem's PUG REST as data: the documented grammar, one typed request, and its reading.
//!
//! Like [`crate::entrez`] for the E-utilities, this is the upstream concept
//! without a runtime: [`grammar`] is PubChem's documentation as tables,
//! [`request`] the typed request and the one function that turns any PubChem
//! request into an HTTP call, [`options`] the option table, and [`read`] (with
//! [`path`]) the reading of a call's arguments (structured fields or a documented path)
//! into that request.

pub mod chem;
pub mod grammar;
pub mod ids;
pub mod listkey;
pub mod lookups;
pub mod options;
pub mod path;
pub mod path_check;
pub mod plan;
pub mod pug;
pub mod pug_rest;
pub mod read;
pub mod request;
pub mod smiles;
pub mod throttle;

pub use read::{read, Given, Problem, ProblemKind};
pub use request::PugRequest;
