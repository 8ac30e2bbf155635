//! `entrez_external pug_rest`'s semantic rules, and the PubChem options and property names
//! every PubChem operation may carry.
//!
//! Reading the request ([`crate::tools::entrez_external::pubchem::read`]) already checks it against PubChem's
//! documented grammar; each problem it finds becomes an error with a stable code here.
//! What reading cannot say is added: identifiers of the wrong shape for a structure or key
//! namespace ([`crate::tools::entrez_external::pubchem::ids`]), options PubChem would ignore for this request, a TXT
//! table of several properties, and the output this server chose when none was named.

use crate::tools::entrez_external::pubchem::args::PubChemArgs;
use crate::tools::entrez_external::pubchem::grammar;
use crate::tools::entrez_external::pubchem::ids as pubchem_ids;
use crate::tools::entrez_external::pubchem::options;
use crate::tools::entrez_external::pubchem::options::Scope;
use crate::tools::entrez_external::pubchem::parts::ProblemKind;
use crate::tools::entrez_external::pubchem::read as pug;
use crate::tools::entrez_external::pubchem::request::PugRequest;
use crate::validation::codes;
use crate::validation::path;
use crate::validation::Report;

/// The code of each kind of reading problem.
pub fn code(kind: &ProblemKind) -> &'static str {
    match kind {
        ProblemKind::Domain => codes::INVALID_DOMAIN,
        ProblemKind::Namespace => codes::INVALID_NAMESPACE,
        ProblemKind::Identifier => codes::INVALID_ID,
        ProblemKind::Operation => codes::INVALID_PUG_OPERATION,
        ProblemKind::Output => codes::UNSUPPORTED_OUTPUT,
        ProblemKind::UnknownOption => codes::UNKNOWN_OPTION,
        ProblemKind::OptionValue => codes::INVALID_OPTION_VALUE,
        ProblemKind::Path => codes::INVALID_PATH,
        ProblemKind::Conflict => codes::ARGUMENT_CONFLICT,
    }
}

/// The semantic check of a `pug_rest` call.
pub fn check(args: &PubChemArgs, report: &mut Report) {
    let (request, chosen) = match pug::read(&args.pug_rest()) {
        Ok(read) => read,
        Err(problems) => {
            for p in problems {
                report.error(code(&p.kind), &p.path, p.message);
            }
            report.suggest("PUG REST requests are <domain>/<namespace>/<identifiers>/<operation>/<output>; entrez_tool_info shows examples from PubChem's documentation.");
            return;
        }
    };
    if chosen {
        report.warn(
            codes::FORMAT_CHOSEN,
            path("output"),
            "No output given: this server asks PubChem for JSON; set output (XML, CSV, TXT, SDF, PNG, ASNT, ASNB, JSONP) for another.",
        );
    }
    identifiers(&request, args, report);
    for (name, _) in &request.options {
        applies(&request, name, report);
    }
    if request.output == "TXT"
        && request.operation.name == "property"
        && request.operation_list.len() > 1
    {
        report.error(
            codes::UNSUPPORTED_OUTPUT,
            path("output"),
            format!("TXT holds one property; {} were asked for (S, Output: TXT only where every value has one simple type).", request.operation_list.len()),
        );
        report.suggest("Ask for CSV or JSON for several properties, or one property as TXT.");
    }
    if request.output == "PNG" && request.identifiers.len() > 1 {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("identifier"),
            "PubChem draws the first record only in a PNG; the other identifiers are ignored.",
        );
    }
}

/// Structure and key identifiers against their namespace's own rule.
fn identifiers(request: &PugRequest, args: &PubChemArgs, report: &mut Report) {
    if args.path.is_some() || request.identifiers.len() != 1 {
        return;
    }
    let input = match (request.namespace.map(|n| n.name), request.second) {
        (Some(_), Some(second)) if request.domain == "compound" => second,
        (Some(name), None) => name,
        _ => return,
    };
    if matches!(
        input,
        "smiles" | "inchi" | "smarts" | "inchikey" | "fastformula" | "formula"
    ) {
        let namespace = if input == "fastformula" {
            "formula"
        } else {
            input
        };
        pubchem_ids::single(
            "pug_rest",
            namespace,
            &path("identifier"),
            &request.identifiers[0],
            report,
        );
    }
}

/// Warns when PubChem would ignore option `name` for this request.
pub(crate) fn applies(request: &PugRequest, name: &str, report: &mut Report) {
    let Some(spec) = options::option(name) else {
        return;
    };
    let ns = request.namespace_name().unwrap_or_default();
    let search = |kinds: &[&str]| kinds.iter().any(|k| ns.contains(k));
    let op = request.operation.name;
    let ok = match spec.scope {
        Scope::Any => true,
        Scope::Record => op.is_empty() || op == "record" || request.output == "PNG",
        Scope::Picture => request.output == "PNG",
        Scope::AssayRows => {
            request.domain == "assay" && matches!(op, "" | "record" | "concise" | "doseresponse")
        }
        Scope::Lists => matches!(op, "sids" | "cids" | "aids"),
        Scope::Name => ns == "name",
        Scope::Substructure => search(&["substructure", "superstructure"]),
        Scope::Similarity => search(&["similarity"]),
        Scope::Identity => search(&["identity"]),
        Scope::Formula => search(&["formula"]),
        Scope::Search => search(&["structure", "similarity", "identity", "formula"]),
        Scope::Dates => op == "dates",
        Scope::Paging => {
            ns == "listkey"
                || request.option("sid") == Some("listkey")
                || request.option("list_return").is_some()
        }
        Scope::Jsonp => request.output == "JSONP",
        Scope::Standardize => request.domain == "standardize",
    };
    if !ok {
        report.warn(
            codes::IGNORED_PARAMETER,
            format!("$.options.{}", spec.name),
            format!("PubChem documents {} for other requests than this one; it is sent, and PubChem may ignore it.", spec.name),
        );
    }
}

/// The `options` of a compound, substance, bioassay or structure_search call: each a
/// documented PUG REST option with a value of its type.
pub fn check_options(args: &PubChemArgs, report: &mut Report) {
    for (name, value) in &args.options {
        let at = format!("$.options.{name}");
        match options::option(name) {
            None => {
                let best = crate::suggest::closest(name, options::OPTIONS.iter().map(|o| o.name));
                report.error(
                    codes::UNKNOWN_OPTION,
                    &at,
                    format!(
                        "\"{name}\" is not a PUG REST option{}.",
                        best.map(|b| format!(" (did you mean \"{b}\"?)"))
                            .unwrap_or_default()
                    ),
                );
            }
            Some(spec) => {
                if let Err(m) = options::option_value(spec.kind, value) {
                    report.error(
                        codes::INVALID_OPTION_VALUE,
                        &at,
                        format!("{}: {m}", spec.name),
                    );
                }
            }
        }
    }
}

/// The `properties` of a compound call: PubChem's property names.
pub fn check_properties(args: &PubChemArgs, report: &mut Report) {
    // Each item may itself list names (PUG REST's own comma form), as the call reads them.
    let names = args
        .properties
        .iter()
        .enumerate()
        .flat_map(|(i, item)| item.split(',').map(move |p| (i, p.trim())));
    for (i, name) in names {
        if grammar::canonical_list_item(grammar::PROPERTIES, name).is_none() {
            let best = crate::suggest::closest(name, grammar::PROPERTIES.iter().copied());
            report.error(
                codes::INVALID_PUG_OPERATION,
                crate::validation::item_path("properties", i),
                format!(
                    "\"{name}\" is not a PubChem property{}.",
                    best.map(|b| format!(" (did you mean \"{b}\"?)"))
                        .unwrap_or_default()
                ),
            );
        }
    }
}
