//! Calls to requests and results through the native server (the tiers that need no runtime
//! are the core's own, in core/tests).

mod loose_calls;
mod tools;
mod validate_calls;
