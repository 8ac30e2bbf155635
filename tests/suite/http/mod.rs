//! The HTTP endpoint, its limits and authorization, and stdio.

mod http_auth;
mod http_endpoint;
mod http_limits;
mod http_stateless;
mod stdio;
