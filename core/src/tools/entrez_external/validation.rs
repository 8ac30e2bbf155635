//! `entrez_external`'s semantic rules: service and operation, PubChem identifiers, PMC ids.
//!
//! The inputSchema already ties each operation to its service and parameters;
//! what it cannot say is that "aspirin" is no CID, that a 27-letter InChIKey
//! sent as a name finds nothing, or that `CC(C` is no structure at all. PubChem
//! answers those with a 400 or 404 that reads like "no such compound", after
//! spending a request of a 5-per-second budget. [`check`] reads the call and
//! hands identifiers on. Defaults and limits come from the request builder,
//! [`crate::tools::entrez_external::pubchem::plan`], so a call that passes here
//! is one it will build.

use crate::tools::entrez_external::args::ExternalArgs;
use crate::tools::entrez_external::call::Data;
use crate::tools::entrez_external::call::ExternalCall;
use crate::tools::entrez_external::pmc::ids as pmc_ids;
use crate::tools::entrez_external::pubchem::ids as pubchem_ids;
use crate::tools::entrez_external::pubchem::ids::NAMESPACES;
use crate::tools::entrez_external::pubchem::path_check as pug_rest;
use crate::tools::entrez_external::pubchem::plan;
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

/// PubChem's similarity Threshold is a Tanimoto percentage.
pub const MAX_THRESHOLD: u64 = 100;

/// Parameters only structure_search reads; the lookups ignore them.
const SEARCH_ONLY: &[&str] = &[
    "search_type",
    "mode",
    "threshold",
    "max_records",
    "identity_type",
];

/// The semantic check of one `entrez_external` call.
///
/// It reads the call (service, operation, parameters the operation ignores, the similarity
/// threshold, defaults) and hands identifiers on: PubChem's to
/// [`crate::tools::entrez_external::pubchem::ids`], which checks each against its namespace
/// and names the namespace that fits, PMC's to [`crate::tools::entrez_external::pmc::ids`].
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
        pmc_ids::check(op, args, report);
    } else if op == "pug_rest" {
        pug_rest::check(args, report);
    } else {
        pug_rest::check_options(args, report);
        pug_rest::check_properties(args, report);
        pubchem(op, args, report);
    }
    // The call as it runs: the same typed value the tool reads.
    let call = ExternalCall::of(args);
    if let Some(call) = &call {
        pubchem_options(call, report);
    }
    let normalized = call.map(|c| c.to_value());
    if let Some(n) = &normalized {
        dropped(op, args, n, report);
    }
    report.normalized = normalized;
}

/// Each option of a friendly PubChem operation checked against the request it is sent on
/// (a picture's `record_type` and `image_size` go on the PNG, the rest on the table), so an
/// option PubChem would ignore there is named; and `image_size` given twice must agree.
fn pubchem_options(call: &ExternalCall, report: &mut Report) {
    match call {
        ExternalCall::Compound(l) | ExternalCall::Substance(l) | ExternalCall::Bioassay(l) => {
            let Ok(table) = plan::lookup_request(l, false) else {
                return;
            };
            let picture = (l.data == Data::Picture).then(|| plan::picture_request(0, l));
            for (name, value) in &l.options {
                let request = match &picture {
                    Some(png) if plan::shapes_picture(name) => png,
                    _ => &table,
                };
                pug_rest::applies(request, name, report);
                if name == "image_size" {
                    if let Some(size) = l.image_size.as_ref().filter(|s| *s != value) {
                        report.error(
                            codes::ARGUMENT_CONFLICT,
                            "$.options.image_size",
                            format!("image_size is {size} and options.image_size is {value}; give it once."),
                        );
                    }
                }
            }
        }
        ExternalCall::StructureSearch(search) => {
            if let Ok((request, _)) = plan::search_request(search) {
                for (name, _) in &search.options {
                    pug_rest::applies(&request, name, report);
                }
            }
        }
        _ => {}
    }
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
    let by_path = op == "pug_rest" && args.path.is_some();
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
        if nothing(args, key) {
            continue;
        }
        let message = match (normalized.get(key.as_str()), pug_field(args, key)) {
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

/// The text of a pug_rest field the caller gave (a one-item identifier list as its item), or
/// `None` for any other argument.
fn pug_field(args: &ExternalArgs, key: &str) -> Option<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    Some(match key {
        "domain" => text(&args.domain),
        "namespace" => text(&args.namespace),
        "source" => text(&args.source),
        "organism" => text(&args.organism),
        "data" => text(&args.data),
        "output" => text(&args.output),
        "identifier" => match args.identifier.as_slice() {
            [(_, one)] => one.clone(),
            list => format!(
                "[{}]",
                list.iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        },
        _ => return None,
    })
}

/// Whether a given argument says nothing (an empty list or object).
fn nothing(args: &ExternalArgs, key: &str) -> bool {
    match key {
        "options" => args.options.is_empty(),
        "ids" => args.ids.is_empty(),
        "properties" => args.properties.is_empty(),
        "identifier" => args.identifier.is_empty(),
        _ => false,
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

fn pubchem(op: &str, args: &ExternalArgs, report: &mut Report) {
    if op != "structure_search" {
        for key in SEARCH_ONLY.iter().filter(|k| args.has(k)) {
            report.warn(
                codes::IGNORED_PARAMETER,
                path(key),
                format!("{key} applies to operation structure_search only; {op} ignores it."),
            );
        }
    }
    let allowed = NAMESPACES
        .iter()
        .find(|(o, _)| *o == op)
        .map_or(&[][..], |(_, n)| n);
    let namespace = args
        .namespace
        .as_deref()
        .unwrap_or(allowed.first().copied().unwrap_or("cid"));
    if args.source.is_some() && namespace != "sourceid" {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("source"),
            format!("source names the depositor for namespace sourceid only; namespace {namespace} ignores it."),
        );
    }
    threshold(args, report);
    if !allowed.contains(&namespace) {
        // The schema names the namespaces this operation takes.
        return;
    }
    if matches!(namespace, "cid" | "sid" | "aid") {
        pubchem_ids::numbers(op, namespace, &args.identifier, report);
    } else if let [(at, value)] = args.identifier.as_slice() {
        pubchem_ids::single(op, namespace, at, value, report);
    }
}

fn threshold(args: &ExternalArgs, report: &mut Report) {
    let Some(t) = args.threshold else {
        return;
    };
    if t.fract() == 0.0 && (0.0..=MAX_THRESHOLD as f64).contains(&t) {
        return;
    }
    let fix = if t > 0.0 && t < 1.0 {
        format!(
            "threshold is a percentage: write {} for a Tanimoto similarity of {t}.",
            (t * 100.0).round()
        )
    } else {
        "Set threshold to a whole number from 0 to 100 (PubChem's default is 90).".into()
    };
    report.error(
        codes::THRESHOLD_OUT_OF_RANGE,
        path("threshold"),
        format!("threshold {t} is outside what PubChem accepts: a whole Tanimoto percentage from 0 to {MAX_THRESHOLD}."),
    );
    report.suggest(fix);
}
