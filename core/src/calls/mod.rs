//! Each tool call read once into a typed value, and the requests that value becomes.
//!
//! The intake makes a caller's arguments canonical and the schema checks
//! them; then [`query`], [`external`] and [`data`] read them, through the one
//! argument reader [`canonical`], into typed calls with every default in
//! place (`QueryCall`, `ExternalCall`, `DataCall`), and each module's `plan`
//! turns a typed call into HTTP requests as data, tested by exact URL and
//! body. The semantic rules (`validation`) check these values and the tools
//! run them: nothing above this layer reads a tool's raw arguments again.

pub mod canonical;
pub mod data;
pub mod external;
pub mod query;
