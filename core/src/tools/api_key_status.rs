//! `system_api_key_status`: is an NCBI API key in effect, and what limit follows from it.

use crate::caller::KeySource;
use crate::error::Result;
use crate::framework::content::{Annotations, Role};
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolCall, ToolSpec};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::platform::BoxFuture;
use serde_json::Value;

pub use crate::caller::CALLER_KEY_HEADER;
use crate::net::pacing::{ANONYMOUS_RATE_LIMIT, KEYED_RATE_LIMIT};

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "system_api_key_status",
    title: "NCBI API key status",
    description: "Whether an NCBI API key is in effect, and the rate limit that follows. Also who this server takes you for and what you may still stage (3 requests/s without a key, 10 with); never reveals a key or token.",
    input_schema: include_str!("../../../schemas/system_api_key_status.input.json"),
    output_schema: include_str!("../../../schemas/system_api_key_status.output.json"),
    annotations: ToolAnnotations::LOCAL_READ_ONLY,
    typical_output: "0.5 KB",
    text_form: TextForm::Readable,
    read: |_| Box::new(NoArguments),
};

/// The tool takes no parameters.
struct NoArguments;

impl ToolCall for NoArguments {
    fn run<'a>(self: Box<Self>, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>> {
        Box::pin(run(ctx))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

async fn run(ctx: &ToolContext<'_>) -> Result<ToolOutput> {
    let (key, source) = ctx.effective_api_key();
    let configured = key.is_some();
    let limit = if configured {
        KEYED_RATE_LIMIT
    } else {
        ANONYMOUS_RATE_LIMIT
    };
    let mut notes: Vec<String> = Vec::new();
    match source {
        KeySource::CallerHeader => notes.push(format!(
            "Your own key from the {CALLER_KEY_HEADER} header is used for your requests."
        )),
        KeySource::ServerSecret => notes.push(format!(
            "The server's key is shared by its users; send your own key in the {CALLER_KEY_HEADER} header to get your own limit, as NCBI asks of third-party tools."
        )),
        KeySource::None => notes.push(format!(
            "Without a key NCBI allows {ANONYMOUS_RATE_LIMIT} requests/s. Get a free key in your NCBI account settings and set it as NCBI_API_KEY (server) or send it in the {CALLER_KEY_HEADER} header (per caller) for {KEYED_RATE_LIMIT} requests/s."
        )),
    }
    if ctx.config.email.is_none() {
        notes.push("NCBI_EMAIL is not set; NCBI asks for a contact address so that it can reach you before blocking a tool that misbehaves.".to_string());
    }
    let principal = ctx.request.principal.as_ref();
    let caller = json!({
        "authenticated": principal.is_some(),
        "identity": principal.map(|p| p.name.clone()),
        "auth_mode": ctx.config.auth.mode.as_str(),
        "scopes": principal.map(|p| p.scopes.clone()).unwrap_or_default(),
        "server_key_for_you": ctx.may_use_server_key(),
    });
    if ctx.config.api_key.is_some() && !ctx.may_use_server_key() && source == KeySource::None {
        notes.push("This server has its own NCBI key, but it serves authenticated callers only; send a token, or your own key in the X-NCBI-API-Key header.".to_string());
    }
    let allowances = match ctx.staging {
        Some(s) => {
            let account = crate::staging::account_of(ctx.request, &ctx.config.auth);
            s.ledger
                .allowance(&account, ctx.platform.now_unix_ms())
                .await
                .ok()
                .map(|a| serde_json::to_value(a).unwrap_or(Value::Null))
                .unwrap_or(Value::Null)
        }
        None => Value::Null,
    };
    // Read once: natively the usage is a query of the cache file.
    let cache = ctx
        .network
        .and_then(|n| n.cache.as_ref())
        .map(|c| c.stats());
    let cache_line = match &cache {
        Some(s) => format!(
            "Answer cache (since this process or Worker isolate started): {} entries, {} of {} bytes, {} hits and {} misses.",
            s["entries"], s["bytes"], s["max_bytes"], s["hits"], s["misses"]
        ),
        None => "Answer cache: off (ENTREZ_CACHE=off); every request goes upstream.".to_string(),
    };
    let structured = json!({
        "cache": cache.unwrap_or_else(|| json!({ "enabled": false })),
        "caller": caller,
        "allowances": allowances,
        "configured": configured,
        "source": source.as_str(),
        "rate_limit_per_second": limit,
        "tool": ctx.config.tool,
        "email": ctx.config.email.as_ref().map(|e| Value::String(e.clone())).unwrap_or(Value::Null),
        "caller_key_header": CALLER_KEY_HEADER,
        "notes": notes,
    });
    let source_text = match source {
        KeySource::CallerHeader => "from your X-NCBI-API-Key header",
        KeySource::ServerSecret => "from the server's NCBI_API_KEY",
        KeySource::None => "none",
    };
    let text = format!(
        "NCBI API key: {} ({source_text}).\nE-utilities rate limit: {limit} requests per second.\nCaller: {}.\nIdentifiers sent to NCBI: tool={}, email={}.\n{cache_line}\n{}",
        if configured { "configured" } else { "not configured" },
        match principal {
            Some(p) => format!("{} (authenticated by {})", p.name, p.via.as_str()),
            None => "anonymous".to_string(),
        },
        ctx.config.tool,
        ctx.config.email.as_deref().unwrap_or("(not set)"),
        notes.join("\n")
    );
    Ok(ToolOutput::new(structured, text)
        .with_text_annotations(Annotations::for_audience(&[Role::User, Role::Assistant])))
}
