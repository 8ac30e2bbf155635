//! The resources `entrez_data` makes, served by it ([`Datasets`], a [`ResourceOwner`]): each
//! staged dataset's schema at `entrez-dataset://{id}/schema`, and its exports at
//! `entrez-dataset://{id}/export/{export}.{ext}`, read a page at a time. Listing shows the
//! caller's own datasets only, and reading someone else's is a resource-not-found, as with
//! the tool.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::resources::ResourceOwner;
use crate::framework::ToolContext;
use crate::json;
use crate::platform::BoxFuture;
use crate::staging::{is_dataset_id, owner_of};
use crate::tools::entrez_data::call::DatasetRef;
use crate::tools::entrez_data::{export, operations, owned_dataset, render, staging};
use serde_json::Value;

/// The scheme of dataset resources.
pub const SCHEME: &str = "entrez-dataset://";

/// The URI template clients can fill in with a `data_access_id`.
pub const SCHEMA_TEMPLATE: &str = "entrez-dataset://{data_access_id}/schema";

/// The URI template of an export's pages.
pub const EXPORT_TEMPLATE: &str = "entrez-dataset://{data_access_id}/export/{file}{?page}";

/// The `_meta` key of an export page's position.
pub const PAGE_META: &str = "entrez-mcp/export-page";

/// The owner of every `entrez-dataset://` resource.
pub struct Datasets;

impl ResourceOwner for Datasets {
    fn templates(&self) -> Vec<Value> {
        templates()
    }

    fn list<'a>(&'a self, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<Vec<Value>>> {
        Box::pin(list(ctx))
    }

    fn read<'a>(
        &'a self,
        ctx: &'a ToolContext<'a>,
        uri: &'a str,
    ) -> Option<BoxFuture<'a, Result<Value>>> {
        uri.starts_with(SCHEME)
            .then(|| Box::pin(read(ctx, uri)) as BoxFuture<'a, Result<Value>>)
    }

    fn complete<'a>(
        &'a self,
        ctx: &'a ToolContext<'a>,
        template: &'a str,
        argument: &'a str,
    ) -> Option<BoxFuture<'a, Result<Vec<String>>>> {
        (template == SCHEMA_TEMPLATE && argument == "data_access_id").then(|| {
            Box::pin(async move {
                let Some(staging) = ctx.staging else {
                    return Ok(Vec::new());
                };
                let now = ctx.platform.now_unix_ms();
                let owner = owner_of(ctx.request);
                let live = staging.live_datasets(&owner.key, now).await?;
                Ok(live.into_iter().map(|d| d.id).collect())
            }) as BoxFuture<'a, Result<Vec<String>>>
        })
    }
}

/// The `resources/templates/list` entries: a dataset's schema, and an export's pages.
pub fn templates() -> Vec<Value> {
    vec![
        json!({
            "uriTemplate": SCHEMA_TEMPLATE,
            "name": "dataset-schema",
            "title": "Staged dataset schema",
            "description": "Tables, columns, keys, indexes, row counts and example queries of a dataset staged with entrez_data fetch_and_stage.",
            "mimeType": "application/json",
        }),
        json!({
            "uriTemplate": EXPORT_TEMPLATE,
            "name": "dataset-export",
            "title": "Export of a staged dataset",
            "description": "A file made by entrez_data export or bibliography (RIS, BibTeX, CSL JSON, MEDLINE, CSV, JSON Lines, a bibliography), read a page at a time: the pages joined are the file; each read's _meta names the next page.",
        }),
    ]
}

/// The dataset id in `entrez-dataset://{id}/schema`, if `uri` has that form.
pub fn dataset_of(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix(SCHEME)?.strip_suffix("/schema")?;
    is_dataset_id(id).then_some(id)
}

/// The caller's dataset schemas, newest first; none for the handle pool, whose ids are
/// known only to whoever staged each dataset.
async fn list(ctx: &ToolContext<'_>) -> Result<Vec<Value>> {
    let Some(staging) = ctx.staging else {
        return Ok(Vec::new());
    };
    staging.store.expire(ctx.platform.now_unix_ms()).await?;
    let owner = owner_of(ctx.request);
    if !owner.can_list() {
        return Ok(Vec::new());
    }
    let now = ctx.platform.now_unix_ms();
    let live = staging.live_datasets(&owner.key, now).await?;
    Ok(live
        .into_iter()
        .map(|d| {
            json!({
                "uri": format!("{SCHEME}{}/schema", d.id),
                "name": format!("dataset-{}-schema", d.id),
                "title": format!("Schema of dataset {} ({}, {} records)", d.id, d.database, d.records),
                "description": format!("{} — status {}, expires {}", d.source, render::status(&d), crate::staging::iso8601(d.expires_ms)),
                "mimeType": "application/json",
            })
        })
        .collect())
}

/// A dataset's schema (exactly what the `schema` operation returns, as JSON and the same
/// readable text) or one page of an export: the pages joined are the file, and each read's
/// `_meta` names the next page (`?page=N`, the first when none is named).
async fn read(ctx: &ToolContext<'_>, uri: &str) -> Result<Value> {
    let not_found = |why: &str| {
        Error::new(
            ErrorKind::ResourceNotFound,
            format!("Resource not found: {uri} ({why})."),
        )
        .suggest(format!(
            "Dataset schemas are at {SCHEMA_TEMPLATE}; resources/list shows yours."
        ))
        .with_details(json!({ "uri": uri }))
    };
    if let Some((dataset, export, page)) = crate::export::parse_uri(uri) {
        if ctx.staging.is_none() {
            return Err(not_found("this server has no dataset store"));
        }
        return read_export(ctx, uri, dataset, export, page)
            .await
            .map_err(|e| match e.kind {
                ErrorKind::NotFound | ErrorKind::ResourceNotFound => {
                    let mut err = not_found(&e.message);
                    err.suggestions = e.suggestions;
                    err
                }
                _ => e,
            });
    }
    let Some(id) = dataset_of(uri) else {
        return Err(not_found("not a dataset schema or export URI"));
    };
    if ctx.staging.is_none() {
        return Err(not_found("this server has no dataset store"));
    }
    let dataset = DatasetRef {
        data_access_id: id.to_string(),
    };
    let output = match operations::schema(ctx, &dataset, 0).await {
        Ok(output) => output,
        Err(e) if e.kind == ErrorKind::NotFound => {
            let mut err = not_found(&e.message);
            err.suggestions.extend(e.suggestions);
            return Err(err);
        }
        Err(e) => return Err(e),
    };
    let body = serde_json::to_string_pretty(&output.structured)
        .map_err(|e| Error::internal(e.to_string()))?;
    Ok(json!({ "contents": [
        { "uri": uri, "mimeType": "application/json", "text": body },
        { "uri": uri, "mimeType": "text/plain", "text": output.text },
    ]}))
}

/// One page of an export, for its dataset's owner only.
async fn read_export(
    ctx: &ToolContext<'_>,
    uri: &str,
    dataset: &str,
    export: &str,
    page: u64,
) -> Result<Value> {
    let info = owned_dataset(ctx, dataset).await?;
    let staging = staging(ctx)?;
    let gone = || {
        Error::new(
            ErrorKind::NotFound,
            format!("dataset {dataset} has no export {export}"),
        )
        .suggest("Make one with entrez_data operation export.")
    };
    let plan = staging
        .store
        .load_export(&info.id, export)
        .await?
        .ok_or_else(gone)?;
    let plan: crate::export::Export =
        crate::json::from_str(&plan).map_err(|e| Error::internal(e.to_string()))?;
    if !uri.contains(&format!("/export/{}.{}", plan.id, plan.format.extension())) {
        return Err(gone());
    }
    let layout = crate::staging::layouts::named(&info.layout)?;
    let text = crate::export::page(
        staging.store.as_ref(),
        &plan,
        layout,
        page,
        staging.limits.query_time_limit_ms,
    )
    .await?;
    let mut meta = serde_json::Map::new();
    meta.insert(PAGE_META.to_string(), export::page_meta(&plan, page));
    Ok(json!({
        "contents": [{ "uri": plan.uri(Some(page)), "mimeType": plan.format.mime(), "text": text }],
        "_meta": Value::Object(meta),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_well_formed_schema_uris_name_a_dataset() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            dataset_of(&format!("entrez-dataset://{id}/schema")),
            Some(id)
        );
        assert_eq!(dataset_of(&format!("entrez-dataset://{id}/rows")), None);
        assert_eq!(dataset_of("entrez-dataset://../../etc/passwd/schema"), None);
        assert_eq!(dataset_of(&format!("file://{id}/schema")), None);
        assert_eq!(templates()[0]["uriTemplate"], SCHEMA_TEMPLATE);
        assert_eq!(templates()[1]["uriTemplate"], EXPORT_TEMPLATE);
    }
}
