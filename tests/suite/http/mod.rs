//! The native HTTP server's limits and authorization, and stdio (the endpoint as plain data
//! is tested in core/tests).

mod http_auth;
mod http_limits;
mod stdio;
