//! The MCP protocol, independent of any transport.

pub mod completion;
pub mod cursor;
pub mod initialize;
pub mod jsonrpc;
pub mod methods;
pub mod prompts;
pub mod resources;
pub mod server;

pub use server::Server;
