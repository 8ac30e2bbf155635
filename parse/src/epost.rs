//! EPost replies: the history-server handle for a posted id list.
//!
//! EPost exists to produce a WebEnv and QueryKey, so a reply without them is
//! a failure even though NCBI sends it with status 200: `<ERROR>Invalid db
//! name specified: nothing</ERROR>`, or "Empty ID list; Nothing to store"
//! when every id was rejected. Those become an `ncbi_error` that quotes NCBI
//! and says what to change. When some ids were stored and others dropped, the
//! handle is returned with the dropped ids and NCBI's message as warnings.

use crate::body_errors::ncbi_error;
use crate::envelope::{each_child, root};
use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use serde::Serialize;

const WHAT: &str = "an EPost reply";

/// The history handle epost created.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EpostResult {
    /// History server session.
    pub webenv: String,
    /// Key of the posted set within the session.
    pub query_key: String,
    /// Ids NCBI refused (InvalidIdList).
    pub invalid_ids: Vec<String>,
    /// NCBI's `<ERROR>` messages when the post still succeeded in part.
    pub warnings: Vec<String>,
}

/// Parses an epost XML reply; a reply without a WebEnv is an error.
pub fn parse_epost(bytes: &[u8]) -> Result<EpostResult, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let top = root(&mut x, WHAT)?;
    if top == "ERROR" {
        return Err(ncbi_error(&[x.text()?]));
    }
    if top != "ePostResult" {
        return Err(unexpected(WHAT, format!("the root element is <{top}>")));
    }
    let (mut webenv, mut query_key) = (String::new(), String::new());
    let mut invalid_ids = Vec::new();
    let mut errors = Vec::new();
    each_child(&mut x, |x, name, _| {
        match name {
            "WebEnv" => webenv = x.text()?,
            "QueryKey" => query_key = x.text()?,
            "InvalidIdList" => each_child(x, |x, name, _| {
                if name == "Id" {
                    invalid_ids.push(x.text()?);
                }
                Ok(())
            })?,
            "ERROR" => {
                let t = x.text()?;
                if !t.is_empty() {
                    errors.push(t);
                }
            }
            _ => {}
        }
        Ok(())
    })?;
    if webenv.is_empty() || query_key.is_empty() {
        if errors.is_empty() {
            return Err(unexpected(WHAT, "it has no WebEnv and QueryKey"));
        }
        let mut e = ncbi_error(&errors);
        if !invalid_ids.is_empty() {
            e.message.push_str(&format!(
                " NCBI rejected these ids: {}.",
                invalid_ids.join(", ")
            ));
        }
        return Err(e);
    }
    Ok(EpostResult {
        webenv,
        query_key,
        invalid_ids,
        warnings: errors,
    })
}
