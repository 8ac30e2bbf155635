//! validate against real datasets (SQL) and NCBI's stand-in (the runtime level); the
//! corpus runs in core/tests.

mod validate_runtime;
mod validate_sql;
