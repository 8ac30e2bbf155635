//! `validate`: a dry run of any tool call, with no side effects, at three levels. `syntax`
//! runs the schema check that guards `tools/call`. `semantic` (the default) adds
//! [`crate::validation`] and each tool's rules: NCBI database names, EFetch formats, id
//! families, search-term syntax, dates and NCBI's size limits; for `entrez_data`, that the
//! dataset exists for this caller and that the SQL compiles against its real tables under
//! the read-only policy. `tools/call` runs the very same semantic check, so a call `validate`
//! rejects is never sent upstream; neither level contacts NCBI. `runtime`, opt-in, adds one
//! bounded upstream lookup ([`runtime`]: do the ids exist?); [`capability`], announced at
//! `initialize`, says what each level does.

pub mod args;
pub mod runtime;
pub mod wire;

use crate::error::Result;
use crate::framework::intake;
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolCall, ToolSpec};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::platform::BoxFuture;
use crate::suggest::closest;
use crate::tools::entrez_data;
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::validate::args::ValidateArgs;
use crate::validation::Context;
use crate::validation::Finding;
use serde_json::{Map, Value};
use wire::Verdict;

/// Most calls one batch may carry.
pub const MAX_BATCH: usize = 20;
/// Version of the validation protocol implemented.
pub const PROTOCOL_VERSION: &str = "1.0";
/// The levels this server implements, shallow to deep; the schema's enum matches.
pub const LEVELS: &[&str] = &["syntax", "semantic", "runtime"];
/// The level used when the caller names none.
pub const DEFAULT_LEVEL: &str = "semantic";

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "validate",
    title: "Validate a tool call (dry run)",
    description: "Dry-runs a call to any tool here with the checks tools/call applies. Semantic level by default (never contacts NCBI). Answers valid, errors, warnings, suggestions, normalized_arguments, details. One call {tool, arguments} or a batch {calls}.",
    input_schema: include_str!("../../../../schemas/validate.input.json"),
    output_schema: include_str!("../../../../schemas/validate.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        // The opt-in runtime level asks NCBI whether ids exist.
        open_world: true,
    },
    typical_output: "0.5-2 KB per call checked",
    text_form: TextForm::ValidationJson,
    read: |args| Box::new(ValidateArgs::read(args)),
};

/// How long a syntax or semantic answer stays true, in seconds, unless a dataset changes.
pub const CACHE_TTL_SECS: u64 = 3_600;

/// The `experimental.toolValidation` capability, with every field the
/// validation-capability proposal defines, then this server's own.
pub fn capability() -> Value {
    json!({
        "supported": true,
        "method": SPEC.name,
        "version": PROTOCOL_VERSION,
        // No separate security level: the read-only SQL policy is part of semantic.
        "levels": { "syntax": true, "semantic": true, "runtime": true, "security": false },
        // The runtime level awaits NCBI; no level streams partial answers.
        "async": true,
        "streaming": false,
        // entrez_data checks read the caller's own datasets.
        "contextAware": true,
        "cacheable": true,
        "batchValidation": true,
        "maxBatchSize": MAX_BATCH,
        "caching": {
            "enabled": true,
            "ttl": CACHE_TTL_SECS,
            "invalidateOn": ["resource_change", "tool_update"],
        },
        "defaultLevel": DEFAULT_LEVEL,
        "runtime": runtime::describe(),
        "sideEffects": false,
        "resultFormat": {
            "firstContent": "serialized JSON of the result",
            "errors": "strings: [code] $.path: message",
            "details": "per-problem objects: code, path, message, severity",
            "perResultCacheable": "cacheable: false for the runtime level and for entrez_data dataset checks",
        },
    })
}

impl ToolCall for ValidateArgs {
    // Its runtime checks must see NCBI as it is: they neither read nor fill the cache.
    fn cache_mode(&self) -> crate::net::cache::Mode {
        crate::net::cache::Mode::Bypass
    }

    fn run<'a>(self: Box<Self>, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>> {
        Box::pin(run(ctx, *self))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

async fn run(ctx: &ToolContext<'_>, args: ValidateArgs) -> Result<ToolOutput> {
    let level = args
        .level
        .as_deref()
        .and_then(|l| LEVELS.iter().copied().find(|known| *known == l))
        .unwrap_or(DEFAULT_LEVEL);
    let names: Vec<&str> = ctx.registry.tools().iter().map(|t| t.spec.name).collect();
    if let (false, [(tool, arguments)]) = (args.batch, args.calls.as_slice()) {
        let verdict = check_one(ctx, &names, tool, arguments, level).await;
        return Ok(ToolOutput::new(verdict.to_value(), verdict.text()));
    }
    let mut verdicts = Vec::with_capacity(args.calls.len());
    for (tool, arguments) in &args.calls {
        verdicts.push(check_one(ctx, &names, tool, arguments, level).await);
    }
    Ok(ToolOutput::new(
        wire::batch_value(level, &verdicts),
        wire::batch_text(level, &verdicts),
    ))
}

async fn check_one(
    ctx: &ToolContext<'_>,
    names: &[&str],
    name: &str,
    arguments: &Value,
    level: &'static str,
) -> Verdict {
    let arguments = if arguments.is_null() {
        json!({})
    } else {
        arguments.clone()
    };
    let registry = ctx.registry;
    let Some(target) = registry.get(name) else {
        let mut suggestions = Vec::new();
        let mut message = format!("Unknown tool \"{name}\".");
        if let Some(best) = closest(name, names.iter().copied()) {
            message = format!("Unknown tool \"{name}\". Did you mean \"{best}\"?");
            suggestions.push(format!("Use \"{best}\"."));
        }
        suggestions.push(format!("Available tools: {}.", names.join(", ")));
        return Verdict {
            tool: name.to_string(),
            level,
            errors: vec![json!({ "code": "unknown_tool", "path": "$.tool", "message": message })],
            warnings: Vec::new(),
            suggestions,
            normalized: arguments,
            cacheable: true,
        };
    };
    // The same reading tools/call gives the call: its repairs are warnings here too.
    let intake = intake::read(name, &target.input_schema, arguments);
    let arguments = intake.arguments;
    let found = registry.findings(target, &arguments);
    let mut errors: Vec<Value> = intake.errors.iter().map(Finding::to_value).collect();
    errors.extend(intake::unexplained(&intake.errors, found.errors));
    let mut warnings: Vec<Value> = intake.notes.iter().map(Finding::to_value).collect();
    let mut suggestions: Vec<String> = Vec::new();
    let mut normalized = None;
    // Runtime answers depend on NCBI today, dataset answers on the caller's datasets.
    let mut cacheable = level != "runtime";
    if level != "syntax" {
        let rules = Context {
            tool_names: names,
            allowance: ctx.allowance(),
        };
        let typed = (target.spec.read)(&arguments);
        let mut report = typed.report(&rules);
        let sound = errors.is_empty() && report.errors.is_empty();
        let data = typed.as_any().downcast_ref::<DataArgs>().cloned();
        let query = typed.as_any().downcast_ref::<QueryArgs>().cloned();
        // Datasets and SQL are checked against the store only once the call is otherwise sound.
        if let (true, Some(args)) = (sound, data) {
            cacheable = false;
            entrez_data::preflight::check(ctx, &args, &mut report).await;
        }
        // The opt-in level asks upstream, and only about calls that are otherwise sound.
        if let (true, "runtime", Some(args)) = (sound, level, query) {
            runtime::check(ctx, &args, &mut report).await;
        }
        errors.extend(report.errors.iter().map(Finding::to_value));
        warnings.extend(report.warnings.iter().map(Finding::to_value));
        // The specific fixes first; the schema's generic ones (example call, tool info) last.
        suggestions = report.suggestions;
        normalized = report.normalized;
    }
    for s in found.suggestions {
        if !suggestions.contains(&s) {
            suggestions.push(s);
        }
    }
    let normalized = normalized.unwrap_or_else(|| with_defaults(&target.input_schema, arguments));
    Verdict {
        tool: name.to_string(),
        level,
        errors,
        warnings,
        suggestions,
        normalized,
        cacheable,
    }
}

/// Fills in top-level `default`s the schema declares, as the tool would assume them.
fn with_defaults(schema: &Value, arguments: Value) -> Value {
    let Value::Object(mut args) = arguments else {
        return arguments;
    };
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    for (name, prop) in props {
        if let Some(default) = prop.get("default") {
            args.entry(name).or_insert_with(|| default.clone());
        }
    }
    Value::Object(args)
}
