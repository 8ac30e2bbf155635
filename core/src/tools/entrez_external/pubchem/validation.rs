//! PubChem's semantic rules: identifiers against their namespace, options against the request.
//!
//! The inputSchema ties each operation to its parameters; what it cannot say is that
//! "aspirin" is no CID, that a 27-letter InChIKey sent as a name finds nothing, or that `CC(C`
//! is no structure at all. PubChem answers those with a 400 or 404 that reads like "no such
//! compound", after spending a request of a 5-per-second budget. Defaults and limits come from
//! the request builder, [`plan`], so a call that passes here is one it will build.

use crate::tools::entrez_external::pubchem::args::PubChemArgs;
use crate::tools::entrez_external::pubchem::call::{Data, PubChemCall};
use crate::tools::entrez_external::pubchem::ids as pubchem_ids;
use crate::tools::entrez_external::pubchem::ids::NAMESPACES;
use crate::tools::entrez_external::pubchem::path_check as pug_rest;
use crate::tools::entrez_external::pubchem::plan;
use crate::validation::codes;
use crate::validation::path;
use crate::validation::Report;

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

/// The semantic check of a PubChem operation's arguments: a `pug_rest` request against PUG
/// REST's grammar, a lookup's options, properties and identifiers
/// ([`crate::tools::entrez_external::pubchem::ids`] checks each against its namespace and
/// names the namespace that fits).
pub fn check(op: &str, args: &PubChemArgs, given: &[String], report: &mut Report) {
    if op == "pug_rest" {
        pug_rest::check(args, report);
    } else {
        pug_rest::check_options(args, report);
        pug_rest::check_properties(args, report);
        lookup(op, args, given, report);
    }
}

/// Each option of a friendly PubChem operation checked against the request it is sent on
/// (a picture's `record_type` and `image_size` go on the PNG, the rest on the table), so an
/// option PubChem would ignore there is named; and `image_size` given twice must agree.
pub fn check_call(call: &PubChemCall, report: &mut Report) {
    match call {
        PubChemCall::Compound(l) | PubChemCall::Substance(l) | PubChemCall::Bioassay(l) => {
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
        PubChemCall::StructureSearch(search) => {
            if let Ok((request, _)) = plan::search_request(search) {
                for (name, _) in &search.options {
                    pug_rest::applies(&request, name, report);
                }
            }
        }
        PubChemCall::PugRest(_) => {}
    }
}

/// The text of a pug_rest field the caller gave (a one-item identifier list as its item), or
/// `None` for any other argument.
pub fn given_text(args: &PubChemArgs, key: &str) -> Option<String> {
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

fn lookup(op: &str, args: &PubChemArgs, given: &[String], report: &mut Report) {
    if op != "structure_search" {
        for key in SEARCH_ONLY.iter().filter(|k| given.iter().any(|g| g == *k)) {
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

fn threshold(args: &PubChemArgs, report: &mut Report) {
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
