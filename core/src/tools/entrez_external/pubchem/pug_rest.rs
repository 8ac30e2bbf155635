//! `pug_rest`: any request PubChem's PUG REST documents, sent exactly as read.
//!
//! The request was read once into a [`PugRequest`](crate::tools::entrez_external::pubchem::request::PugRequest) (see [`crate::tools::entrez_external::pubchem`]);
//! here it is sent through the PubChem bucket, an asynchronous answer (a
//! ListKey that PubChem is still working on) is collected within
//! [`crate::tools::entrez_external::pubchem::listkey::POLL_DEADLINE_MS`], a `Fault` in any output format
//! becomes an error with PubChem's own words, and the reply comes back in the
//! format asked for: JSON as data, PNG as an image block, every text format
//! (XML, CSV, SDF, TXT, ASNT, JSONP, ASNB's base64) as text, cut with a clear
//! note where it would pass the caller's `max_characters`.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::budget;
use crate::framework::content::Content;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::net::{HttpCall, HttpReply, Method};
use crate::tools::entrez_external::pubchem::args::PubChemArgs;
use crate::tools::entrez_external::pubchem::call::PugRestCall;
use crate::tools::entrez_external::pubchem::listkey;
use crate::tools::entrez_external::pubchem::plan::PUBCHEM_TIMEOUT_MS;
use crate::tools::entrez_external::pubchem::pug;
use crate::tools::entrez_external::pubchem::read::read;
use crate::tools::entrez_external::pubchem::refusal::{fault_error, unreadable, Ask};
use crate::tools::entrez_external::pubchem::render;
use crate::tools::entrez_external::shared::client::ExternalClient;
use crate::tools::entrez_external::shared::output::output;
use crate::tools::entrez_external::shared::service::Service;
use crate::tools::entrez_external::shared::service::MAX_REPLY_BYTES;
use crate::validation::codes;
use serde_json::Value;

/// Largest JSON reply kept as data; a larger one comes back as (cut) text.
pub const MAX_JSON_BYTES: usize = 512 * 1024;

/// The error for a `pug_rest` request the grammar refuses, naming which part, as validate
/// would; `None` for any other operation, or a request that reads.
pub fn refused(op: &str, args: &PubChemArgs) -> Option<Error> {
    if op != "pug_rest" {
        return None;
    }
    let problems = read(&args.pug_rest()).err()?;
    let first = problems
        .first()
        .map(|p| p.message.clone())
        .unwrap_or_default();
    Some(Error::new(ErrorKind::InvalidArguments, first)
        .with_details(crate::json!({"problems": problems.iter().map(|p| crate::json!({"path": p.path, "message": p.message})).collect::<Vec<_>>()}))
        .suggest("validate this call to see every problem; PUG REST requests are <domain>/<namespace>/<identifiers>/<operation>/<output>."))
}

/// Sends the request and returns PubChem's answer in the format asked for.
pub async fn run(ctx: &ToolContext<'_>, call: &PugRestCall, view: &View) -> Result<ToolOutput> {
    let request = &call.request;
    let client = ExternalClient::new(ctx, Service::PubChem)?;
    let http = request.to_call(
        &ctx.config.pubchem_base_url,
        PUBCHEM_TIMEOUT_MS,
        MAX_REPLY_BYTES,
    );
    let ask = Ask {
        what: request.domain,
        namespace: request.namespace_name().unwrap_or_default(),
        identifier: request.identifiers.join(","),
        data: None,
        search: request.is_asynchronous()
            || request
                .namespace_name()
                .is_some_and(|n| n.starts_with("fast")),
    };
    let (reply, listkey, polls) = collect(ctx, &client, &http, call, &ask).await?;
    let mut warnings: Vec<String> = Vec::new();
    let mut structured = json!({
        "service": "pubchem",
        "operation": "pug_rest",
        "request": request.to_value(),
        "method": match http.method { Method::Get => "GET", Method::Post => "POST" },
        "output": request.output,
        "content_type": reply.header("content-type").unwrap_or(""),
        "length": reply.body.len(),
        "truncated": false,
        "polls": polls,
    });
    if let Some(k) = &listkey {
        json::set(&mut structured, "listkey", json!(k));
    }
    let mut capped: Option<String> = None;
    let mut image: Option<Vec<u8>> = None;
    let text = match request.output.as_str() {
        "PNG" => {
            if !reply.body.starts_with(b"\x89PNG\r\n\x1a\n") {
                return Err(Error::new(
                    ErrorKind::Upstream,
                    "PubChem's reply to a PNG request is not a PNG image.",
                )
                .with_code("pubchem_unreadable"));
            }
            structured["image"] =
                json!({"mime_type": "image/png", "byte_length": reply.body.len()});
            image = Some(reply.body.clone());
            format!(
                "A {}-byte PNG of the first record of {}.",
                reply.body.len(),
                ask.identifier
            )
        }
        "JSON" if reply.body.len() <= MAX_JSON_BYTES => {
            let data: Value =
                serde_json::from_slice(&reply.body).map_err(|_| unreadable(&reply))?;
            let text = render::pug_json(&data);
            json::set(&mut structured, "data", data);
            text
        }
        _ => {
            let body = String::from_utf8_lossy(&reply.body);
            let length = body.chars().count();
            // The body appears in the text and in structuredContent: each copy within the budget.
            let limit = budget::room(view.max_characters) - 600;
            let shown: String = body.chars().take(limit).collect();
            if length > limit || (request.output == "JSON" && reply.body.len() > MAX_JSON_BYTES) {
                json::set(&mut structured, "truncated", json!(true));
                let message = format!(
                    "PubChem's {} reply has {length} characters; the first {} are shown. Ask for fewer identifiers, a property table or list instead of full records, or page a list with options listkey_start and listkey_count.",
                    request.output,
                    shown.chars().count()
                );
                warnings.push(message.clone());
                capped = Some(message);
            }
            json::set(&mut structured, "text", json!(shown));
            shown
        }
    };
    warnings.extend(client.warnings());
    json::set(&mut structured, "warnings", json!(warnings));
    if let Some(t) = client.notes().worst_throttling {
        json::set(&mut structured, "throttling", t.to_value());
    }
    let mut out = output(structured, text, None);
    if let Some(message) = capped {
        out = out.with_warning(codes::RESULTS_CAPPED, "$.output", message);
    }
    if let Some(bytes) = image {
        out = out.with_content(Content::image(&bytes, "image/png"));
    }
    Ok(out)
}

/// The final reply: sent, and for an asynchronous request polled until PubChem has the result.
async fn collect(
    ctx: &ToolContext<'_>,
    client: &ExternalClient<'_>,
    http: &HttpCall,
    call: &PugRestCall,
    ask: &Ask<'_>,
) -> Result<(HttpReply, Option<String>, u32)> {
    let reply = client.submit(http).await?;
    let poll = |key: &str| HttpCall {
        method: Method::Get,
        url: format!(
            "{}/{}",
            ctx.config.pubchem_base_url.trim_end_matches('/'),
            call.request.listkey_path(key)
        ),
        headers: Vec::new(),
        body: None,
        ..http.clone()
    };
    let later = |key: &str| {
        format!(
            "Collect it later with path {}.",
            call.request.listkey_path(key)
        )
    };
    let (reply, listkey, polls) = listkey::collect(ctx, client, reply, poll, later).await?;
    if reply.status != 200 {
        let fault = pug::fault_in(&reply.body);
        return Err(fault_error(reply.status, fault.as_ref(), &reply.body, ask));
    }
    Ok((reply, listkey, polls))
}
