//! `entrez_data`'s semantic level: the call as it will run.
//!
//! Its real checks need the caller's datasets (do they exist, does the SQL
//! compile against them), so they run in `tools::entrez_data::preflight`,
//! where the store is. Here, with no store, the call is only read into its
//! typed form, so `normalized_arguments` shows the defaults it will run with.

use super::{Context, Report};
use crate::calls::data::call::DataCall;
use serde_json::Value;

/// Sets `normalized` to the typed call.
pub fn check(_ctx: &Context<'_>, args: &Value, report: &mut Report) {
    report.normalized = DataCall::read(args).map(|call| call.to_value());
}
