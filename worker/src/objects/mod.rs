//! The Durable Object classes that keep datasets, one module each, and the SQL helpers
//! they share. They sit above every other module of the Worker: a dataset's object runs the
//! steps of its own staging through the same server a request reaches (`fetch::endpoint`),
//! which reaches the objects only through `data`'s clients, by binding name.

// `#[durable_object]` writes glue (a constructor and the handlers) that no doc comment can
// reach; the classes themselves are documented.
#[allow(missing_docs)]
pub mod catalog_object;
#[allow(missing_docs)]
pub mod dataset_object;
mod do_sql;
#[allow(missing_docs)]
pub mod ledger_object;
#[allow(missing_docs)]
pub mod pacer_object;
