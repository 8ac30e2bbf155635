//! `entrez_data`'s semantic level: the call as it will run.
//!
//! Its real checks need the caller's datasets (do they exist, does the SQL
//! compile against them), so they run in `tools::entrez_data::preflight`,
//! where the store is. Here, with no store, the call is only read into its
//! typed form, so `normalized_arguments` shows the defaults it will run with.

use super::Report;
use crate::calls::data::args::DataArgs;
use crate::calls::data::call::DataCall;

/// Sets `normalized` to the typed call.
pub fn check(args: &DataArgs, report: &mut Report) {
    report.normalized = DataCall::of(args).map(|call| call.to_value());
}
