//! Everything the replay answers WITHOUT a recording behind it.
//!
//! Kept apart from the routing so that what is real and what is made up can be
//! told at a glance; tests/fixtures/ncbi/synthetic/README.md lists the same
//! things for readers of the fixtures: synthetic PMIDs ([`Templates`]) and the
//! search that returns them ([`SEARCH_TERM`]), ecitmatch ([`ecitmatch`]),
//! `<ERROR>` envelopes no recording covers ([`error_xml`]), and the JSON error
//! bodies NCBI documents ([`ESEARCH_JSON_EMPTY`], [`ESUMMARY_JSON_TOO_MANY`]).

use crate::ncbi::citations::Catalogue;
use crate::ncbi::fixtures::{find, own_pmid_span, Corpus, Fixture};

/// First synthetic PMID. Real PubMed has ids in this range, but none of this repository's
/// recordings do.
pub const FIRST_ID: u64 = 90_000_001;
/// Last synthetic PMID.
pub const LAST_ID: u64 = 90_099_999;
/// The esearch term that returns synthetic ids (compared case-insensitively).
pub const SEARCH_TERM: &str = "replay-synthetic[all]";
/// Count reported for the synthetic search: ids [`FIRST_ID`]`..=90020000`.
pub const SEARCH_COUNT: u64 = 20_000;
/// WebEnv handed out by the synthetic search with usehistory=y.
pub const WEBENV: &str = "MCID_replay_synthetic_0000000001";
/// NCBI's documented ceiling on retmax.
pub const MAX_RETMAX: u64 = 10_000;

/// NCBI's documented esearch JSON error for a search with nothing to search (quoted in
/// PROVENANCE.md).
pub const ESEARCH_JSON_EMPTY: &str =
    r#"{"esearchresult":{"ERROR":"Empty term and query_key - nothing todo"}}"#;
/// NCBI's documented esummary JSON error over 500 ids (quoted in PROVENANCE.md).
pub const ESUMMARY_JSON_TOO_MANY: &str = r#"{"header":{"type":"esummary","version":"0.3"},"error":"Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output."}"#;

/// Whether `id` is in the synthetic PMID range.
pub fn is_synthetic(id: u64) -> bool {
    (FIRST_ID..=LAST_ID).contains(&id)
}

/// The recorded articles synthetic PMIDs clone, in corpus order: never the documented ones
/// (tests/fixtures/ncbi/documented), whose retractions would otherwise spread to thousands
/// of synthetic records.
pub fn template_bytes(corpus: &Corpus) -> Vec<&'static [u8]> {
    corpus
        .pubmed
        .iter()
        .filter(|s| !s.fixture.name.starts_with("documented/"))
        .flat_map(|s| s.records.iter().map(|a| a.bytes))
        .collect()
}

/// Real articles with holes where their own PMID goes: recorded articles cloned round-robin
/// with only their own PMID rewritten, so staging and load tests can fetch thousands of
/// distinct records from a handful of recordings.
pub struct Templates {
    items: Vec<Vec<&'static [u8]>>,
}

impl Templates {
    /// One template per indexed recorded article, in corpus order.
    pub fn from_corpus(corpus: &Corpus) -> Templates {
        let mut items = Vec::new();
        for bytes in template_bytes(corpus) {
            let a = trim_end(bytes);
            let Some((s, e)) = own_pmid_span(a) else {
                continue;
            };
            let old = &a[s..e];
            // The article's own ArticleId repeats the PMID; cited ones differ
            // and are left alone.
            let mut own_id = None;
            if let Some(data) = find(a, b"<PubmedData", e) {
                let mut needle = b"<ArticleId IdType=\"pubmed\">".to_vec();
                let prefix = needle.len();
                needle.extend_from_slice(old);
                needle.extend_from_slice(b"</ArticleId>");
                own_id = find(a, &needle, data).map(|p| (p + prefix, p + prefix + old.len()));
            }
            items.push(match own_id {
                Some((s2, e2)) => vec![&a[..s], &a[e..s2], &a[e2..]],
                None => vec![&a[..s], &a[e..]],
            });
        }
        Templates { items }
    }

    /// Appends the synthetic article for `pmid`, followed by a newline.
    pub fn write(&self, pmid: u64, out: &mut Vec<u8>) {
        if self.items.is_empty() {
            return;
        }
        let pieces = &self.items[((pmid - FIRST_ID) as usize) % self.items.len()];
        let id = pmid.to_string();
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(id.as_bytes());
            }
            out.extend_from_slice(piece);
        }
        out.push(b'\n');
    }
}

fn trim_end(b: &[u8]) -> &[u8] {
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &b[..end]
}

/// Whether an esearch term asks for the synthetic result set.
pub fn is_search_term(term: &str) -> bool {
    term.trim().eq_ignore_ascii_case(SEARCH_TERM)
}

/// The synthetic ids a retstart/retmax slice covers, with NCBI's retmax ceiling.
pub fn slice(retstart: u64, retmax: u64) -> std::ops::Range<u64> {
    let start = retstart.min(SEARCH_COUNT);
    let end = start
        .saturating_add(retmax.min(MAX_RETMAX))
        .min(SEARCH_COUNT);
    FIRST_ID + start..FIRST_ID + end
}

/// A count-only search of one publication year: `TERM AND YYYY[dp]` (or `[pdat]`, or `(TERM)
/// AND …`), as `entrez_query` count_by_year sends one per year; the rest of the term and the
/// year.
pub fn year_clause(term: &str) -> Option<(&str, u32)> {
    let t = term.trim();
    let at = t.to_ascii_lowercase().rfind(" and ")?;
    let (rest, clause) = (t[..at].trim(), t[at + 5..].trim());
    let lower = clause.to_ascii_lowercase();
    let year = lower
        .strip_suffix("[dp]")
        .or_else(|| lower.strip_suffix("[pdat]"))?;
    let year: u32 = year
        .trim()
        .parse()
        .ok()
        .filter(|y| (1000..=9999).contains(y))?;
    let rest = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(rest);
    Some((rest, year))
}

/// The made-up count of `rest` in `year`: the synthetic search's records spread over
/// 1990..=2025 (a rising trend, none before or after), and any other term 0 before 1950 and
/// then a small trend that depends on the term's length, so two terms differ.
pub fn year_count(rest: &str, year: u32) -> u64 {
    if is_search_term(rest) {
        return match year {
            1990..=2025 => 100 + (year as u64 - 1990) * 20,
            _ => 0,
        };
    }
    match year {
        1950.. => (year as u64 - 1950) * 3 + (rest.len() as u64 % 10),
        _ => 0,
    }
}

/// A count-only esearch reply, as NCBI writes one for rettype=count.
pub fn esearch_count_xml(prolog: &[u8], count: u64) -> Vec<u8> {
    let mut out = prolog.to_vec();
    out.extend_from_slice(
        format!("<eSearchResult><Count>{count}</Count></eSearchResult>\n").as_bytes(),
    );
    out
}

/// The synthetic esearch in XML, in the recorded esearch layout.
pub fn esearch_xml(prolog: &[u8], retstart: u64, retmax: u64, history: bool) -> Vec<u8> {
    let ids = slice(retstart, retmax);
    let mut out = prolog.to_vec();
    out.extend_from_slice(
        format!(
            "<eSearchResult><Count>{SEARCH_COUNT}</Count><RetMax>{}</RetMax><RetStart>{}</RetStart>",
            ids.end - ids.start,
            retstart
        )
        .as_bytes(),
    );
    if history {
        out.extend_from_slice(
            format!("<QueryKey>1</QueryKey><WebEnv>{WEBENV}</WebEnv>").as_bytes(),
        );
    }
    if ids.is_empty() {
        out.extend_from_slice(b"<IdList/>");
    } else {
        out.extend_from_slice(b"<IdList>\n");
        for id in ids {
            out.extend_from_slice(format!("<Id>{id}</Id>\n").as_bytes());
        }
        out.extend_from_slice(b"</IdList>");
    }
    out.extend_from_slice(
        b"<TranslationSet/><QueryTranslation>replay-synthetic[All Fields]</QueryTranslation></eSearchResult>\n",
    );
    out
}

/// The synthetic esearch in JSON, in the recorded JSON layout.
pub fn esearch_json(retstart: u64, retmax: u64, history: bool) -> Vec<u8> {
    let ids = slice(retstart, retmax);
    let mut result = serde_json::json!({
        "count": SEARCH_COUNT.to_string(),
        "retmax": (ids.end - ids.start).to_string(),
        "retstart": retstart.to_string(),
        "idlist": ids.map(|i| i.to_string()).collect::<Vec<_>>(),
        "translationset": [],
        "querytranslation": "replay-synthetic[All Fields]",
    });
    if history {
        result["querykey"] = "1".into();
        result["webenv"] = WEBENV.into();
    }
    let body = serde_json::json!({
        "header": {"type": "esearch", "version": "0.3"},
        "esearchresult": result,
    });
    body.to_string().into_bytes()
}

/// ecitmatch's pipe format: each citation line echoed with its answer appended. No
/// recording exists; this is NCBI's documented format. The documented example resolves as
/// documented; any other line is matched against the records the replay holds by journal,
/// year, volume, first page and author ([`Catalogue::citation_match`]).
pub fn ecitmatch(bdata: &str, catalogue: &Catalogue) -> Vec<u8> {
    let mut out = String::new();
    for line in bdata.split(['\r', '\n']) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut fields: Vec<&str> = line.split('|').map(str::trim).collect();
        fields.resize(6, "");
        fields.truncate(6);
        let found = match documented_example(&fields) {
            Some(pmid) => pmid.to_string(),
            None => catalogue.citation_match(fields[0], fields[1], fields[2], fields[3], fields[4]),
        };
        // NCBI empties the author of a line whose journal it does not know.
        if found == "NOT_FOUND;INVALID_JOURNAL" {
            fields[4] = "";
        }
        out.push_str(&fields.join("|"));
        out.push('|');
        out.push_str(&found);
        out.push('\n');
    }
    out.into_bytes()
}

/// NCBI's documented example, which resolves to 2014248.
fn documented_example(f: &[&str]) -> Option<&'static str> {
    let lower: Vec<String> = f.iter().map(|s| s.to_ascii_lowercase()).collect();
    let example = ["proc natl acad sci u s a", "1991", "88", "3248", "mann bj"];
    (lower[..5] == example).then_some("2014248")
}

/// The part of a recording before its root element: declaration and DOCTYPE.
pub fn prolog_of(fixture: Fixture, root: &str) -> &'static [u8] {
    let bytes = fixture.bytes;
    let at = find(bytes, format!("<{root}").as_bytes(), 0).unwrap_or(0);
    &bytes[..at]
}

/// An NCBI-style `<ERROR>` answer in `root`, after `prolog`: for cases no recording covers
/// (an invalid db outside epost, an unknown WebEnv, efetch without ids), in the utility's own
/// root element and with the recorded prolog of that utility.
pub fn error_xml(prolog: &[u8], root: &str, message: &str) -> Vec<u8> {
    let mut out = prolog.to_vec();
    out.extend_from_slice(
        format!(
            "<{root}>\n\t<ERROR>{}</ERROR>\n</{root}>\n",
            xml_escape(message)
        )
        .as_bytes(),
    );
    out
}

/// Escapes text for an XML element or attribute.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ncbi::fixtures::{Corpus, ESEARCH1};

    #[test]
    fn documented_citation_resolves_and_others_do_not() {
        let catalogue = Catalogue::of(&Corpus::load());
        let out = ecitmatch(
            "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|\rscience|1987|235|182|palmenberg ac|Art2|\rlancet|1998|351|637|wakefield aj|Art3|\rlancet|1998|351|1|x|Art4|",
            &catalogue,
        );
        // A journal the replay holds no record of is NCBI's INVALID_JOURNAL, author emptied.
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|2014248\n\
             science|1987|235|182||Art2|NOT_FOUND;INVALID_JOURNAL\n\
             lancet|1998|351|637|wakefield aj|Art3|9500320\n\
             lancet|1998|351|1|x|Art4|NOT_FOUND\n"
        );
    }

    #[test]
    fn clones_rewrite_only_the_own_pmid() {
        let corpus = Corpus::load();
        let t = Templates::from_corpus(&corpus);
        let mut out = Vec::new();
        t.write(FIRST_ID, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("<PMID Version=\"1\">90000001</PMID>"));
        assert!(text.contains("<ArticleId IdType=\"pubmed\">90000001</ArticleId>"));
        assert!(!text.contains(">12091962<"));
    }

    #[test]
    fn slices_are_bounded() {
        assert_eq!(slice(0, 3), FIRST_ID..FIRST_ID + 3);
        assert_eq!(slice(19_999, 10), FIRST_ID + 19_999..FIRST_ID + 20_000);
        assert!(slice(25_000, 10).is_empty());
        let xml = esearch_xml(prolog_of(ESEARCH1, "eSearchResult"), 0, 0, false);
        assert!(String::from_utf8(xml).unwrap().contains("<IdList/>"));
    }
}
