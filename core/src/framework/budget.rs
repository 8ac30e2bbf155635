//! Keeping every result within the caller's `max_characters`, and naming each cut.
//!
//! Two steps, both here. A tool that returns a list of records or rows fits
//! the list with [`fit`]: the longest run of whole records whose text block
//! and structuredContent each stay within the budget, a lone record cut only
//! when it alone is too long, and [`left_out`] names the rest with the call
//! that returns them. Then, for every tool, [`enforce`] holds the line on the
//! finished result: text past the budget is cut at a line, and the largest
//! lists and strings of structuredContent are shortened until it fits, each
//! cut named in a `results_cut` warning. Sizes are characters, as a model's
//! context counts them, and structuredContent is measured as serialized JSON.

use crate::framework::content::Content;
use crate::framework::view::{Detail, View, DEFAULT_MAX_CHARACTERS};
use crate::framework::ToolOutput;
use crate::json;
use crate::validation::codes;
use serde_json::{Map, Value};

/// What a caller can do about a cut.
const NARROW: &str =
    " Narrow the call (fewer ids, detail brief, fields), page it, or raise max_characters (up to 200000).";

/// The serialized size of `v`, in characters.
pub fn json_chars(v: &Value) -> usize {
    serde_json::to_string(v).map_or(0, |s| s.chars().count())
}

/// Room left for the records once the result's own lines (counts, warnings, hints) are written.
pub fn room(budget: usize) -> usize {
    budget - (budget / 5).clamp(800, 4_000)
}

/// A list fitted to the budget.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The result with the records that fit.
    pub structured: Value,
    /// Its text block.
    pub text: String,
    /// How many records it holds.
    pub shown: usize,
    /// How many there were.
    pub total: usize,
    /// Whether the one record shown was cut to fit.
    pub cut_first: bool,
}

impl Fitted {
    /// The result and its text, moved out; the counts stay for [`left_out`].
    pub fn take(&mut self) -> (Value, String) {
        (
            std::mem::take(&mut self.structured),
            std::mem::take(&mut self.text),
        )
    }
}

/// Fits a list of `total` records: `build(k)` writes the result with the first `k`.
///
/// Both blocks grow with `k`, so the longest fitting run is found by bisection,
/// a few builds whatever the list's length.
pub fn fit(total: usize, budget: usize, mut build: impl FnMut(usize) -> (Value, String)) -> Fitted {
    // One body for every caller (each passes its own closure): the Worker's bundle is small.
    fit_with(total, budget, &mut build)
}

fn fit_with(
    total: usize,
    budget: usize,
    build: &mut dyn FnMut(usize) -> (Value, String),
) -> Fitted {
    let limit = room(budget);
    let fits = |(s, t): &(Value, String)| t.chars().count() <= limit && json_chars(s) <= limit;
    let whole = build(total);
    if fits(&whole) {
        return Fitted {
            structured: whole.0,
            text: whole.1,
            shown: total,
            total,
            cut_first: false,
        };
    }
    let (mut lo, mut hi) = (0, total);
    let mut best = None;
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let made = build(mid);
        if fits(&made) {
            lo = mid;
            best = Some(made);
        } else {
            hi = mid - 1;
        }
    }
    if lo > 0 {
        let (structured, text) = best.unwrap_or_else(|| build(lo));
        return Fitted {
            structured,
            text,
            shown: lo,
            total,
            cut_first: false,
        };
    }
    // The first record alone is longer than the budget: it is cut, and marked.
    let (mut structured, text) = build(total.min(1));
    shrink(&mut structured, limit);
    Fitted {
        text: cut_text(&text, limit),
        structured,
        shown: total.min(1),
        total,
        cut_first: total > 0,
    }
}

/// The first of `ids` a next call may carry within `budget`: all of them at any usual
/// budget, fewer at a small one (the call after returns the next ones, and so on).
pub fn next_ids(ids: &[String], budget: usize) -> &[String] {
    // Within the room `room` keeps for a result's own lines, whatever the budget.
    let room = (budget / 40).min(1_000);
    let mut used = 0;
    let n = ids
        .iter()
        .take_while(|id| {
            used += id.len() + 3;
            used <= room
        })
        .count();
    &ids[..n.max(1).min(ids.len())]
}

/// Names what a fitted list left out: `ids` of the records not shown (as many as are known),
/// `noun` what they are, and `next_call` the call that returns them (or, at a small budget,
/// the first of them: see [`next_ids`]).
pub fn left_out(
    mut out: ToolOutput,
    fitted: &Fitted,
    budget: usize,
    noun: &str,
    ids: &[String],
    next_call: Option<Value>,
) -> ToolOutput {
    let left = fitted.total - fitted.shown;
    if left == 0 && !fitted.cut_first {
        return out;
    }
    let mut message = if left > 0 {
        format!(
            "{} of {} {noun} fit in max_characters {budget}; {left} left out",
            fitted.shown, fitted.total
        )
    } else {
        format!("The {noun} shown is longer than max_characters {budget} on its own and was cut")
    };
    if !ids.is_empty() {
        message.push_str(&format!(": {}", listed(ids, (budget / 40).min(400))));
    }
    message.push('.');
    if left > 0 && fitted.cut_first {
        message
            .push_str(" The first shown was longer than the budget on its own and was cut to fit.");
    }
    match &next_call {
        Some(call) => {
            let written = next_call_text(call);
            let carried = call["arguments"]["ids"]
                .as_array()
                .map_or(ids.len(), Vec::len);
            if written.chars().count() <= (budget / 20).min(600) {
                message.push_str(&format!(" Next: {written}"));
            } else if carried < ids.len() {
                message.push_str(&format!(
                    " Next: the call in budget.next_call, for the first {carried} of them (its result names the next)."
                ));
            } else {
                message.push_str(" Next: the call in budget.next_call.");
            }
        }
        None if fitted.cut_first => message.push_str(NARROW),
        None => {}
    }
    let listed_ids = next_ids(ids, budget);
    if let Value::Object(map) = &mut out.structured {
        map.insert(
            "budget".into(),
            json!({
                "max_characters": budget, "shown": fitted.shown, "left_out": left,
                "left_out_ids": listed_ids, "record_cut": fitted.cut_first, "next_call": next_call,
            }),
        );
    }
    out.coded_warnings
        .push(json!({"code": codes::RESULTS_CUT, "path": "$.max_characters", "message": message}));
    out
}

/// "a, b, c and 12 more", within about `chars` characters (one id at least).
fn listed(ids: &[String], chars: usize) -> String {
    let mut out = String::new();
    for (i, id) in ids.iter().enumerate() {
        if !out.is_empty() && out.len() + id.len() > chars {
            return format!("{out} and {} more", ids.len() - i);
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(id);
    }
    out
}

/// The call that returns what was left out: `tool` with `arguments`, plus the caller's view
/// wherever it differs from the defaults.
pub fn next_call(tool: &str, mut arguments: Map<String, Value>, view: &View) -> Value {
    if view.detail != Detail::default() {
        arguments.insert("detail".into(), json!(view.detail.name()));
    }
    if !view.fields.is_empty() {
        arguments.insert("fields".into(), json!(view.fields));
    }
    if view.max_characters != DEFAULT_MAX_CHARACTERS {
        arguments.insert("max_characters".into(), json!(view.max_characters));
    }
    json!({"tool": tool, "arguments": arguments})
}

/// A next call as a model would write it: `tool {arguments}`.
pub fn next_call_text(call: &Value) -> String {
    format!(
        "{} {}",
        call["tool"].as_str().unwrap_or(""),
        call["arguments"]
    )
}

/// Cuts `text` to `limit` characters at a line end where one is near, and marks the cut.
pub fn cut_text(text: &str, limit: usize) -> String {
    let total = text.chars().count();
    if total <= limit {
        return text.to_string();
    }
    let mark = |shown: usize| format!("\n[cut at {shown} of {total} characters: max_characters]");
    let keep = limit.saturating_sub(mark(total).chars().count());
    let head: String = text.chars().take(keep).collect();
    // Back to the last line end when it is close, so no line is left half written.
    let head = match head.rfind('\n') {
        Some(i) if i * 10 >= head.len() * 9 => head[..i].to_string(),
        _ => head,
    };
    let shown = head.chars().count();
    head + &mark(shown)
}

/// Shortens the largest lists and strings of `v` until it serializes within `limit`
/// characters; returns each cut as "$.path: what".
pub fn shrink(v: &mut Value, limit: usize) -> Vec<String> {
    let mut cuts = Vec::new();
    // Each round halves (at least) the largest part; a few dozen rounds reach any limit.
    for _ in 0..64 {
        let size = json_chars(v);
        if size <= limit {
            break;
        }
        let excess = size - limit;
        let Some(path) = largest(v, String::from("$")) else {
            // Nothing long is left: as a last resort, the records' empty fields go (a null
            // says no more than an absent field does).
            let dropped = drop_nulls(v);
            if dropped == 0 {
                break;
            }
            cuts.push(format!("{dropped} empty fields of records left out"));
            continue;
        };
        let Some(node) = at(v, &path) else { break };
        match node {
            Value::Array(items) => {
                let before = items.len();
                let mut freed = 0;
                while items.len() > 1 && freed < excess {
                    freed += items.pop().map_or(0, |i| json_chars(&i) + 1);
                }
                cuts.push(format!("{path}: {} of {before} items kept", items.len()));
            }
            Value::String(s) => {
                let chars = s.chars().count();
                let keep = chars.saturating_sub(excess + 40).max(chars.min(80) / 2);
                let head: String = s.chars().take(keep).collect();
                *s = format!("{head}… [cut: {keep} of {chars} characters]");
                cuts.push(format!("{path}: {keep} of {chars} characters kept"));
            }
            _ => break,
        }
    }
    cuts
}

/// Removes the null fields of objects inside lists (records, rows as objects), outside
/// `budget` and `call_warnings`; returns how many went.
fn drop_nulls(v: &mut Value) -> usize {
    fn inside(v: &mut Value, in_list: bool) -> usize {
        match v {
            Value::Array(items) => items.iter_mut().map(|x| inside(x, true)).sum(),
            Value::Object(map) => {
                let before = map.len();
                if in_list {
                    map.retain(|_, x| !x.is_null());
                }
                before - map.len() + map.values_mut().map(|x| inside(x, in_list)).sum::<usize>()
            }
            _ => 0,
        }
    }
    match v {
        Value::Object(map) => map
            .iter_mut()
            .filter(|(k, _)| *k != "budget" && *k != "call_warnings")
            .map(|(_, x)| inside(x, false))
            .sum(),
        _ => 0,
    }
}

/// What a cut never touches, at any depth: a record's `integrity` (a retraction is never
/// cut away) and a result's `flagged`.
const NEVER_CUT: &[&str] = &["integrity", "flagged"];

/// The path of the largest list (of two items or more) or long string in `v`, outside
/// what names the cuts already made (`budget`, `call_warnings`, so a next call is never
/// cut) and outside [`NEVER_CUT`].
fn largest(v: &Value, path: String) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k != "budget" && k != "call_warnings" {
                    walk(x, format!("{path}.{k}"), &mut best);
                }
            }
        }
        other => {
            walk(other, path, &mut best);
        }
    }
    best.map(|(_, p)| p)
}

fn walk(v: &Value, path: String, best: &mut Option<(usize, String)>) -> usize {
    let size = match v {
        Value::Array(items) => {
            let inner: usize = items
                .iter()
                .enumerate()
                .map(|(i, x)| walk(x, format!("{path}[{i}]"), best) + 1)
                .sum();
            if items.len() > 1 {
                consider(best, inner, &path);
            }
            inner + 1
        }
        Value::Object(map) => {
            map.iter()
                .map(|(k, x)| {
                    let inner = if NEVER_CUT.contains(&k.as_str()) {
                        json_chars(x)
                    } else {
                        walk(x, format!("{path}.{k}"), best)
                    };
                    inner + k.len() + 4
                })
                .sum::<usize>()
                + 1
        }
        Value::String(s) => {
            let n = s.chars().count();
            if n > 120 {
                consider(best, n, &path);
            }
            n + 2
        }
        other => other.to_string().len(),
    };
    size
}

fn consider(best: &mut Option<(usize, String)>, size: usize, path: &str) {
    // Strictly larger: among equals, the first (outermost) wins.
    if best.as_ref().is_none_or(|(b, _)| size > *b) {
        *best = Some((size, path.to_string()));
    }
}

/// The node at a path written by [`walk`].
fn at<'a>(v: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut node = v;
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let i: usize = r[..end].parse().ok()?;
            node = node.get_mut(i)?;
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            node = node.get_mut(&r[..end])?;
            rest = &r[end..];
        } else {
            return None;
        }
    }
    Some(node)
}

/// The characters of a result's text blocks that count against the budget.
fn text_chars(out: &ToolOutput) -> usize {
    out.text.chars().count()
        + out
            .extra
            .iter()
            .filter_map(Content::text_of)
            .map(|t| t.chars().count())
            .sum::<usize>()
}

/// Holds a finished result to `budget`, where `reserved` characters of each block go to the
/// warnings still to be added; every cut is named in a `results_cut` warning.
pub fn enforce(mut out: ToolOutput, budget: usize, reserved: usize) -> ToolOutput {
    let fits = |out: &ToolOutput| {
        text_chars(out) + reserved <= budget && json_chars(&out.structured) + reserved <= budget
    };
    if fits(&out) {
        return out;
    }
    // Room for this cut's own warning too.
    let limit = budget.saturating_sub(reserved + 600).max(budget / 4);
    let mut cuts = Vec::new();
    let text = text_chars(&out);
    if text > limit {
        let others = text - out.text.chars().count();
        if others > limit / 4 {
            // Hints are the first thing to go: they only repeat what the warnings say.
            out.extra.retain(|c| c.text_of().is_none());
        }
        let room = limit.saturating_sub(text_chars(&out) - out.text.chars().count());
        out.text = cut_text(&out.text, room);
        cuts.push(format!("text: {room} of {text} characters kept"));
    }
    cuts.extend(shrink(&mut out.structured, limit));
    if cuts.is_empty() {
        return out;
    }
    let mut message = format!("Cut to fit max_characters {budget}: {}", cuts.join("; "));
    if message.chars().count() > 400 {
        message = message.chars().take(397).collect::<String>() + "...";
    }
    message.push('.');
    message.push_str(NARROW);
    out.with_warning(codes::RESULTS_CUT, "$.max_characters", message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize, each: usize) -> (Value, String) {
        let records: Vec<Value> = (0..n)
            .map(|i| json!({"id": i, "text": "x".repeat(each)}))
            .collect();
        let text = records
            .iter()
            .map(|r| format!("{}: {}", r["id"], r["text"].as_str().unwrap()))
            .collect::<Vec<_>>()
            .join("\n");
        (json!({"records": records, "count": n}), text)
    }

    #[test]
    fn a_list_that_fits_is_whole() {
        let f = fit(20, 60_000, |k| list(k, 2_000));
        assert_eq!((f.shown, f.total, f.cut_first), (20, 20, false));
    }

    #[test]
    fn the_longest_fitting_run_is_kept_whole() {
        let f = fit(50, 20_000, |k| list(k, 2_000));
        // room(20,000) is 16,000: seven records of about 2,030 characters.
        assert_eq!(f.shown, 7);
        assert!(json_chars(&f.structured) <= room(20_000));
        assert!(f.text.chars().count() <= room(20_000));
        assert_eq!(
            f.structured["records"][6]["text"].as_str().unwrap().len(),
            2_000
        );
    }

    #[test]
    fn a_record_longer_than_the_budget_alone_is_cut_and_marked() {
        let f = fit(3, 5_000, |k| list(k, 50_000));
        assert_eq!((f.shown, f.cut_first), (1, true));
        assert!(json_chars(&f.structured) <= room(5_000));
        assert!(f.text.contains("[cut at"));
        assert!(f.structured["records"][0]["text"]
            .as_str()
            .unwrap()
            .contains("[cut:"));
    }

    #[test]
    fn left_out_names_the_ids_and_the_next_call() {
        let f = fit(50, 20_000, |k| list(k, 2_000));
        let out = ToolOutput::new(f.structured.clone(), f.text.clone());
        let ids: Vec<String> = (7..50).map(|i| i.to_string()).collect();
        let call = json!({"tool": "entrez_query", "arguments": {"operation": "fetch", "ids": ids}});
        let out = left_out(out, &f, 20_000, "records", &ids, Some(call));
        assert_eq!(out.structured["budget"]["left_out"], 43);
        assert_eq!(out.structured["budget"]["left_out_ids"][0], "7");
        let w = &out.coded_warnings[0];
        assert_eq!(w["code"], codes::RESULTS_CUT);
        assert!(w["message"].as_str().unwrap().contains("7 of 50 records"));
        assert_eq!(
            out.structured["budget"]["next_call"]["arguments"]["ids"][0],
            "7"
        );
    }

    #[test]
    fn a_small_budget_carries_the_first_ids_only() {
        let ids: Vec<String> = (0..100).map(|i| format!("9000{i:04}")).collect();
        assert_eq!(next_ids(&ids, 60_000).len(), 90);
        assert_eq!(next_ids(&ids, 2_000).len(), 4);
        assert_eq!(next_ids(&ids[..1], 10).len(), 1);
    }

    #[test]
    fn enforce_bounds_both_blocks_and_names_the_cut() {
        let (s, t) = list(100, 3_000);
        let out = enforce(ToolOutput::new(s, t), 10_000, 0);
        assert!(out.text.chars().count() <= 10_000);
        assert!(json_chars(&out.structured) <= 10_000);
        assert_eq!(out.coded_warnings[0]["code"], codes::RESULTS_CUT);
        assert!(out.coded_warnings[0]["message"]
            .as_str()
            .unwrap()
            .contains("$.records"));
    }

    #[test]
    fn shrink_cuts_the_largest_string_when_no_list_is_long() {
        let mut v = json!({"raw": "y".repeat(10_000), "n": 1});
        let cuts = shrink(&mut v, 2_000);
        assert!(json_chars(&v) <= 2_000);
        assert_eq!(cuts.len(), 1);
        assert!(cuts[0].starts_with("$.raw"));
    }

    #[test]
    fn shrink_never_cuts_what_names_the_rest() {
        let mut v = json!({"records": ["r".repeat(3_000), "s".repeat(3_000)],
            "budget": {"next_call": {"arguments": {"sql": "q".repeat(2_000)}}}});
        shrink(&mut v, 3_000);
        assert_eq!(
            v["budget"]["next_call"]["arguments"]["sql"]
                .as_str()
                .unwrap()
                .len(),
            2_000
        );
        assert_eq!(v["records"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn cut_text_ends_at_a_line_and_says_so() {
        let text = (0..1000)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let cut = cut_text(&text, 500);
        assert!(cut.chars().count() <= 500);
        assert!(cut.ends_with("characters: max_characters]"));
        assert!(cut.lines().rev().nth(1).unwrap().starts_with("line "));
    }
}
