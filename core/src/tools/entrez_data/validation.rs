//! `entrez_data`'s semantic level: the call as it will run.
//!
//! Its real checks need the caller's datasets (do they exist, does the SQL
//! compile against them), so they run in `tools::entrez_data::preflight`,
//! where the store is. Here, with no store, the call is only read into its
//! typed form, so `normalized_arguments` shows the defaults it will run with.

use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::call::DataCall;
use crate::validation::{codes, path, Report};

/// Sets `normalized` to the typed call; names `fresh` and `wait_seconds` where they do nothing.
pub fn check(args: &DataArgs, report: &mut Report) {
    report.normalized = DataCall::of(args).map(|call| call.to_value());
    let op = args.operation.as_deref().unwrap_or("");
    if args.given.iter().any(|k| k == "fresh") && op != "fetch_and_stage" {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("fresh"),
            format!("{op} asks nothing upstream (only fetch_and_stage does); fresh is ignored."),
        );
    }
    if args.given.iter().any(|k| k == "wait_seconds")
        && !matches!(op, "fetch_and_stage" | "query" | "schema")
    {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("wait_seconds"),
            format!("{op} waits for nothing (query, schema and fetch_and_stage do); wait_seconds is ignored."),
        );
    }
}
