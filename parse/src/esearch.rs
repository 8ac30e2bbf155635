//! ESearch replies, XML and JSON, into one [`EsearchResult`], so callers need not care
//! which retmode was used.
//!
//! An esearch answer is more than ids: the count says how many there are in all, WebEnv and
//! QueryKey are the handle for paging through them with the history server, and the
//! translation shows how NCBI actually read the term (automatic term mapping can surprise).
//! When nothing matches, NCBI says why in ErrorList (phrases and fields it could not find)
//! and WarningList, and an assistant needs that to fix the query, so those lists are kept
//! rather than folded into "0 results".

use crate::body_errors::body_error;
use crate::envelope::{count, each_child, json_count, json_strings, json_text, root};
use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use serde::Serialize;
use serde_json::Value;

const WHAT: &str = "an ESearch reply";

/// Everything an esearch reply says.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct EsearchResult {
    /// Total number of matching records.
    pub count: u64,
    /// How many ids this reply carries at most.
    pub retmax: u64,
    /// Offset of the first id in this reply.
    pub retstart: u64,
    /// The matching UIDs, as text (they can exceed 32 bits).
    pub ids: Vec<String>,
    /// History server session, when usehistory=y.
    pub webenv: Option<String>,
    /// Key of this result set within the session.
    pub query_key: Option<String>,
    /// The query as NCBI ran it.
    pub query_translation: Option<String>,
    /// Automatic term mapping: each phrase and what it became.
    pub translation_set: Vec<Translation>,
    /// NCBI's `<ERROR>` messages.
    pub errors: Vec<String>,
    /// Phrases and fields NCBI could not find.
    pub error_list: ErrorList,
    /// Non-fatal notes on the query.
    pub warnings: Warnings,
}

/// One automatic term mapping step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Translation {
    /// The phrase as typed.
    pub from: String,
    /// What NCBI searched instead.
    pub to: String,
}

/// ESearch's ErrorList: parts of the term that matched nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ErrorList {
    /// Phrases with no records.
    pub phrases_not_found: Vec<String>,
    /// Field tags the database does not have.
    pub fields_not_found: Vec<String>,
}

/// ESearch's WarningList.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Warnings {
    /// Phrases dropped from the query (stop words and the like).
    pub phrases_ignored: Vec<String>,
    /// Quoted phrases not found as phrases.
    pub quoted_phrases_not_found: Vec<String>,
    /// Free-text messages such as "No items found."
    pub output_messages: Vec<String>,
}

/// Parses an esearch reply in XML (retmode=xml, the default).
pub fn parse_esearch_xml(bytes: &[u8]) -> Result<EsearchResult, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let mut r = EsearchResult::default();
    let top = root(&mut x, WHAT)?;
    if top == "ERROR" {
        r.errors.push(x.text()?);
        return Ok(r);
    }
    if top != "eSearchResult" {
        return Err(unexpected(WHAT, format!("the root element is <{top}>")));
    }
    each_child(&mut x, |x, name, _| {
        match name {
            "Count" => r.count = count(&x.text()?, WHAT, name)?,
            "RetMax" => r.retmax = count(&x.text()?, WHAT, name)?,
            "RetStart" => r.retstart = count(&x.text()?, WHAT, name)?,
            "QueryKey" => r.query_key = non_empty(x.text()?),
            "WebEnv" => r.webenv = non_empty(x.text()?),
            "QueryTranslation" => r.query_translation = Some(x.text()?),
            "IdList" => each_child(x, |x, name, _| {
                if name == "Id" {
                    r.ids.push(x.text()?);
                }
                Ok(())
            })?,
            "TranslationSet" => each_child(x, |x, name, _| {
                if name == "Translation" {
                    let mut t = Translation {
                        from: String::new(),
                        to: String::new(),
                    };
                    each_child(x, |x, name, _| {
                        match name {
                            "From" => t.from = x.text()?,
                            "To" => t.to = x.text()?,
                            _ => {}
                        }
                        Ok(())
                    })?;
                    r.translation_set.push(t);
                }
                Ok(())
            })?,
            "ERROR" => {
                if let Some(t) = non_empty(x.text()?) {
                    r.errors.push(t);
                }
            }
            "ErrorList" => each_child(x, |x, name, _| {
                let list = match name {
                    "PhraseNotFound" => &mut r.error_list.phrases_not_found,
                    "FieldNotFound" => &mut r.error_list.fields_not_found,
                    _ => return Ok(()),
                };
                list.push(x.text()?);
                Ok(())
            })?,
            "WarningList" => each_child(x, |x, name, _| {
                let list = match name {
                    "PhraseIgnored" => &mut r.warnings.phrases_ignored,
                    "QuotedPhraseNotFound" => &mut r.warnings.quoted_phrases_not_found,
                    "OutputMessage" => &mut r.warnings.output_messages,
                    _ => return Ok(()),
                };
                list.push(x.text()?);
                Ok(())
            })?,
            // TranslationStack is the parsed query tree; the translation text says the same.
            _ => {}
        }
        Ok(())
    })?;
    Ok(r)
}

/// Parses an esearch reply in JSON (retmode=json).
pub fn parse_esearch_json(bytes: &[u8]) -> Result<EsearchResult, ParseError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| unexpected("an ESearch JSON reply", format!("invalid JSON: {e}")))?;
    let Some(s) = v.get("esearchresult").and_then(Value::as_object) else {
        return Err(
            body_error(bytes, Some("application/json")).unwrap_or_else(|| {
                unexpected(
                    "an ESearch JSON reply",
                    "it has no \"esearchresult\" object",
                )
            }),
        );
    };
    let mut r = EsearchResult {
        count: json_count(s.get("count")).unwrap_or(0),
        retmax: json_count(s.get("retmax")).unwrap_or(0),
        retstart: json_count(s.get("retstart")).unwrap_or(0),
        ids: json_strings(s.get("idlist")),
        webenv: json_text(s.get("webenv")).and_then(non_empty),
        query_key: json_text(s.get("querykey")).and_then(non_empty),
        query_translation: json_text(s.get("querytranslation")),
        ..EsearchResult::default()
    };
    if let Some(Value::Array(set)) = s.get("translationset") {
        for t in set {
            r.translation_set.push(Translation {
                from: json_text(t.get("from")).unwrap_or_default(),
                to: json_text(t.get("to")).unwrap_or_default(),
            });
        }
    }
    for key in ["ERROR", "error"] {
        if let Some(t) = json_text(s.get(key)).and_then(non_empty) {
            r.errors.push(t);
        }
    }
    if let Some(e) = s.get("errorlist") {
        r.error_list.phrases_not_found = json_strings(e.get("phrasesnotfound"));
        r.error_list.fields_not_found = json_strings(e.get("fieldsnotfound"));
    }
    if let Some(w) = s.get("warninglist") {
        r.warnings.phrases_ignored = json_strings(w.get("phrasesignored"));
        r.warnings.quoted_phrases_not_found = json_strings(w.get("quotedphrasesnotfound"));
        r.warnings.output_messages = json_strings(w.get("outputmessages"));
    }
    Ok(r)
}

fn non_empty(s: String) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}
