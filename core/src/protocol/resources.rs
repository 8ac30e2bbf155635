//! MCP resources: `resources/list`, `resources/templates/list` and `resources/read`, each
//! answered by the resource owners the registry's catalog names
//! ([`crate::framework::resources::ResourceOwner`]), in catalog order.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::ToolContext;
use crate::json;
use serde_json::Value;

/// The `capabilities.resources` announcement.
pub fn capability() -> Value {
    json!({ "subscribe": false, "listChanged": false })
}

/// `resources/templates/list`: every owner's templates.
pub fn templates(ctx: &ToolContext<'_>) -> Value {
    let all: Vec<Value> = ctx
        .registry
        .resource_owners()
        .iter()
        .flat_map(|owner| owner.templates())
        .collect();
    json!({ "resourceTemplates": all })
}

/// `resources/list`: every owner's resources for this caller.
pub async fn list(ctx: &ToolContext<'_>) -> Result<Value> {
    let mut all = Vec::new();
    for owner in ctx.registry.resource_owners() {
        all.extend(owner.list(ctx).await?);
    }
    Ok(json!({ "resources": all }))
}

/// `resources/read`: the owner of the URI's scheme reads it.
pub async fn read(ctx: &ToolContext<'_>, uri: &str) -> Result<Value> {
    for owner in ctx.registry.resource_owners() {
        if let Some(read) = owner.read(ctx, uri) {
            return read.await;
        }
    }
    Err(Error::new(
        ErrorKind::ResourceNotFound,
        format!("Resource not found: {uri} (no resource of this server has that URI)."),
    )
    .suggest(
        "resources/templates/list names the URIs this server reads; resources/list shows yours.",
    )
    .with_details(json!({ "uri": uri })))
}

/// The values for `argument` of the URI template `template`, from the owner that completes
/// it; `None` when none does.
pub async fn complete(
    ctx: &ToolContext<'_>,
    template: &str,
    argument: &str,
) -> Option<Result<Vec<String>>> {
    for owner in ctx.registry.resource_owners() {
        if let Some(values) = owner.complete(ctx, template, argument) {
            return Some(values.await);
        }
    }
    None
}
