//! validate and tools/call agree, on the corpus, SQL and the runtime level.

mod corpus;
mod validate_runtime;
mod validate_sql;
