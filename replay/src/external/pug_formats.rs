//! PUG REST's other output formats, as the replay writes them: CSV and TXT property tables,
//! TXT and XML identifier lists, and a Fault in the format the request asked for.
//!
//! PubChem answers a request in the format named by its path's last segment, errors
//! included (S, Output: "a <Fault> tag in XML"); the replay does the same so a client that
//! asks for XML or CSV meets XML or text faults, not JSON.

use crate::external::server::Reply;
use serde_json::Value;

/// The output segment of a PUG REST path (`.../cids/XML` → `XML`).
pub fn output_of(path: &str) -> &str {
    path.trim_end_matches('/').rsplit('/').next().unwrap_or("")
}

/// A JSON Fault reply rewritten in `output` (XML, or the `Code:`/`Message:` lines of text formats).
pub fn fault_as(reply: Reply, output: &str) -> Reply {
    if reply.content_type != "application/json" || !matches!(output, "XML" | "TXT" | "CSV" | "SDF")
    {
        return reply;
    }
    let Ok(v) = serde_json::from_slice::<Value>(&reply.body) else {
        return reply;
    };
    let Some(f) = v.get("Fault") else {
        return reply;
    };
    let code = f["Code"].as_str().unwrap_or("PUGREST.Unknown");
    let message = f["Message"].as_str().unwrap_or("");
    if output == "XML" {
        let body = format!(
            "<?xml version=\"1.0\"?>\n<Fault xmlns=\"http://pubchem.ncbi.nlm.nih.gov/pug_rest\">\n  <Code>{code}</Code>\n  <Message>{message}</Message>\n</Fault>\n"
        );
        return Reply::body(reply.status, "application/xml", body);
    }
    let body = format!(
        "Status: {}\nCode: {code}\nMessage: {message}\n",
        reply.status
    );
    Reply::body(reply.status, "text/plain", body)
}

fn cell(v: &Value) -> String {
    match v {
        Value::String(s) if s.contains([',', '"']) => format!("\"{}\"", s.replace('"', "\"\"")),
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A property table as CSV: a header row, then one row per CID.
pub fn properties_csv(rows: &[Value], names: &[&str]) -> Reply {
    let mut out = format!(
        "\"CID\",{}\n",
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in rows {
        let mut line = vec![cell(&r["CID"])];
        line.extend(names.iter().map(|n| cell(&r[*n])));
        out.push_str(&line.join(","));
        out.push('\n');
    }
    Reply::body(200, "text/csv", out)
}

/// One value per line: a TXT list of CIDs or of one property.
pub fn lines(values: impl Iterator<Item = String>) -> Reply {
    let mut out: String = values.collect::<Vec<_>>().join("\n");
    out.push('\n');
    Reply::body(200, "text/plain", out)
}

/// An `IdentifierList` of CIDs as PUG REST XML.
pub fn cids_xml(cids: &[u64]) -> Reply {
    let items: String = cids.iter().map(|c| format!("  <CID>{c}</CID>\n")).collect();
    Reply::body(
        200,
        "application/xml",
        format!("<?xml version=\"1.0\"?>\n<IdentifierList xmlns=\"http://pubchem.ncbi.nlm.nih.gov/pug_rest\">\n{items}</IdentifierList>\n"),
    )
}
