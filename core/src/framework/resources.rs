//! MCP resources served by their owners: a tool that makes resources (today `entrez_data`,
//! its datasets' schemas and exports) implements [`ResourceOwner`] and the catalog names it;
//! the protocol lists, reads and completes through the trait without knowing the tool.

use crate::error::Result;
use crate::framework::ToolContext;
use crate::platform::{BoxFuture, MaybeSendSync};
use serde_json::Value;

/// A family of resources, listed, read and completed by the tool that makes them.
pub trait ResourceOwner: MaybeSendSync {
    /// Its `resources/templates/list` entries, in the order they are listed.
    fn templates(&self) -> Vec<Value>;

    /// Its `resources/list` entries for this caller (never anyone else's).
    fn list<'a>(&'a self, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<Vec<Value>>>;

    /// `resources/read` of `uri`, or `None` when the URI is not of this owner's scheme (the
    /// protocol then asks the next owner).
    fn read<'a>(
        &'a self,
        ctx: &'a ToolContext<'a>,
        uri: &'a str,
    ) -> Option<BoxFuture<'a, Result<Value>>>;

    /// The values offered for `argument` of the URI template `template`, or `None` when the
    /// template, or that variable of it, is not one this owner completes.
    fn complete<'a>(
        &'a self,
        ctx: &'a ToolContext<'a>,
        template: &'a str,
        argument: &'a str,
    ) -> Option<BoxFuture<'a, Result<Vec<String>>>>;
}
