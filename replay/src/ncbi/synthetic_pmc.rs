//! Synthetic PMC articles: JATS for PMCIDs no recording holds, made up.
//!
//! Staging a few hundred full-text articles needs a few hundred distinct ones;
//! the recordings hold one (eutils/efetch_pmc.xml). PMCIDs in [`FIRST`]`..=`[`LAST`]
//! are answered by `efetch db=pmc` with an article built here from the shape of
//! the recorded one (the `pmc-articleset` envelope, `front/article-meta` ids,
//! title, abstract, nested `sec`s with `title` and `p`, a `table-wrap` with its
//! `label`, `caption` and `table`, `back/ack`), its text a pure function of the id
//! so a test can fetch the same XML and read it its own way.

/// First synthetic PMCID number (PMC90000001). No recording uses this range.
pub const FIRST: u64 = 90_000_001;
/// Last synthetic PMCID number.
pub const LAST: u64 = 90_009_999;

/// The number of a synthetic PMCID, given as `PMC90000001` or `90000001`.
pub fn number(id: &str) -> Option<u64> {
    let t = id.trim();
    let digits = t
        .strip_prefix("PMC")
        .or_else(|| t.strip_prefix("pmc"))
        .unwrap_or(t);
    let n: u64 = digits.parse().ok()?;
    (FIRST..=LAST).contains(&n).then_some(n)
}

/// A `pmc-articleset` with one generated article per id, in request order, after the
/// recorded file's prolog.
pub fn articleset(ids: &[u64]) -> Vec<u8> {
    let mut out = String::from(
        "<?xml version=\"1.0\" ?>\n<!DOCTYPE pmc-articleset PUBLIC \"-//NLM//DTD ARTICLE SET 2.0//EN\" \"https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd\">\n<pmc-articleset>",
    );
    for &n in ids {
        out.push_str(&article(n));
    }
    out.push_str("</pmc-articleset>\n");
    out.into_bytes()
}

/// One article. `i = n - FIRST` decides where, if anywhere, "hazard ratio" appears
/// (`i % k == 0` below): the Results paragraph (k = 3), a nested "Results > Survival
/// analysis" section as "Hazard Ratio" (k = 7), a table caption in Results (k = 11); and
/// outside Results, never counted by a Results query: the abstract (k = 2), Methods
/// (k = 4), Discussion (k = 5), a table cell (k = 13), the acknowledgements (k = 17).
pub fn article(n: u64) -> String {
    let i = n - FIRST;
    let pmid = 80_000_000 + i;
    let hr = |cond: bool, yes: &str, no: &str| {
        if cond {
            yes.to_string()
        } else {
            no.to_string()
        }
    };
    let abstract_text = hr(
        i.is_multiple_of(2),
        "We estimated the hazard ratio of relapse.",
        "We describe relapse in a cohort.",
    );
    let methods = hr(
        i.is_multiple_of(4),
        "Cox models gave a hazard ratio per exposure year.",
        "Cox proportional hazards models were fitted.",
    );
    let results = hr(
        i.is_multiple_of(3),
        &format!(
            "The hazard ratio for relapse was 0.{} (95% CI 0.4 to 0.9).",
            i % 9 + 1
        ),
        &format!("Relapse occurred in {} of 120 participants.", i % 50 + 1),
    );
    let survival = if i.is_multiple_of(7) {
        "<sec id=\"s3-1\"><title>Survival analysis</title><p>The adjusted Hazard Ratio was 1.4.</p></sec>"
            .to_string()
    } else {
        "<sec id=\"s3-1\"><title>Survival analysis</title><p>Median survival was not reached.</p></sec>"
            .to_string()
    };
    let caption = hr(
        i.is_multiple_of(11),
        "Hazard ratios by subgroup",
        "Baseline characteristics",
    );
    let cell = hr(i.is_multiple_of(13), "hazard ratio", "age");
    let discussion = hr(
        i.is_multiple_of(5),
        "Earlier cohorts reported a similar hazard ratio.",
        "These findings agree with earlier cohorts.",
    );
    let ack = hr(
        i.is_multiple_of(17),
        "We thank the hazard ratio working group.",
        "We thank the participants.",
    );
    format!(
        "<article xmlns:xlink=\"http://www.w3.org/1999/xlink\" article-type=\"research-article\" dtd-version=\"1.3\">\
<front><journal-meta><journal-id journal-id-type=\"nlm-ta\">Replay J</journal-id>\
<journal-title-group><journal-title>Replay Journal of Synthetic Cohorts</journal-title></journal-title-group>\
<issn pub-type=\"epub\">0000-0000</issn></journal-meta>\
<article-meta><article-id pub-id-type=\"pmid\">{pmid}</article-id>\
<article-id pub-id-type=\"pmc\">{n}</article-id>\
<article-id pub-id-type=\"doi\">10.99999/replay.{n}</article-id>\
<title-group><article-title>Synthetic cohort study {n}</article-title></title-group>\
<contrib-group><contrib contrib-type=\"author\"><name><surname>Replay</surname><given-names>A</given-names></name></contrib></contrib-group>\
<pub-date pub-type=\"epub\"><day>1</day><month>{month}</month><year>{year}</year></pub-date>\
<volume>{volume}</volume><issue>1</issue>\
<permissions><license><license-p>CC BY 4.0</license-p></license></permissions>\
<abstract><p>{abstract_text}</p></abstract></article-meta></front>\
<body><sec id=\"s1\"><title>Introduction</title><p>Synthetic article {n} from the replay.</p></sec>\
<sec id=\"s2\"><title>Methods</title><p>{methods}</p></sec>\
<sec id=\"s3\"><title>Results</title><p>{results}</p>{survival}\
<table-wrap id=\"t1\"><label>Table 1</label><caption><p>{caption}</p></caption>\
<table><thead><tr><th>Variable</th><th>Value</th></tr></thead><tbody><tr><td>{cell}</td><td>{v}</td></tr></tbody></table></table-wrap></sec>\
<sec id=\"s4\"><title>Discussion</title><p>{discussion}</p></sec></body>\
<back><ack><p>{ack}</p></ack></back></article>",
        month = i % 12 + 1,
        year = 2015 + i % 10,
        volume = i % 30 + 1,
        v = i % 90 + 10,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_the_range_only_with_or_without_prefix() {
        assert_eq!(number("PMC90000001"), Some(90_000_001));
        assert_eq!(number("90000002"), Some(90_000_002));
        assert_eq!(number("PMC8435807"), None);
        assert_eq!(number("PMCx"), None);
    }

    #[test]
    fn articles_differ_by_id_and_are_stable() {
        assert_eq!(article(FIRST), article(FIRST));
        assert_ne!(article(FIRST), article(FIRST + 1));
        let set = String::from_utf8(articleset(&[FIRST, FIRST + 1])).unwrap();
        assert_eq!(set.matches("<article ").count(), 2);
        assert!(set.ends_with("</pmc-articleset>\n"));
    }
}
