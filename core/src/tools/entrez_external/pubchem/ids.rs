//! PubChem identifiers against their namespace, for `entrez_external`'s lookups and searches.
//!
//! A CID that is a word, an InChIKey sent as a name or a formula sent as a
//! SMILES reaches PubChem, spends a request of its 5-per-second budget and
//! comes back as "No CID found", which an assistant reads as "no such
//! compound". Each namespace's own rule runs here; when a value fails it and
//! has another namespace's shape ([`crate::tools::entrez_external::pubchem::chem::guess`]), the finding is
//! `wrong_namespace` and names the namespace (or operation) that takes it.

use crate::tools::entrez_external::pubchem::atoms;
use crate::tools::entrez_external::pubchem::chem;
use crate::tools::entrez_external::pubchem::smiles;
use crate::validation::codes;
use crate::validation::path;
use crate::validation::Report;
use chem::Shape;

/// The namespaces each PubChem operation takes, its default first (as the request builder).
pub const NAMESPACES: &[(&str, &[&str])] = &[
    (
        "compound",
        &[
            "cid", "name", "smiles", "inchi", "inchikey", "formula", "listkey",
        ],
    ),
    ("substance", &["sid", "sourceid", "name"]),
    ("bioassay", &["aid"]),
    ("structure_search", &["smiles", "inchi", "smarts", "cid"]),
];

/// Most CIDs, SIDs or AIDs one lookup takes (the schema's list limit).
pub const MAX_LIST: usize = 100;
/// CIDs, SIDs and AIDs: numbers, one or a list (also comma-separated, as PUG REST writes them).
pub fn numbers(op: &str, ns: &str, values: &[(String, String)], report: &mut Report) {
    let label = ns.to_ascii_uppercase();
    let mut pieces: Vec<String> = Vec::new();
    for (at, value) in values {
        for piece in value.split(',').map(str::trim) {
            if pieces.iter().any(|p| p == piece) && !piece.is_empty() {
                report.warn(
                    codes::DUPLICATE_ID,
                    at,
                    format!("{label} {piece} is given more than once; PubChem returns it once."),
                );
                continue;
            }
            pieces.push(piece.to_string());
            number(op, ns, &label, at, piece, report);
        }
    }
    let single = op == "structure_search";
    let max = if single { 1 } else { MAX_LIST };
    if pieces.len() > max {
        let what = if single {
            "structure_search takes one query CID".to_string()
        } else {
            format!("a lookup takes at most {MAX_LIST} {label}s")
        };
        report.error(
            codes::TOO_MANY_IDS,
            path("identifier"),
            format!("{} {label}s given; {what}.", pieces.len()),
        );
        report.suggest(if single {
            "Run one search per CID.".to_string()
        } else {
            format!("Split the {label}s into calls of at most {MAX_LIST}.")
        });
    }
}

fn number(op: &str, ns: &str, label: &str, at: &str, piece: &str, report: &mut Report) {
    if chem::record_number(piece) {
        return;
    }
    if piece.is_empty() {
        report.error(
            codes::INVALID_ID,
            at,
            format!("An empty {label}; remove the empty element or the doubled comma."),
        );
        report.suggest(format!(
            "Write the {label}s as a list, e.g. [2244, 2519], or as \"2244,2519\"."
        ));
        return;
    }
    let upper = piece.to_ascii_uppercase();
    let bare = upper
        .strip_prefix(label)
        .map(|r| r.trim_start_matches([' ', ':', '-']))
        .filter(|r| chem::record_number(r));
    if let Some(n) = bare {
        report.error(
            codes::INVALID_ID,
            at,
            format!("\"{piece}\" carries the {label} prefix; PubChem takes the number alone: {n}."),
        );
        report.suggest(format!("Write {n} instead of \"{piece}\"."));
        return;
    }
    if atoms::digits(piece) {
        report.error(
            codes::INVALID_ID,
            at,
            format!("{label} {piece} cannot exist: PubChem numbers records from 1."),
        );
        report.suggest(format!(
            "Use the {label} from the PubChem record (aspirin is CID 2244), or look the record up by name."
        ));
        return;
    }
    match chem::guess(piece) {
        Some(shape) if shape != Shape::Digits => wrong_namespace(op, ns, at, piece, shape, report),
        _ => {
            report.error(
                codes::INVALID_ID,
                at,
                format!("\"{piece}\" is not a {label}: {label}s are positive whole numbers such as 2244."),
            );
            report.suggest(format!(
                "Give {label}s as numbers; to find one, look the record up by name (namespace name, data cids)."
            ));
        }
    }
}

/// One name, structure, key, formula or ListKey.
pub fn single(op: &str, ns: &str, at: &str, value: &str, report: &mut Report) {
    if value.is_empty() {
        report.error(
            codes::INVALID_ID,
            at,
            format!("An empty identifier for namespace {ns}."),
        );
        report.suggest(format!(
            "Give {} as identifier, e.g. {}.",
            kind_of(ns),
            example(ns)
        ));
        return;
    }
    let shape = chem::guess(value);
    match ns {
        "name" => match shape {
            Some(s @ (Shape::InChIKey | Shape::InChI)) => {
                wrong_namespace(op, ns, at, value, s, report)
            }
            Some(Shape::Digits) => {
                let numeric = if op == "substance" { "sid" } else { "cid" };
                report.warn(
                    codes::AMBIGUOUS_ID,
                    at,
                    format!("\"{value}\" will be searched as a name; if it is {} {value}, use namespace {numeric}.", numeric.to_ascii_uppercase()),
                );
            }
            _ => {}
        },
        "smiles" => smiles_identifier(op, at, value, shape, report),
        "inchi" => match chem::inchi_problem(value) {
            None => {}
            Some(m)
                if value.starts_with("1S/")
                    || value.starts_with("1/")
                    || shape == Some(Shape::InChI) =>
            {
                report.error(codes::INVALID_STRUCTURE, at, m);
                report.suggest(
                    "Copy the InChI whole, from \"InChI=1S/\" on (PubChem's record lists it).",
                );
            }
            Some(m) => match shape {
                Some(s) => wrong_namespace(op, ns, at, value, s, report),
                None => {
                    report.error(codes::INVALID_STRUCTURE, at, m);
                    report.suggest(format!("Send a whole InChI, e.g. {}.", example("inchi")));
                }
            },
        },
        "inchikey" if !chem::is_inchikey(value) => {
            let upper = value.to_ascii_uppercase();
            if chem::is_inchikey(&upper) {
                report.error(
                    codes::INVALID_ID,
                    at,
                    format!("\"{value}\" is an InChIKey in lower case; PubChem matches InChIKeys in upper case only."),
                );
                report.suggest(format!("Send \"{upper}\"."));
                return;
            }
            match shape {
                Some(s) if s != Shape::InChIKey => wrong_namespace(op, ns, at, value, s, report),
                _ => {
                    report.error(
                        codes::INVALID_ID,
                        at,
                        format!("\"{value}\" is not an InChIKey: 27 characters, 14 capital letters, a hyphen, 10, a hyphen and 1 (e.g. BSYNRYMUTXBXSQ-UHFFFAOYSA-N)."),
                    );
                    report.suggest("Copy the whole InChIKey from the compound's record, or send the structure with namespace inchi or smiles.");
                }
            }
        }
        "formula" => {
            let Some(m) = chem::formula_problem(value) else {
                return;
            };
            match shape {
                Some(s @ (Shape::Digits | Shape::InChIKey | Shape::InChI | Shape::Name)) => {
                    wrong_namespace(op, ns, at, value, s, report)
                }
                _ => {
                    report.error(codes::INVALID_ID, at, m);
                    report.suggest(
                        "Write the formula as capitalised element symbols with counts, e.g. C9H8O4.",
                    );
                }
            }
        }
        "smarts" => {
            if let Some(m) = chem::smarts_problem(value) {
                report.error(codes::INVALID_STRUCTURE, at, m);
                report.suggest(
                    "Close every '(' and '[' of the SMARTS pattern, e.g. [CX3](=O)[OX2H1].",
                );
            }
        }
        "listkey" if !atoms::digits(value) => {
            report.error(
                codes::INVALID_ID,
                at,
                format!("\"{value}\" is not a ListKey: a ListKey is the number an asynchronous PubChem request handed back."),
            );
            report.suggest("Use the listkey of a structure_search reply (mode async), or look the compound up by cid or name.");
        }
        _ => {}
    }
}

fn smiles_identifier(op: &str, at: &str, value: &str, shape: Option<Shape>, report: &mut Report) {
    let problems = smiles::smiles_problems(value);
    let fatal = problems.iter().find(|p| p.fatal);
    match (fatal, shape) {
        (Some(_), Some(s @ (Shape::Digits | Shape::InChIKey | Shape::InChI | Shape::Name))) => {
            wrong_namespace(op, "smiles", at, value, s, report);
        }
        (Some(p), _) => {
            report.error(codes::INVALID_STRUCTURE, at, p.message.clone());
            report.suggest("Check the SMILES: copy it whole from the compound's PubChem record, or look the compound up by name.");
        }
        // C9H8O4 reads as SMILES only with a bare H and ring labels that never close; C1CC is
        // formula-shaped too, but without the H it is more likely a SMILES typo, so it only warns.
        (None, Some(Shape::Formula)) if value.contains('H') && !problems.is_empty() => {
            wrong_namespace(op, "smiles", at, value, Shape::Formula, report);
        }
        (None, _) => {
            for p in problems {
                report.warn(codes::SUSPICIOUS_STRUCTURE, at, p.message);
            }
        }
    }
}

/// A real identifier of the namespace, for suggestions.
fn example(ns: &str) -> &'static str {
    match ns {
        "name" => "\"aspirin\"",
        "smiles" => "\"CC(=O)OC1=CC=CC=C1C(=O)O\"",
        "inchi" => "\"InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)\"",
        "inchikey" => "\"BSYNRYMUTXBXSQ-UHFFFAOYSA-N\"",
        "formula" => "\"C9H8O4\"",
        "smarts" => "\"[CX3](=O)[OX2H1]\"",
        "sourceid" => "\"747285\" with source \"DTP/NCI\"",
        _ => "2244",
    }
}

/// What an identifier of a namespace is called in messages.
fn kind_of(ns: &str) -> &'static str {
    match ns {
        "cid" => "a CID",
        "sid" => "a SID",
        "aid" => "an AID",
        "name" => "a name",
        "smiles" => "a SMILES",
        "inchi" => "an InChI",
        "inchikey" => "an InChIKey",
        "formula" => "a molecular formula",
        "smarts" => "a SMARTS pattern",
        "listkey" => "a ListKey",
        _ => "an identifier",
    }
}

/// The namespace a shape belongs to; digits are the operation's own record numbers.
fn namespace_of(shape: Shape, op: &str) -> &'static str {
    match shape {
        Shape::Digits => match op {
            "substance" => "sid",
            "bioassay" => "aid",
            _ => "cid",
        },
        Shape::InChIKey => "inchikey",
        Shape::InChI => "inchi",
        Shape::Formula => "formula",
        Shape::Smiles => "smiles",
        Shape::Name => "name",
    }
}

/// `value` has another namespace's shape: name the namespace, or the operation that takes it.
fn wrong_namespace(op: &str, ns: &str, at: &str, value: &str, shape: Shape, report: &mut Report) {
    let target = namespace_of(shape, op);
    let what = kind_of(target);
    let takes = |o: &str| {
        NAMESPACES
            .iter()
            .any(|(x, n)| *x == o && n.contains(&target))
    };
    if takes(op) {
        report.error(
            codes::WRONG_NAMESPACE,
            at,
            format!(
                "\"{value}\" looks like {what}, not {}; use namespace {target}.",
                kind_of(ns)
            ),
        );
        report.suggest(format!("Set namespace to \"{target}\"."));
        return;
    }
    if op == "bioassay" {
        report.error(
            codes::INVALID_ID,
            at,
            format!("\"{value}\" looks like {what}; bioassays are looked up by AID, a number such as 1000."),
        );
        report.suggest("Find AIDs with entrez_query (operation search, database pcassay), or list a compound's assays on PubChem.");
        return;
    }
    report.error(
        codes::WRONG_NAMESPACE,
        at,
        format!("\"{value}\" looks like {what}, which {op} does not take in namespace {ns}; look it up with operation compound, namespace {target}."),
    );
    report.suggest(if op == "structure_search" {
        format!("Get the CID with operation compound (namespace {target}, data cids), then search with namespace cid.")
    } else {
        format!("Use operation compound with namespace {target}; data cids gives the CID.")
    });
}
