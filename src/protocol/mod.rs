//! The MCP protocol, independent of any transport.

pub mod cursor;
pub mod initialize;
pub mod jsonrpc;
pub mod progress;
pub mod resources;
pub mod server;
pub mod version;

pub use server::Server;
