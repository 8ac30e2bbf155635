//! Background work: MCP tasks and what runs without a caller waiting.

pub mod held;
pub mod methods;
pub mod staging;
pub mod staging_step;
pub mod task;
