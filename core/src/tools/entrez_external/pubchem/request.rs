//! One PUG REST request, typed: the input, the operation, the output and the options.
//!
//! [`PugRequest`] is the documented grammar (`<domain>/<namespace>/<identifiers>/
//! <operation>/<output>?<options>`) with every part checked against
//! [`crate::tools::entrez_external::pubchem::grammar`]. It is read once from a call's arguments, either the
//! structured fields or a `path` as PubChem's own pages write it
//! ([`crate::tools::entrez_external::pubchem::read`]), and then it is the only thing that becomes a URL:
//! [`PugRequest::to_call`] is the one builder every PubChem request goes
//! through, and [`PugRequest::to_value`] is what `validate` shows as
//! `normalized_arguments`.

use crate::json;
use crate::net::{form_encode, HttpCall, Method};
use crate::tools::entrez_external::pubchem::grammar::Ids;
use crate::tools::entrez_external::pubchem::grammar::Namespace;
use crate::tools::entrez_external::pubchem::grammar::Operation;
use crate::tools::entrez_external::pubchem::options;
use crate::tools::entrez_external::shared::service::path_segment;
use serde_json::{Map, Value};

/// Joined identifier lists longer than this travel in a form body.
pub const POST_LIST_CHARS: usize = 800;
/// Identifier text longer than this travels in a form body whatever it contains.
pub const POST_TEXT_CHARS: usize = 400;
/// The boundary of the multipart body an SDF input is sent in.
pub const MULTIPART_BOUNDARY: &str = "entrez-mcp-sdf-boundary";

/// A PUG REST request, every part as PubChem documents it.
#[derive(Debug, Clone, PartialEq)]
pub struct PugRequest {
    /// The input domain (`compound`, `assay`, `sources`, …).
    pub domain: &'static str,
    /// The namespace row, or none (periodictable).
    pub namespace: Option<&'static Namespace>,
    /// The namespace's second segment (`smiles` of `fastsubstructure/smiles`).
    pub second: Option<&'static str>,
    /// The depositor of `sourceid`/`sourceall`.
    pub source: Option<String>,
    /// The identifiers, in order.
    pub identifiers: Vec<String>,
    /// gene/genesymbol's organism segment.
    pub organism: Option<String>,
    /// The operation row ("" for full-record retrieval).
    pub operation: &'static Operation,
    /// The operation's list (property names, xref or target types) or a classification id type.
    pub operation_list: Vec<String>,
    /// `doseresponse/sid` as the grammar writes it.
    pub operation_sid: bool,
    /// The output format, upper case.
    pub output: String,
    /// The options in the order given, under PubChem's spelling, values as sent.
    pub options: Vec<(String, String)>,
}

impl PugRequest {
    /// The namespace as a call writes it (`fastsubstructure/smiles`, `cid`, `substance` for sources).
    pub fn namespace_name(&self) -> Option<String> {
        let n = self.namespace?;
        Some(match (n.name, self.second) {
            ("", Some(s)) => s.to_string(),
            (name, Some(s)) => format!("{name}/{s}"),
            (name, None) => name.to_string(),
        })
        .filter(|s| !s.is_empty())
    }

    /// The operation as a call writes it (`property/MolecularFormula,XLogP`), none for a full record.
    pub fn data(&self) -> Option<String> {
        let name = self.operation.name;
        if self.domain == "classification" {
            return self.operation_list.first().cloned();
        }
        if name.is_empty() {
            return None;
        }
        Some(match (self.operation_list.is_empty(), self.operation_sid) {
            (false, _) => format!("{name}/{}", self.operation_list.join(",")),
            (true, true) => format!("{name}/sid"),
            (true, false) => name.to_string(),
        })
    }

    /// The value of option `name` (PubChem's spelling), when given.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets an option, replacing a value given before.
    pub fn set_option(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.options.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.options.push((name.to_string(), value)),
        }
    }

    /// Whether PubChem answers this request with a ListKey to poll.
    pub fn is_asynchronous(&self) -> bool {
        self.namespace.is_some_and(|n| n.asynchronous)
    }

    /// The form field an identifier travels in when it is POSTed (`cid`, `smiles`, `inchi`).
    fn input_key(&self) -> &'static str {
        match self.namespace {
            Some(n) if !n.second.is_empty() && !n.name.is_empty() => self.second.unwrap_or(n.name),
            Some(n) => n.name,
            None => "",
        }
    }

    /// Whether the identifiers travel in the body: InChI and SDF always (S, Input: "by POST
    /// only"), and anything a path cannot carry safely or that is long.
    pub fn posts_identifiers(&self) -> bool {
        let key = self.input_key();
        if matches!(key, "inchi" | "sdf") {
            return true;
        }
        match self.namespace.map(|n| n.ids) {
            Some(Ids::List | Ids::Numbers) => self.identifiers.join(",").len() > POST_LIST_CHARS,
            Some(Ids::One) => self.identifiers.iter().any(|i| needs_post(i)),
            _ => false,
        }
    }

    /// The path after the base URL, with the identifiers when they travel in it.
    pub fn path(&self, with_identifiers: bool) -> String {
        let mut parts: Vec<String> = vec![self.domain.to_string()];
        if let Some(n) = self.namespace {
            if !n.name.is_empty() {
                parts.push(n.name.to_string());
            }
            if let Some(s) = self.second {
                parts.push(s.to_string());
            }
        }
        if let Some(source) = &self.source {
            // PubChem writes a "/" inside a depositor's name as "." (S, Input: DTP/NCI → DTP.NCI).
            parts.push(path_segment(&source.replace('/', ".")));
        }
        if with_identifiers && !self.identifiers.is_empty() {
            let ids = match self.namespace.map(|n| n.ids) {
                Some(Ids::Range) => self
                    .identifiers
                    .iter()
                    .map(|i| path_segment(i))
                    .collect::<Vec<_>>()
                    .join("/"),
                Some(Ids::SourceAndId) => self
                    .identifiers
                    .iter()
                    .map(|i| path_segment(&i.replace('/', ".")))
                    .collect::<Vec<_>>()
                    .join(","),
                _ => self
                    .identifiers
                    .iter()
                    .map(|i| path_segment(i))
                    .collect::<Vec<_>>()
                    .join(","),
            };
            parts.push(ids);
        }
        if let Some(o) = &self.organism {
            parts.push(path_segment(o));
        }
        if let Some(data) = self.data() {
            for segment in data.split('/') {
                let items: Vec<String> = segment.split(',').map(path_segment).collect();
                parts.push(items.join(","));
            }
        }
        parts.push(self.output.clone());
        parts.join("/")
    }

    /// The HTTP call: GET with everything in the URL, or POST with the identifiers in a form
    /// body (multipart for SDF, as PubChem's tutorial sends it).
    pub fn to_call(&self, base: &str, timeout_ms: u64, max_bytes: u64) -> HttpCall {
        let post = self.posts_identifiers();
        let query = if self.options.is_empty() {
            String::new()
        } else {
            format!("?{}", form_encode(&self.options))
        };
        let url = format!("{}/{}{query}", base.trim_end_matches('/'), self.path(!post));
        let mut call = HttpCall {
            method: Method::Get,
            url,
            headers: Vec::new(),
            body: None,
            timeout_ms,
            max_bytes,
            follow_redirects: true,
        };
        if post {
            let key = self.input_key();
            let value = self.identifiers.join(",");
            call.method = Method::Post;
            if key == "sdf" {
                call.headers = vec![(
                    "Content-Type".into(),
                    format!("multipart/form-data; boundary={MULTIPART_BOUNDARY}"),
                )];
                call.body = Some(multipart(key, &value).into_bytes());
            } else {
                call.headers = vec![(
                    "Content-Type".into(),
                    "application/x-www-form-urlencoded".into(),
                )];
                call.body = Some(form_encode(&[(key.to_string(), value)]).into_bytes());
            }
        }
        call
    }

    /// The request as `normalized_arguments` shows it (structured fields, never a path).
    pub fn to_value(&self) -> Value {
        let mut v = Map::new();
        v.insert("service".into(), json!("pubchem"));
        v.insert("operation".into(), json!("pug_rest"));
        v.insert("domain".into(), json!(self.domain));
        if let Some(n) = self.namespace_name() {
            v.insert("namespace".into(), json!(n));
        }
        if let Some(s) = &self.source {
            v.insert("source".into(), json!(s));
        }
        match self.identifiers.as_slice() {
            [] => {}
            [one]
                if !matches!(
                    self.namespace.map(|n| n.ids),
                    Some(Ids::List | Ids::Numbers | Ids::Range)
                ) =>
            {
                v.insert("identifier".into(), json!(one));
            }
            many => {
                v.insert("identifier".into(), json!(many));
            }
        }
        if let Some(o) = &self.organism {
            v.insert("organism".into(), json!(o));
        }
        if let Some(d) = self.data() {
            v.insert("data".into(), json!(d));
        }
        v.insert("output".into(), json!(self.output));
        if !self.options.is_empty() {
            let options: Map<String, Value> = self
                .options
                .iter()
                .map(|(k, val)| (k.clone(), typed(k, val)))
                .collect();
            v.insert("options".into(), Value::Object(options));
        }
        Value::Object(v)
    }

    /// The tail used to collect an asynchronous result: `<operation>/<output>?<options>` after
    /// `<domain>/listkey/<key>/`.
    pub fn listkey_path(&self, listkey: &str) -> String {
        let domain =
            if self.domain == "compound" || self.domain == "substance" || self.domain == "assay" {
                self.domain
            } else {
                "compound"
            };
        let data = self.data().unwrap_or_default();
        let op = if data.is_empty() {
            String::new()
        } else {
            format!("{data}/")
        };
        format!(
            "{domain}/listkey/{}/{op}{}",
            path_segment(listkey),
            self.output
        )
    }
}

/// An option's value in its JSON type, for `normalized_arguments`.
pub fn typed(name: &str, value: &str) -> Value {
    match options::option(name).map(|o| o.kind) {
        Some(options::Kind::Bool) => json!(value == "true"),
        Some(options::Kind::Int(_)) => value
            .parse::<u64>()
            .map(|n| json!(n))
            .unwrap_or_else(|_| json!(value)),
        _ => json!(value),
    }
}

/// Whether text must travel in a form body rather than the path.
pub fn needs_post(text: &str) -> bool {
    text.len() > POST_TEXT_CHARS
        || text.chars().any(|c| {
            matches!(c, '/' | '#' | '?' | '%' | '\\' | '+' | ',')
                || c.is_whitespace()
                || !c.is_ascii()
                || c.is_ascii_control()
        })
}

/// A `multipart/form-data` body with one field (CR LF line ends, as the tutorial shows).
fn multipart(name: &str, value: &str) -> String {
    format!(
        "--{MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\nContent-Type: text/plain\r\n\r\n{value}\r\n--{MULTIPART_BOUNDARY}--\r\n"
    )
}
