//! Each tool call read once into a typed value, and the requests that value becomes.
//!
//! The intake makes a caller's arguments canonical and the schema checks
//! them; then each tool's reader (a row of the registry table) reads them,
//! through the one argument reader [`canonical`], into [`Arguments`]: the
//! parameters as given, typed (`QueryArgs`, `ExternalArgs`, `DataArgs`, …).
//! The semantic rules (`validation`) check those; the typed calls with every
//! default in place (`QueryCall`, `ExternalCall`, `DataCall`) are made from
//! them, and each module's `plan` turns a typed call into HTTP requests as
//! data, tested by exact URL and body. Nothing above this layer reads a
//! tool's raw arguments again.

pub mod canonical;
pub mod data;
pub mod external;
pub mod local;
pub mod query;
pub mod view;

use crate::net::cache::Mode;
use data::args::DataArgs;
use external::args::ExternalArgs;
use local::{DescribeArgs, ValidateArgs};
use query::args::QueryArgs;
use view::{View, ViewArgs};

/// One call's arguments, read at the door into the tool's own typed form.
#[derive(Debug, Clone, PartialEq)]
pub enum Arguments {
    /// `entrez_query`.
    Query(QueryArgs),
    /// `entrez_external`.
    External(ExternalArgs),
    /// `entrez_data`.
    Data(DataArgs),
    /// `entrez_capabilities` and `entrez_tool_info`.
    Describe(DescribeArgs),
    /// `validate`.
    Validate(ValidateArgs),
    /// A tool without parameters.
    Nothing,
}

impl Arguments {
    /// The view parameters as given, for the tools that take them.
    pub fn view_args(&self) -> Option<&ViewArgs> {
        match self {
            Arguments::Query(a) => Some(&a.view),
            Arguments::External(a) => Some(&a.view),
            Arguments::Data(a) => Some(&a.view),
            _ => None,
        }
    }

    /// How the call may use the cache of upstream answers: `fresh: true` refreshes it, and
    /// validate's runtime checks neither read nor fill it (they must see NCBI as it is).
    pub fn cache_mode(&self) -> Mode {
        match self {
            Arguments::Query(QueryArgs { fresh: true, .. })
            | Arguments::External(ExternalArgs { fresh: true, .. })
            | Arguments::Data(DataArgs { fresh: true, .. }) => Mode::Refresh,
            Arguments::Validate(_) => Mode::Bypass,
            _ => Mode::Use,
        }
    }

    /// How the call's result is shaped and bounded: the caller's view, or the defaults.
    pub fn view(&self) -> View {
        self.view_args().map(ViewArgs::view).unwrap_or_default()
    }
}
