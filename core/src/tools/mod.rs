//! The tools, one folder (or file) each, and the table that lists them.

pub mod api_key_status;
pub mod capabilities;
pub mod entrez_data;
pub mod entrez_external;
pub mod entrez_query;
pub mod local_args;
pub mod tool_info;
pub mod tool_names;
pub mod validate;

use crate::framework::view::{View, ViewArgs};
use crate::net::cache::Mode;
use entrez_data::args::DataArgs;
use entrez_external::args::ExternalArgs;
use entrez_query::args::QueryArgs;
use local_args::{DescribeArgs, ValidateArgs};

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
