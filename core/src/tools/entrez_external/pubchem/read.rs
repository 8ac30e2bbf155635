//! Reading a `pug_rest` call into a [`PugRequest`]: from its structured fields, or from a
//! `path` written as PubChem's own pages write URLs.
//!
//! Both readings meet in one value, so `compound/cid/2244/property/XLogP/JSON` and
//! `{"domain": "compound", "namespace": "cid", "identifier": 2244, "data":
//! "property/XLogP", "output": "JSON"}` are the same request. Names are matched without
//! regard to case and written back in PubChem's spelling (`maxrecords` → `MaxRecords`,
//! `json` → `JSON`); anything the grammar does not document is a [`Problem`] naming the
//! part, what was given and what the documentation offers.

use crate::tools::entrez_external::pubchem::grammar;

use crate::tools::entrez_external::pubchem::grammar::Ids;

use crate::tools::entrez_external::pubchem::grammar::Tail;
use crate::tools::entrez_external::pubchem::options;
use crate::tools::entrez_external::pubchem::options::one_of;
use crate::tools::entrez_external::pubchem::options::option_value;
use crate::tools::entrez_external::pubchem::parts::{problem, Parts, Problem, ProblemKind};
use crate::tools::entrez_external::pubchem::request::PugRequest;
use serde_json::Value;

/// A `pug_rest` call's fields as given (trimmed, blanks absent): what [`read`] reads.
#[derive(Debug, Clone, Default)]
pub struct Given<'a> {
    /// The whole request as a URL path, when given.
    pub path: Option<&'a str>,
    /// The domain.
    pub domain: Option<&'a str>,
    /// The namespace (`a/b` for two-part ones).
    pub namespace: Option<&'a str>,
    /// The identifiers, trimmed.
    pub identifiers: Vec<String>,
    /// The depositor, for sourceid.
    pub source: Option<&'a str>,
    /// The organism.
    pub organism: Option<&'a str>,
    /// The operation.
    pub data: Option<&'a str>,
    /// The output format.
    pub output: Option<&'a str>,
    /// The options, by the name given, with their values.
    pub options: &'a [(String, Value)],
}

/// Reads a `pug_rest` call. `Ok` carries the request and whether the server chose the output
/// format (none given: JSON).
pub fn read(given: &Given<'_>) -> Result<(PugRequest, bool), Vec<Problem>> {
    let parts = match given.path {
        Some(p) => {
            let mut parts = crate::tools::entrez_external::pubchem::path::from_path(p)?;
            merge_options(&mut parts, given_options(given))?;
            parts
        }
        None => from_fields(given),
    };
    build(parts)
}

/// The `options` argument as (name, value, JSONPath) triples.
fn given_options(given: &Given<'_>) -> Vec<(String, Value, String)> {
    given
        .options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone(), format!("$.options.{k}")))
        .collect()
}

/// Adds the `options` given beside a `path` to the path's own query options: an option both
/// set alike is sent once; one they set differently is a conflict, never a silent choice.
fn merge_options(
    parts: &mut Parts,
    given: Vec<(String, Value, String)>,
) -> Result<(), Vec<Problem>> {
    // An option's identity is its documented spelling; its value as PubChem reads it.
    let name_of =
        |n: &str| options::option(n).map_or_else(|| n.to_string(), |o| o.name.to_string());
    let value_of = |n: &str, v: &Value| {
        match options::option(n) {
            Some(spec) => option_value(spec.kind, v).ok(),
            None => None,
        }
        .unwrap_or_else(|| match v {
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        })
    };
    let mut problems = Vec::new();
    for (name, value, at) in given {
        let canonical = name_of(&name);
        let already = parts
            .options
            .iter()
            .find(|(n, _, _)| name_of(n) == canonical);
        match already {
            Some((n, v, _)) if value_of(n, v) == value_of(&name, &value) => {}
            Some((_, v, _)) => problems.push(problem(
                ProblemKind::Conflict,
                &at,
                format!(
                    "The path sets {canonical}={} and options sets it to {}; give it once.",
                    value_of(&canonical, v),
                    value_of(&canonical, &value)
                ),
            )),
            None => parts.options.push((name, value, at)),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn from_fields(given: &Given<'_>) -> Parts {
    let text = |v: Option<&str>| v.map(String::from);
    let namespace: Vec<String> = given
        .namespace
        .map(|n| n.split('/').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    Parts {
        domain: given.domain.unwrap_or_default().to_ascii_lowercase(),
        namespace,
        identifiers: given.identifiers.clone(),
        source: text(given.source),
        organism: text(given.organism),
        data: text(given.data),
        output: text(given.output),
        options: given_options(given),
        from_path: false,
    }
}

fn build(p: Parts) -> Result<(PugRequest, bool), Vec<Problem>> {
    let mut problems = Vec::new();
    let at = |field: &str| {
        if p.from_path {
            "$.path".to_string()
        } else {
            format!("$.{field}")
        }
    };
    let Some(domain) = grammar::DOMAINS.iter().find(|d| **d == p.domain).copied() else {
        let best = crate::suggest::closest(&p.domain, grammar::DOMAINS.iter().copied());
        return Err(vec![problem(
            ProblemKind::Domain,
            &at("domain"),
            format!(
                "\"{}\" is not a PUG REST domain{}; PubChem documents {}.",
                p.domain,
                best.map(|b| format!(" (did you mean \"{b}\"?)"))
                    .unwrap_or_default(),
                grammar::DOMAINS.join(", ")
            ),
        )]);
    };
    // The namespace row.
    let first = p.namespace.first().map(String::as_str).unwrap_or("");
    let special_second = grammar::namespace(domain, "").filter(|r| !r.second.is_empty());
    let (row, second) = match special_second {
        Some(r) => (
            Some(r),
            p.namespace.first().and_then(|s| one_of(r.second, s)),
        ),
        None => {
            let row = grammar::namespace(domain, first);
            let second = match (row, p.namespace.get(1)) {
                (Some(r), Some(s)) if !r.second.is_empty() => one_of(r.second, s),
                _ => None,
            };
            (row, second)
        }
    };
    let row_ok = match row {
        None => false,
        Some(r) if !r.second.is_empty() => {
            second.is_some() && p.namespace.len() == if r.name.is_empty() { 1 } else { 2 }
        }
        Some(r) => p.namespace.len() == usize::from(!r.name.is_empty()),
    };
    if !row_ok {
        let offered = grammar::namespace_names(domain);
        let message = if offered.is_empty() || offered == [""] {
            format!(
                "Domain {domain} takes no namespace; \"{}\" was given.",
                p.namespace.join("/")
            )
        } else if p.namespace.is_empty() {
            format!("Domain {domain} needs a namespace: {}.", offered.join(", "))
        } else {
            let given = p.namespace.join("/");
            let best = crate::suggest::closest(&given, offered.iter().map(String::as_str));
            format!(
                "\"{given}\" is not a namespace of {domain}{}; PubChem documents {}.",
                best.map(|b| format!(" (did you mean \"{b}\"?)"))
                    .unwrap_or_default(),
                offered.join(", ")
            )
        };
        problems.push(problem(ProblemKind::Namespace, &at("namespace"), message));
    }
    let row = row.filter(|_| row_ok);
    // Identifiers, by what the namespace takes.
    let mut identifiers: Vec<String> = p
        .identifiers
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if let Some(r) = row {
        if matches!(r.ids, Ids::List | Ids::Numbers) {
            identifiers = identifiers
                .iter()
                .flat_map(|i| i.split(','))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
        let want = match (r.ids, second) {
            (Ids::Nothing | Ids::Source, _) => (0, 0),
            (Ids::Range, Some("range")) => (2, 2),
            (Ids::Range, _) | (Ids::One | Ids::SourceAndId, _) => (1, 1),
            (Ids::List | Ids::Numbers, _) => (1, usize::MAX),
        };
        if identifiers.len() < want.0 || identifiers.len() > want.1 {
            let what = match want {
                (0, 0) => "takes no identifier".to_string(),
                (1, 1) => "takes exactly one identifier".to_string(),
                (2, 2) => "takes two numbers, the low and the high mass".to_string(),
                _ => "needs at least one identifier".to_string(),
            };
            problems.push(problem(
                ProblemKind::Identifier,
                &at("identifier"),
                format!(
                    "Namespace {} of {domain} {what}; {} given.",
                    p.namespace.join("/"),
                    identifiers.len()
                ),
            ));
        }
        if r.ids == Ids::Numbers {
            for (n, id) in identifiers.iter().enumerate() {
                if !id.bytes().all(|b| b.is_ascii_digit()) || id.is_empty() {
                    let path = if p.from_path {
                        "$.path".to_string()
                    } else {
                        format!("$.identifier[{n}]")
                    };
                    problems.push(problem(
                        ProblemKind::Identifier,
                        &path,
                        format!(
                            "\"{id}\" is not a {}: it must be a positive integer.",
                            r.name
                        ),
                    ));
                }
            }
        }
        if domain == "assay" && r.name == "type" {
            for id in &identifiers {
                if one_of(grammar::ASSAY_TYPES, id).is_none() {
                    problems.push(problem(
                        ProblemKind::Identifier,
                        &at("identifier"),
                        format!(
                            "\"{id}\" is not an assay type; PubChem documents {}.",
                            grammar::ASSAY_TYPES.join(", ")
                        ),
                    ));
                }
            }
        }
        if r.ids == Ids::Range {
            for id in &identifiers {
                if id
                    .parse::<f64>()
                    .map_or(true, |f| !f.is_finite() || f < 0.0)
                {
                    problems.push(problem(
                        ProblemKind::Identifier,
                        &at("identifier"),
                        format!(
                            "\"{id}\" is not a mass: masses are decimal numbers such as 400.05."
                        ),
                    ));
                }
            }
        }
        let needs_source = matches!(r.ids, Ids::SourceAndId | Ids::Source);
        if needs_source != p.source.is_some() {
            problems.push(problem(
                ProblemKind::Identifier,
                &at("source"),
                if needs_source {
                    format!("Namespace {} needs source, the depositor's name (e.g. DTP.NCI).", r.name)
                } else {
                    format!("source names a depositor for namespace sourceid or sourceall only, not {}.", p.namespace.join("/"))
                },
            ));
        }
    }
    let genesymbol = domain == "gene" && first.eq_ignore_ascii_case("genesymbol");
    if p.organism.is_some() && !genesymbol {
        problems.push(problem(
            ProblemKind::Namespace,
            &at("organism"),
            "organism is the organism of gene/genesymbol only.",
        ));
    }
    // The operation.
    let data = p.data.clone().unwrap_or_default();
    let (op_name, op_rest) = data.split_once('/').unwrap_or((data.as_str(), ""));
    let mut operation_list: Vec<String> = Vec::new();
    let mut operation_sid = false;
    let operation = if domain == "classification" {
        if !grammar::is_classification_id_type(op_name) {
            problems.push(problem(ProblemKind::Operation, &at("data"), format!(
                "A classification node lists identifiers of one type, named in data: {}; \"{data}\" is not one.",
                grammar::CLASSIFICATION_ID_TYPES.join(", ")
            )));
        } else {
            operation_list.push(op_name.to_ascii_lowercase());
        }
        grammar::operation(domain, "")
    } else {
        let found = grammar::operation(
            domain,
            if op_name.eq_ignore_ascii_case("record")
                && grammar::operation(domain, "record").is_none()
            {
                ""
            } else {
                op_name
            },
        );
        match found {
            None => {
                let offered = grammar::operation_names(domain);
                let best = crate::suggest::closest(op_name, offered.iter().copied());
                problems.push(problem(
                    ProblemKind::Operation,
                    &at("data"),
                    if offered.is_empty() {
                        format!("Domain {domain} takes no operation; \"{data}\" was given.")
                    } else if op_name.is_empty() {
                        format!(
                            "Domain {domain} has no full record: name the operation in data ({}).",
                            offered.join(", ")
                        )
                    } else {
                        format!(
                        "\"{op_name}\" is not an operation of {domain}{}; PubChem documents {}.",
                        best.map(|b| format!(" (did you mean \"{b}\"?)")).unwrap_or_default(),
                        offered.join(", ")
                    )
                    },
                ));
                None
            }
            Some(op) => {
                match op.tail {
                    Tail::List(table) => {
                        if op_rest.is_empty() {
                            problems.push(problem(
                                ProblemKind::Operation,
                                &at("data"),
                                format!(
                                    "{} needs its list after a slash, e.g. {}/{}.",
                                    op.name,
                                    op.name,
                                    table[..2].join(",")
                                ),
                            ));
                        }
                        for item in op_rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                            match grammar::canonical_list_item(table, item) {
                                Some(c) => operation_list.push(c.to_string()),
                                None => {
                                    let best = crate::suggest::closest(item, table.iter().copied());
                                    problems.push(problem(
                                        ProblemKind::Operation,
                                        &at("data"),
                                        format!(
                                            "\"{item}\" is not one of {}'s documented names{}.",
                                            op.name,
                                            best.map(|b| format!(" (did you mean \"{b}\"?)"))
                                                .unwrap_or_default()
                                        ),
                                    ));
                                }
                            }
                        }
                    }
                    Tail::OptionalSid => operation_sid = op_rest.eq_ignore_ascii_case("sid"),
                    Tail::None if !op_rest.is_empty() => problems.push(problem(
                        ProblemKind::Operation,
                        &at("data"),
                        format!(
                            "{} takes nothing after it; \"{op_rest}\" was given.",
                            op.name
                        ),
                    )),
                    Tail::None => {}
                }
                Some(op)
            }
        }
    };
    // The output.
    let chosen = p.output.is_none();
    let output = p
        .output
        .clone()
        .unwrap_or_else(|| "JSON".into())
        .to_ascii_uppercase();
    if !grammar::OUTPUTS.contains(&output.as_str()) {
        problems.push(problem(
            ProblemKind::Output,
            &at("output"),
            format!(
                "\"{output}\" is not a PUG REST output format; PubChem documents {}.",
                grammar::OUTPUTS.join(", ")
            ),
        ));
    } else if let Some(op) = operation.filter(|o| !grammar::output_allowed(o, &output)) {
        let mut offered = vec!["XML", "JSON", "JSONP", "ASNT", "ASNB"];
        offered.extend(op.more_outputs);
        problems.push(problem(
            ProblemKind::Output,
            &at("output"),
            format!(
                "PubChem does not document {output} for {}; it offers {}.",
                if op.name.is_empty() {
                    format!("{domain} records")
                } else {
                    format!("{domain} {}", op.name)
                },
                offered.join(", ")
            ),
        ));
    }
    // The options.
    let mut options: Vec<(String, String)> = Vec::new();
    for (name, value, path) in &p.options {
        let Some(spec) = options::option(name) else {
            let best = crate::suggest::closest(name, options::OPTIONS.iter().map(|o| o.name));
            problems.push(problem(
                ProblemKind::UnknownOption,
                path,
                format!(
                    "\"{name}\" is not a PUG REST option{}.",
                    best.map(|b| format!(" (did you mean \"{b}\"?)"))
                        .unwrap_or_default()
                ),
            ));
            continue;
        };
        match option_value(spec.kind, value) {
            Ok(v) => options.push((spec.name.to_string(), v)),
            Err(m) => problems.push(problem(
                ProblemKind::OptionValue,
                path,
                format!("{}: {m}", spec.name),
            )),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let (Some(operation), Some(namespace)) = (operation, row) else {
        return Err(vec![problem(
            ProblemKind::Path,
            "$",
            "The request could not be read.",
        )]);
    };
    Ok((
        PugRequest {
            domain,
            namespace: Some(namespace)
                .filter(|n| !(n.name.is_empty() && n.second.is_empty() && n.ids == Ids::Nothing)),
            second,
            source: p.source.clone(),
            identifiers,
            organism: p.organism.clone(),
            operation,
            operation_list,
            operation_sid,
            output,
            options,
        },
        chosen,
    ))
}
