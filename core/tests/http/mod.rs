//! The HTTP endpoint as plain data: sessions, errors, the stateless revision.

mod endpoint;
mod stateless;
