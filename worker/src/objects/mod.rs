//! The Durable Object classes that keep datasets, one module each, and the SQL helpers
//! they share. They sit above every other module of the Worker: a dataset's object runs the
//! steps of its own staging through the same server a request reaches (`fetch::endpoint`),
//! which reaches the objects only through `data`'s clients, by binding name.

pub mod catalog_object;
pub mod dataset_object;
mod do_sql;
pub mod ledger_object;
