//! The operations on staged datasets: query, schema, list_datasets, drop_dataset.
//!
//! Each one first resolves the dataset for this caller (ownership and expiry
//! are decided in the core, not by the backend) and reports the dataset's
//! status, so partial data from a failed or still-loading staging is never
//! mistaken for a complete set.

use crate::error::Result;
use crate::export::statement_of;
use crate::framework::budget;
use crate::framework::content::{Annotations, Role};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::staging::guard::QueryPolicy;
use crate::staging::layouts::{layout_for, ALL};
use crate::staging::schema::Layout;
use crate::staging::store::DatasetInfo;
use crate::staging::{owner_of, Staging};
use crate::tools::entrez_data::call::{DatasetRef, Query};
use crate::tools::entrez_data::finish::dataset_link;
use crate::tools::entrez_data::{owned_dataset, render, staging, status_warnings, wait};
use serde_json::Value;

/// The layout `info` was staged in (its database's, for a dataset older than the name).
pub(crate) fn layout_named(info: &DatasetInfo) -> &'static Layout {
    ALL.iter()
        .copied()
        .find(|l| l.name == info.layout)
        .unwrap_or_else(|| layout_for(&info.database))
}

fn annotated(structured: Value, text: String) -> ToolOutput {
    ToolOutput::new(structured, text).with_text_annotations(
        Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0),
    )
}

/// Runs one read-only SQL statement, once the dataset's staging has ended or `wait_ms` passed.
pub async fn query(ctx: &ToolContext<'_>, call: &Query, wait_ms: u64) -> Result<ToolOutput> {
    let (info, waited) = wait::dataset(ctx, &call.data_access_id, wait_ms).await?;
    let staging = staging(ctx)?;
    let sql = call.sql.as_str();
    let policy = QueryPolicy::with_limit(Some(call.limit), staging.limits.query_time_limit_ms);
    let r = staging
        .store
        .query(&info.id, sql, policy)
        .await
        .map_err(|e| crate::tools::entrez_data::preflight::explain(e, layout_named(&info)))?;
    let mut warnings: Vec<String> = waited.into_iter().collect();
    warnings.extend(status_warnings(&info));
    let returned = r.rows.len() as u64;
    if r.bytes_capped {
        warnings.push(format!(
            "Only {returned} rows fit in one result ({} bytes); select fewer or shorter columns, or page with LIMIT/OFFSET.",
            crate::staging::guard::MAX_RESULT_BYTES
        ));
    } else if r.total > returned {
        warnings.push(format!(
            "{returned} of {} rows returned (limit {}); raise limit (max {}) or page with LIMIT/OFFSET in the SQL.",
            r.total,
            policy.limit,
            crate::staging::guard::MAX_LIMIT
        ));
    }
    let rows: Vec<Value> = r
        .rows
        .iter()
        .map(|row| Value::Array(row.iter().map(render::cell).collect()))
        .collect();
    let budget = call.view.max_characters;
    let mut fitted = budget::fit(rows.len(), budget, |k| {
        let structured = json!({
            "operation": "query",
            "data_access_id": info.id,
            "status": render::status(&info),
            "columns": r.columns,
            "rows": rows[..k],
            "row_count": k,
            "total": r.total,
            "total_exact": r.total_exact,
            "truncated": r.total > k as u64,
            "limit": policy.limit,
            "elapsed_ms": r.elapsed_ms,
            "warnings": warnings,
        });
        let mut text = render::query_text(&r, k);
        for w in &warnings {
            text.push_str(&format!("\nNote: {w}"));
        }
        (structured, text)
    });
    // The rows left out, exactly: the same statement, past the rows shown, as many as were
    // returned and not shown.
    let next = (fitted.shown < rows.len()).then(|| {
        let rest = rows.len() - fitted.shown;
        let mut a = serde_json::Map::new();
        a.insert("operation".into(), json!("query"));
        a.insert("data_access_id".into(), json!(info.id));
        a.insert(
            "sql".into(),
            json!(format!(
                "SELECT * FROM (\n{}\n) LIMIT {rest} OFFSET {}",
                statement_of(sql),
                fitted.shown
            )),
        );
        a.insert("limit".into(), json!(rest));
        budget::next_call("entrez_data", a, &call.view)
    });
    let (structured, text) = fitted.take();
    let out = annotated(structured, text).with_content(dataset_link(&info, layout_named(&info)));
    Ok(budget::left_out(out, &fitted, budget, "rows", &[], next))
}

/// Tables, columns, keys, indexes, row counts and example queries.
pub async fn schema(
    ctx: &ToolContext<'_>,
    dataset: &DatasetRef,
    wait_ms: u64,
) -> Result<ToolOutput> {
    let (info, waited) = wait::dataset(ctx, &dataset.data_access_id, wait_ms).await?;
    let staging = staging(ctx)?;
    let layout = layout_named(&info);
    let tables = staging.store.describe(&info.id).await?;
    let mut text = format!(
        "Dataset {} — {} ({} layout, status {}, {} records).\n{}\n",
        info.id,
        info.source,
        layout.name,
        render::status(&info),
        render::thousands(info.records),
        layout.doc
    );
    let tables_json: Vec<Value> = tables
        .iter()
        .map(|t| {
            let doc = layout.table(&t.name);
            text.push_str(&format!(
                "\n{} ({} rows) — {}\n  key ({})\n",
                t.name,
                render::thousands(t.rows),
                doc.map_or("", |d| d.doc),
                t.primary_key.join(", ")
            ));
            let columns: Vec<Value> = t
                .columns
                .iter()
                .map(|c| {
                    let note = doc.and_then(|d| d.column(&c.name)).map(|c| c.doc);
                    text.push_str(&format!(
                        "  {} {}{} — {}\n",
                        c.name,
                        c.ty,
                        if c.not_null { " NOT NULL" } else { "" },
                        note.unwrap_or("")
                    ));
                    json!({"name": c.name, "type": c.ty, "not_null": c.not_null,
                           "primary_key": c.primary_key, "description": note})
                })
                .collect();
            for f in &t.foreign_keys {
                text.push_str(&format!(
                    "  ({}) references {} ({})\n",
                    f.columns.join(", "),
                    f.table,
                    f.references.join(", ")
                ));
            }
            for i in &t.indexes {
                text.push_str(&format!("  index {} on ({})\n", i.name, i.columns.join(", ")));
            }
            json!({
                "name": t.name,
                "description": doc.map(|d| d.doc),
                "row_count": t.rows,
                "columns": columns,
                "primary_key": t.primary_key,
                "foreign_keys": t.foreign_keys.iter().map(|f| json!({"columns": f.columns, "table": f.table, "references": f.references})).collect::<Vec<_>>(),
                "indexes": t.indexes.iter().map(|i| json!({"name": i.name, "columns": i.columns, "unique": i.unique})).collect::<Vec<_>>(),
            })
        })
        .collect();
    // The full-text index's example only where the edge built the index.
    let mut examples = layout.examples.to_vec();
    if let Some(ft) = crate::staging::layouts::full_text_index(layout) {
        if tables.iter().any(|t| t.name == ft.table) {
            examples.push(ft.example);
        }
    }
    text.push_str("\nExample queries:\n");
    for e in &examples {
        text.push_str(&format!("- {}: {}\n", e.title, e.sql));
    }
    let mut structured = render::dataset(&info);
    json::set(&mut structured, "operation", json!("schema"));
    json::set(&mut structured, "layout_description", json!(layout.doc));
    json::set(&mut structured, "tables", json!(tables_json));
    json::set(
        &mut structured,
        "example_queries",
        render::examples(&examples),
    );
    let mut warnings: Vec<String> = waited.into_iter().collect();
    warnings.extend(status_warnings(&info));
    for w in &warnings {
        text.push_str(&format!("\nNote: {w}"));
    }
    json::set(&mut structured, "warnings", json!(warnings));
    Ok(annotated(structured, text).with_content(dataset_link(&info, layout)))
}

/// The caller's datasets; expired ones are dropped first.
pub async fn list_datasets(ctx: &ToolContext<'_>) -> Result<ToolOutput> {
    let staging: &Staging = staging(ctx)?;
    let owner = owner_of(ctx.request);
    staging.store.expire(ctx.platform.now_unix_ms()).await?;
    // The handle pool is everyone's: listing it would hand out other callers' ids.
    let list = if owner.can_list() {
        staging.store.list(&owner.key).await?
    } else {
        Vec::new()
    };
    let bytes: u64 = list.iter().map(|d| d.bytes).sum();
    let mut text = if !owner.can_list() {
        "No datasets can be listed: this stateless request has no session and no X-NCBI-API-Key, \
so its datasets are reached by the data_access_id fetch_and_stage returned. \
Send X-NCBI-API-Key (or open a session with initialize) to stage datasets you can list."
            .to_string()
    } else if list.is_empty() {
        "No datasets. Stage one with entrez_data operation fetch_and_stage.".to_string()
    } else {
        format!(
            "{} dataset(s), {} bytes in all:",
            list.len(),
            render::thousands(bytes)
        )
    };
    for d in &list {
        text.push_str(&format!(
            "\n- {} [{}] {} {} — {} records, {} rows, {} bytes, expires {}{}",
            d.id,
            render::status(d),
            d.database,
            d.source,
            render::thousands(d.records),
            render::thousands(d.rows),
            render::thousands(d.bytes),
            crate::staging::iso8601(d.expires_ms),
            d.status
                .reason()
                .map(|r| format!(" — {r}"))
                .unwrap_or_default()
        ));
    }
    let structured = json!({
        "operation": "list_datasets",
        "owner_scope": owner.scope.as_str(),
        "datasets": list.iter().map(render::dataset).collect::<Vec<_>>(),
        "total_bytes": bytes,
        "limits": staging.limits.to_value(&ctx.allowance()),
        "warnings": [],
    });
    Ok(annotated(structured, text))
}

/// Deletes one of the caller's datasets.
pub async fn drop_dataset(ctx: &ToolContext<'_>, dataset: &DatasetRef) -> Result<ToolOutput> {
    let info = owned_dataset(ctx, &dataset.data_access_id).await?;
    let staging = staging(ctx)?;
    let dropped = staging.store.remove(&info.id).await?;
    staging.ledger.release(&info.id).await;
    let structured = json!({
        "operation": "drop_dataset",
        "data_access_id": info.id,
        "dropped": dropped,
        "warnings": [],
    });
    Ok(annotated(
        structured,
        format!(
            "Dropped dataset {} ({}, {} records).",
            info.id,
            info.source,
            render::thousands(info.records)
        ),
    ))
}
