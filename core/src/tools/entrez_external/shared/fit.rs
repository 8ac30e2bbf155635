//! PubChem and PMC lookups shaped to the caller's view and fitted to its budget.
//!
//! Every lookup answers with one list of records (compounds, substances,
//! assays, converted ids, citations, BioC articles, OA records); [`listed`]
//! shapes that list with `detail` and `fields`, keeps the longest run that
//! fits `max_characters`, and names the records left out with the call that
//! returns them.

use crate::framework::budget;
use crate::framework::shape;
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolOutput;
use crate::json;
use crate::tools::entrez_external::shared::output::output;
use serde_json::{Map, Value};

/// One result's list: where it sits in the result and what it holds.
pub struct List<'a> {
    /// The key of the list in the result, e.g. `compounds`.
    pub key: &'a str,
    /// How its records are shaped.
    pub kind: Kind,
    /// What the records are called in the warning, e.g. "compounds".
    pub noun: &'a str,
    /// The fields each record keeps whatever `fields` names: those the outputSchema requires.
    pub keep: &'a [&'a str],
    /// Ids left out before the list was made (not fetched: the budget was already spent).
    pub unlisted: &'a [String],
}

/// The result with its list shaped and fitted: `render` writes the text of a result,
/// `next` makes the arguments that return the records with the given ids.
pub fn listed(
    structured: Value,
    list: List<'_>,
    view: &View,
    render: fn(&Value) -> String,
    hint: Option<String>,
    next: impl FnOnce(&[String]) -> Map<String, Value>,
) -> ToolOutput {
    let mut next = Some(next);
    let mut next = |ids: &[String]| next.take().map(|f| f(ids)).unwrap_or_default();
    listed_with(structured, list, view, render, hint, &mut next)
}

fn listed_with(
    mut structured: Value,
    list: List<'_>,
    view: &View,
    render: fn(&Value) -> String,
    hint: Option<String>,
    next: &mut dyn FnMut(&[String]) -> Map<String, Value>,
) -> ToolOutput {
    let records = match structured.get_mut(list.key).map(Value::take) {
        Some(Value::Array(items)) => shape::records_keeping(list.kind, items, view, list.keep),
        _ => Vec::new(),
    };
    let counted = structured
        .get("count")
        .is_some_and(|c| c.as_u64() == Some(records.len() as u64));
    let mut fitted = budget::fit(records.len(), view.max_characters, |k| {
        let mut s = structured.clone();
        s[list.key] = json!(records[..k]);
        if counted {
            json::set(&mut s, "count", json!(k));
        }
        let text = render(&s);
        (s, text)
    });
    let mut left: Vec<String> = records[fitted.shown..]
        .iter()
        .filter_map(|r| shape::id_of(list.kind, r))
        .collect();
    left.extend(list.unlisted.iter().cloned());
    fitted.total += list.unlisted.len();
    let next = (!left.is_empty()).then(|| {
        let ids = budget::next_ids(&left, view.max_characters);
        budget::next_call("entrez_external", next(ids), view)
    });
    let (structured, text) = fitted.take();
    let out = output(structured, text, hint);
    budget::left_out(out, &fitted, view.max_characters, list.noun, &left, next)
}
