//! The test kit of `core/tests` and `tests/suite`: one copy of what both folders' tests
//! stand on. Every tool call goes through [`calls`], which checks the result against the
//! tool's outputSchema, so no test can read a result the schema would refuse. The kit
//! names no runtime: a future runs on a [`Runner`], [`Parked`] here, tokio's in the native
//! suite (whose transport needs it).
//!
//! ## Layers, lowest first
//! - `fixtures`, `run`: recorded files by name; running a future to its end.
//! - `platform`, `http`, `calls`: a clock tests move, requests as data, checked tool calls.
//! - `offline`: a network that records every request and answers none.

pub mod calls;
pub mod fixtures;
pub mod http;
pub mod offline;
pub mod platform;
pub mod run;

pub use calls::{call_tool, call_tool_on, call_tool_with, rpc_on};
pub use http::{in_session, initialize_body, open_session, post, rpc_code};
pub use platform::{endpoint, endpoint_with, server_with, TestPlatform, T0};
pub use run::{block_on, Parked, Runner};
