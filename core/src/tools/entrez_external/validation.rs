//! `entrez_external`'s semantic rules: service and operation, then the slice's own rules.
//!
//! The inputSchema already ties each operation to its service and parameters; [`check`]
//! names an operation asked of the other service, hands the arguments to the slice that owns
//! the operation (PubChem's identifiers and options, PMC's ids), reads the call as it will
//! run, and names every argument that call does not act on.

use crate::tools::entrez_external::args::ExternalArgs;
use crate::tools::entrez_external::call::ExternalCall;
use crate::tools::entrez_external::pmc::ids as pmc_ids;
use crate::tools::entrez_external::pubchem::validation as pubchem;
use crate::validation::codes;
use crate::validation::path;
use crate::validation::Context;
use crate::validation::Report;
use serde_json::Value;

/// The operations of each service.
pub const SERVICES: &[(&str, &[&str])] = &[
    (
        "pubchem",
        &[
            "compound",
            "substance",
            "bioassay",
            "structure_search",
            "pug_rest",
        ],
    ),
    (
        "pmc",
        &[
            "id_convert",
            "oa_service",
            "citation_export",
            "bioc",
            "full_text",
        ],
    ),
];

/// The semantic check of one `entrez_external` call.
///
/// It reads the call (service, operation, parameters the operation ignores, defaults) and
/// hands the rest on: PubChem's arguments to [`pubchem::check`], PMC's to [`pmc_ids::check`].
pub fn check(_ctx: &Context<'_>, args: &ExternalArgs, report: &mut Report) {
    let op = args.op();
    let Some((owner, _)) = SERVICES.iter().find(|(_, ops)| ops.contains(&op)) else {
        // The schema names a missing or unknown operation.
        return;
    };
    match args.service.as_deref() {
        Some(s) if s != *owner && SERVICES.iter().any(|(name, _)| *name == s) => {
            report.error(
                codes::WRONG_SERVICE,
                path("service"),
                format!("operation {op} belongs to service {owner}, not {s}."),
            );
            let ops = SERVICES
                .iter()
                .find(|(name, _)| *name == s)
                .map(|(_, o)| o.join(", "));
            report.suggest(format!(
                "Set service to \"{owner}\", or pick a {s} operation ({}).",
                ops.unwrap_or_default()
            ));
        }
        None => report.suggest(format!(
            "Add \"service\": \"{owner}\": operation {op} belongs to it."
        )),
        _ => {}
    }
    if *owner == "pmc" {
        pmc_ids::check(op, &args.pmc, &args.given, report);
    } else {
        pubchem::check(op, &args.pubchem, &args.given, report);
    }
    // The call as it runs: the same typed value the tool reads.
    let call = ExternalCall::of(args);
    if let Some(ExternalCall::PubChem(call)) = &call {
        pubchem::check_call(call, report);
    }
    let normalized = call.map(|c| c.to_value());
    if let Some(n) = &normalized {
        dropped(op, args, n, report);
    }
    report.normalized = normalized;
}

/// Whether `op` acts on view parameter `key` (max_characters bounds every operation; `fields`
/// picks from every list of records; `detail` has levels for compounds and BioC documents).
pub fn takes_view(op: &str, key: &str) -> bool {
    match key {
        "max_characters" => true,
        "fields" => !matches!(op, "pug_rest" | "structure_search"),
        "detail" => matches!(op, "compound" | "bioc" | "full_text"),
        _ => false,
    }
}

/// An argument the call was given but does not act on is named in a warning (unless a rule
/// already named it): no argument is dropped without a word.
fn dropped(op: &str, args: &ExternalArgs, normalized: &Value, report: &mut Report) {
    let by_path = op == "pug_rest" && args.pubchem.path.is_some();
    for key in &args.given {
        // Every operation asks upstream, so every one acts on fresh.
        if matches!(key.as_str(), "service" | "operation" | "fresh")
            || (by_path && matches!(key.as_str(), "path" | "options"))
            || takes_view(op, key)
        {
            continue;
        }
        let at = path(key);
        let named = |f: &crate::validation::Finding| {
            f.path == at
                || f.path.starts_with(&format!("{at}."))
                || f.path.starts_with(&format!("{at}["))
        };
        if report.errors.iter().chain(&report.warnings).any(named) {
            continue;
        }
        if args.pubchem.says_nothing(key) || args.pmc.says_nothing(key) {
            continue;
        }
        let message = match (
            normalized.get(key.as_str()),
            pubchem::given_text(&args.pubchem, key),
        ) {
            (Some(_), _) if !by_path => continue,
            (Some(kept), Some(given)) => {
                if same_text(&given, kept) {
                    continue;
                }
                format!("path gives the whole request, so {key} is read from it ({kept}), not from this argument.")
            }
            (_, Some(_)) if by_path => {
                format!("path gives the whole request and has no {key}; this argument is ignored.")
            }
            _ => format!("{op} does not use {key} here; it is ignored."),
        };
        report.warn(codes::IGNORED_PARAMETER, at, message);
    }
}

/// Whether a given text and a kept value say the same thing (numbers and strings alike, any
/// case).
fn same_text(given: &str, kept: &Value) -> bool {
    let kept = match kept {
        Value::String(s) => s.trim().to_string(),
        Value::Array(items) if items.len() == 1 => {
            items[0].to_string().trim_matches('"').to_string()
        }
        other => other.to_string().trim_matches('"').to_string(),
    };
    given.trim().eq_ignore_ascii_case(&kept)
}
