//! `entrez_query link`'s rules: elink's source and target databases, its link names, its
//! reply forms and the parameters only some commands read (NBK25499, ELink).

use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::defaults;
use crate::tools::entrez_query::validation::dates;
use crate::tools::entrez_query::validation::terms;
use crate::validation::codes;
use crate::validation::databases;
use crate::validation::ids;
use crate::validation::path;
use crate::validation::Report;

/// The semantic check of one elink call.
pub fn check(args: &QueryArgs, report: &mut Report) {
    let dbfrom = match &args.dbfrom {
        Some(d) => databases::check(d, &path("dbfrom"), false, report),
        None => Some(defaults::DEFAULT_DATABASE.into()),
    };
    let target = args
        .database
        .as_deref()
        .and_then(|d| databases::check(d, &path("database"), false, report));
    let Some(dbfrom) = dbfrom else { return };
    let from = databases::canonical(&dbfrom);
    ids::check(&args.ids, "ids", from, None, report);
    if let Some(name) = &args.linkname {
        linkname(
            name,
            from,
            target.as_deref().map(databases::canonical),
            report,
        );
    }
    if let Some(term) = &args.term {
        let to = target.as_deref().map(databases::canonical).unwrap_or(from);
        terms::check(term, &path("term"), to, report);
    }
    dates::check_parameters(args, report);
    link_modes(args, from, report);
}

/// elink's reply forms, its one-provider filter and its per-id mode (NBK25499, ELink).
fn link_modes(args: &QueryArgs, from: &str, report: &mut Report) {
    let cmd = args.cmd.as_deref().unwrap_or(defaults::DEFAULT_ELINK_CMD);
    let ids = &args.ids;
    match args.retmode.as_deref() {
        None | Some("xml" | "json") => {}
        Some("ref") => {
            if cmd != "prlinks" {
                report.error(
                    codes::UNSUPPORTED_RETMODE,
                    path("retmode"),
                    format!("retmode ref redirects to a full-text provider, which only cmd prlinks names; cmd is {cmd}."),
                );
                report.suggest("Set cmd to \"prlinks\", or drop retmode ref.");
            } else if ids.len() != 1 {
                report.error(
                    codes::UNSUPPORTED_RETMODE,
                    path("retmode"),
                    format!("retmode ref redirects to one provider page, so it takes exactly one id; {} were given.", ids.len()),
                );
                report.suggest("Call once per id, or drop retmode ref to get every id's provider links as data.");
            }
        }
        Some(other) => {
            report.error(
                codes::UNSUPPORTED_RETMODE,
                path("retmode"),
                format!("elink returns xml, json or (prlinks) ref, not {other}."),
            );
            report.suggest("Set retmode to \"xml\" or \"json\", or leave it out.");
        }
    }
    if args.holding.is_some() && !matches!(cmd, "llinks" | "llinkslib") {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("holding"),
            format!("holding filters LinkOut providers for cmd llinks or llinkslib; NCBI ignores it with cmd {cmd} (it is sent as given)."),
        );
    }
    if args.idtype.is_some() && crate::entrez::databases::genbank_rettype(from).is_none() {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("idtype"),
            "idtype acc applies to sequence databases (nuccore, nucleotide, protein) only; NCBI ignores it here (it is sent as given).",
        );
    }
    if args.by_id && ids.is_empty() {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("by_id"),
            "by_id sends each listed id as its own id= parameter; a history set (webenv/query_key) has no list to split.",
        );
    }
}

fn linkname(name: &str, from: &str, to: Option<&str>, report: &mut Report) {
    let mut parts = name.splitn(3, '_');
    let link_from = parts.next().unwrap_or("");
    let link_to = parts.next();
    if databases::canonical(link_from) != from {
        report.error(
            codes::LINKNAME_MISMATCH,
            path("linkname"),
            format!("linkname \"{name}\" starts from {link_from}, but dbfrom is {from}."),
        );
        report.suggest(format!(
            "Set dbfrom to {link_from}, or use a link name that starts with {from}_ (operation info with database {from} lists them)."
        ));
        return;
    }
    if let (Some(lt), Some(to)) = (link_to, to) {
        if databases::canonical(lt) != to {
            report.error(
                codes::LINKNAME_MISMATCH,
                path("linkname"),
                format!("linkname \"{name}\" leads to {lt}, but database is {to}."),
            );
            report.suggest(format!("Set database to {lt}, or omit it."));
            return;
        }
    }
    if from == "pubmed" {
        let links = &databases::pubmed_info().links;
        if !links.iter().any(|l| l.name == name) {
            let best = crate::suggest::closest(name, links.iter().map(|l| l.name.as_str()));
            report.warn(
                codes::UNKNOWN_LINKNAME,
                path("linkname"),
                format!(
                    "linkname \"{name}\" is not among PubMed's link names in einfo; NCBI would return no links.{}",
                    best.map(|b| format!(" Did you mean \"{b}\"?")).unwrap_or_default()
                ),
            );
        }
    }
}
