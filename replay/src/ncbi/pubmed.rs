//! efetch db=pubmed: answers with exactly the requested PMIDs, in request
//! order, the way NCBI does, regrouping recorded articles when the ids span
//! several recordings and skipping ids nobody recorded.
//!
//! A request that matches one recording id for id gets that recording's
//! bytes untouched, so parsers see what NCBI actually sent.

use crate::ncbi::citations::Catalogue;
use crate::ncbi::fixtures::{Corpus, Kind, Split, PUBMED1};
use crate::ncbi::routes::Reply;
use crate::ncbi::synthetic::{is_synthetic, Templates};

/// Unique numeric ids in request order; NCBI answers each id once.
pub fn unique_ids(ids: &[String]) -> Vec<u64> {
    let mut seen = std::collections::HashSet::new();
    ids.iter()
        .filter_map(|s| s.parse::<u64>().ok())
        .filter(|id| seen.insert(*id))
        .collect()
}

/// PubmedArticleSet XML for `ids`: recorded, regrouped or synthetic articles.
pub fn fetch_xml(corpus: &Corpus, templates: &Templates, ids: &[u64]) -> Reply {
    if let Some(whole) = exact_recording(&corpus.pubmed, ids) {
        return Reply::fixture(whole.fixture);
    }
    let home = ids
        .iter()
        .find_map(|id| locate(&corpus.pubmed, *id).map(|(s, _)| s))
        .or_else(|| {
            corpus
                .pubmed
                .iter()
                .find(|s| s.fixture.name == PUBMED1.name)
        });
    let Some(home) = home else {
        return Reply::no_recording("efetch db=pubmed: no PubMed recording is embedded");
    };
    let mut out = home.prolog.to_vec();
    let mut sources: Vec<&str> = Vec::new();
    let mut written = 0usize;
    for id in ids {
        if let Some((split, idx)) = locate(&corpus.pubmed, *id) {
            out.extend_from_slice(split.records[idx].bytes);
            if !sources.contains(&split.fixture.name) {
                sources.push(split.fixture.name);
            }
            written += 1;
        } else if is_synthetic(*id) {
            templates.write(*id, &mut out);
            if !sources.contains(&"synthetic-clones") {
                sources.push("synthetic-clones");
            }
            written += 1;
        }
    }
    if written == 0 {
        // NCBI's answer for ids it does not have: the set, empty.
        let trimmed = out.trim_ascii_end().len();
        out.truncate(trimmed);
        sources.push("empty-set");
    }
    out.extend_from_slice(home.tail);
    Reply::made(Kind::Xml, out, format!("assembled:{}", sources.join("+")))
}

/// MEDLINE text for `ids`, regrouped from the recorded MEDLINE files.
pub fn fetch_medline(corpus: &Corpus, ids: &[u64]) -> Reply {
    if let Some(whole) = exact_recording(&corpus.medline, ids) {
        return Reply::fixture(whole.fixture);
    }
    let mut out = Vec::new();
    let mut sources: Vec<&str> = Vec::new();
    for id in ids {
        if let Some((split, idx)) = locate(&corpus.medline, *id) {
            if out.is_empty() {
                out.extend_from_slice(split.prolog);
            }
            out.extend_from_slice(split.records[idx].bytes);
            if !sources.contains(&split.fixture.name) {
                sources.push(split.fixture.name);
            }
        }
    }
    if sources.is_empty() {
        sources.push("empty");
    }
    Reply::made(Kind::Text, out, format!("assembled:{}", sources.join("+")))
}

/// esummary db=pubmed retmode=json for `ids`, in NCBI's documented JSON shape: a PMID the
/// replay holds (recorded, documented or synthetic) gets a docsum of what its record holds,
/// under ESummary's field names (uid, pubdate, source, authors, title, volume, issue,
/// pages, fulljournalname, pubtype, articleids, references); any other gets the documented
/// per-uid error `cannot get document summary` (PROVENANCE.md).
pub fn summary_json(catalogue: &Catalogue, ids: &[u64]) -> Reply {
    let mut result = serde_json::Map::new();
    let uids: Vec<String> = ids.iter().map(u64::to_string).collect();
    result.insert("uids".into(), serde_json::json!(uids));
    for id in ids {
        let doc = catalogue.docsum(*id).unwrap_or_else(
            || serde_json::json!({ "uid": id.to_string(), "error": "cannot get document summary" }),
        );
        result.insert(id.to_string(), doc);
    }
    let body = serde_json::json!({
        "header": { "type": "esummary", "version": "0.3" },
        "result": result,
    });
    Reply::made(
        Kind::Json,
        body.to_string().into_bytes(),
        "assembled:esummary-json",
    )
}

/// The recording whose articles are exactly `ids`, in order.
fn exact_recording<'a>(splits: &'a [Split], ids: &[u64]) -> Option<&'a Split> {
    splits.iter().find(|s| {
        !ids.is_empty()
            && s.records.len() == ids.len()
            && s.records.iter().zip(ids).all(|(r, id)| r.pmid == *id)
    })
}

fn locate(splits: &[Split], id: u64) -> Option<(&Split, usize)> {
    splits
        .iter()
        .find_map(|s| s.records.iter().position(|r| r.pmid == id).map(|i| (s, i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::fixtures::PUBMED2;

    fn text(r: &Reply) -> String {
        String::from_utf8(r.body.to_vec()).unwrap()
    }

    #[test]
    fn exact_set_is_served_verbatim() {
        let corpus = Corpus::load();
        let t = Templates::from_corpus(&corpus);
        let r = fetch_xml(&corpus, &t, &[11748933, 11700088]);
        assert_eq!(&r.body[..], PUBMED2.bytes);
    }

    #[test]
    fn ids_across_recordings_are_regrouped_in_request_order() {
        let corpus = Corpus::load();
        let t = Templates::from_corpus(&corpus);
        let r = fetch_xml(&corpus, &t, &[29963580, 9997, 1]);
        let body = text(&r);
        let a = body.find(">29963580</PMID>").unwrap();
        let b = body.find(">9997</PMID>").unwrap();
        assert!(a < b);
        assert_eq!(body.matches("<PubmedArticle>").count(), 2);
        assert!(body.trim_end().ends_with("</PubmedArticleSet>"));
    }

    #[test]
    fn json_summaries_say_which_pmids_exist_and_what_they_hold() {
        let catalogue = Catalogue::of(&Corpus::load());
        let r = summary_json(&catalogue, &[11748933, 90000001, 1, 9500320]);
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            v["result"]["uids"],
            serde_json::json!(["11748933", "90000001", "1", "9500320"])
        );
        assert!(v["result"]["11748933"].get("error").is_none());
        assert!(v["result"]["90000001"].get("error").is_none());
        assert_eq!(v["result"]["1"]["error"], "cannot get document summary");
        let w = &v["result"]["9500320"];
        assert_eq!(
            w["pubtype"],
            serde_json::json!(["Journal Article", "Retracted Publication"])
        );
        assert_eq!(w["references"][2]["reftype"], "Retraction in");
        assert_eq!(w["references"][2]["pmid"], 20137807);
        assert_eq!(w["source"], "Lancet");
    }

    #[test]
    fn unknown_ids_give_an_empty_set() {
        let corpus = Corpus::load();
        let t = Templates::from_corpus(&corpus);
        let body = text(&fetch_xml(&corpus, &t, &[1]));
        assert!(body.contains("<PubmedArticleSet></PubmedArticleSet>"));
        let medline = fetch_medline(&corpus, &[16377612]);
        assert!(text(&medline).starts_with("\nPMID- 16377612\n"));
    }
}
