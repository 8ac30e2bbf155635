//! Building E-utilities requests as data.
//!
//! A request is a utility plus ordered parameters. [`EutilsRequest::build`]
//! adds NCBI's identification (`tool`, `email`, `api_key`) and picks the
//! method: NCBI asks for POST once a request carries 200 or more ids, and long
//! query strings are fragile through proxies, so anything over about 1,000
//! characters of parameters goes as a form body too.

use crate::net::{form_encode, HttpCall, Method};
use crate::secret::ApiKey;

/// Parameter length above which the request is POSTed.
pub const POST_PARAM_CHARS: usize = 1000;
/// Id count from which the request is POSTed, as NCBI recommends.
pub const POST_ID_COUNT: usize = 200;
/// Per-request timeout for E-utilities calls.
pub const EUTILS_TIMEOUT_MS: u64 = 30_000;

/// The E-utilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Utility {
    /// Database statistics and fields.
    Info,
    /// Text search.
    Search,
    /// Document summaries.
    Summary,
    /// Full records.
    Fetch,
    /// Links between databases.
    Link,
    /// Upload ids to the history server.
    Post,
    /// Spelling suggestions.
    Spell,
    /// Citation matching.
    CitMatch,
}

impl Utility {
    /// The most reply bytes one request of this utility may read: generous for what NCBI
    /// legitimately sends (a 500-article PubMed batch is about 9 MB, 100 PMC articles
    /// rarely 30 MB), small enough that a hostile reply cannot take the process down.
    pub fn max_reply_bytes(self) -> u64 {
        const MIB: u64 = 1024 * 1024;
        match self {
            Utility::Fetch => 64 * MIB,
            Utility::Summary => 32 * MIB,
            Utility::Search | Utility::Link | Utility::Post => 16 * MIB,
            Utility::Info | Utility::Spell | Utility::CitMatch => 8 * MIB,
        }
    }

    /// The CGI name under the E-utilities base URL.
    pub fn path(self) -> &'static str {
        match self {
            Utility::Info => "einfo.fcgi",
            Utility::Search => "esearch.fcgi",
            Utility::Summary => "esummary.fcgi",
            Utility::Fetch => "efetch.fcgi",
            Utility::Link => "elink.fcgi",
            Utility::Post => "epost.fcgi",
            Utility::Spell => "espell.fcgi",
            Utility::CitMatch => "ecitmatch.cgi",
        }
    }
}

/// One E-utilities request before identification and method are added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EutilsRequest {
    /// Which utility.
    pub utility: Utility,
    /// Parameters in the order they are sent.
    pub params: Vec<(String, String)>,
    /// Whether a redirect is followed (false only for elink's `retmode=ref`, whose redirect is the answer).
    pub follow_redirects: bool,
}

impl EutilsRequest {
    /// A request with no parameters yet.
    pub fn new(utility: Utility) -> Self {
        EutilsRequest {
            utility,
            params: Vec::new(),
            follow_redirects: true,
        }
    }

    /// The same request, answered by its redirect instead of following it.
    pub fn redirect_is_answer(mut self) -> Self {
        self.follow_redirects = false;
        self
    }

    /// Adds a parameter.
    pub fn param(mut self, name: &str, value: impl Into<String>) -> Self {
        self.params.push((name.to_string(), value.into()));
        self
    }

    /// Adds a parameter when `value` is present.
    pub fn opt(self, name: &str, value: Option<impl Into<String>>) -> Self {
        match value {
            Some(v) => self.param(name, v),
            None => self,
        }
    }

    /// The value of a parameter, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// How many ids the request carries (comma-separated `id` values).
    pub fn id_count(&self) -> usize {
        self.params
            .iter()
            .filter(|(k, _)| k == "id")
            .map(|(_, v)| v.split(',').filter(|s| !s.trim().is_empty()).count())
            .sum()
    }

    /// The HTTP call: base URL + utility, identification added, GET or POST chosen.
    pub fn build(
        &self,
        base_url: &str,
        tool: &str,
        email: Option<&str>,
        api_key: Option<&ApiKey>,
    ) -> HttpCall {
        let mut pairs = self.params.clone();
        pairs.push(("tool".into(), tool.to_string()));
        if let Some(e) = email {
            pairs.push(("email".into(), e.to_string()));
        }
        if let Some(k) = api_key {
            pairs.push(("api_key".into(), k.expose().to_string()));
        }
        let encoded = form_encode(&pairs);
        let url = format!("{}/{}", base_url.trim_end_matches('/'), self.utility.path());
        let post = encoded.len() > POST_PARAM_CHARS || self.id_count() >= POST_ID_COUNT;
        if post {
            HttpCall {
                method: Method::Post,
                url,
                headers: vec![(
                    "Content-Type".into(),
                    "application/x-www-form-urlencoded".into(),
                )],
                body: Some(encoded.into_bytes()),
                timeout_ms: EUTILS_TIMEOUT_MS,
                max_bytes: self.utility.max_reply_bytes(),
                follow_redirects: self.follow_redirects,
            }
        } else {
            HttpCall {
                method: Method::Get,
                url: format!("{url}?{encoded}"),
                headers: Vec::new(),
                body: None,
                timeout_ms: EUTILS_TIMEOUT_MS,
                max_bytes: self.utility.max_reply_bytes(),
                follow_redirects: self.follow_redirects,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";

    #[test]
    fn small_requests_are_get_with_identification_last() {
        let call = EutilsRequest::new(Utility::Search)
            .param("db", "pubmed")
            .param("term", "crispr[tiab]")
            .build(BASE, "entrez-mcp", Some("lab@example.org"), None);
        assert_eq!(call.method, Method::Get);
        assert_eq!(
            call.url,
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?db=pubmed&term=crispr%5Btiab%5D&tool=entrez-mcp&email=lab%40example.org"
        );
        assert!(call.body.is_none());
    }

    #[test]
    fn two_hundred_ids_or_long_params_are_posted() {
        let ids: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
        let call = EutilsRequest::new(Utility::Fetch)
            .param("db", "pubmed")
            .param("id", ids.join(","))
            .build(BASE, "entrez-mcp", None, Some(&ApiKey::new("k3y")));
        assert_eq!(call.method, Method::Post);
        assert_eq!(
            call.url,
            "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi"
        );
        let body = String::from_utf8(call.body.unwrap()).unwrap();
        assert!(body.starts_with("db=pubmed&id=1%2C2%2C3"));
        assert!(body.ends_with("&tool=entrez-mcp&api_key=k3y"));

        let few: Vec<String> = (1..=100).map(|i| i.to_string()).collect();
        let call = EutilsRequest::new(Utility::Summary)
            .param("db", "pubmed")
            .param("id", few.join(","))
            .build(BASE, "t", None, None);
        // 100 short ids fit under the length limit and stay GET.
        assert_eq!(call.method, Method::Get);
        let long_term = "a".repeat(POST_PARAM_CHARS);
        let call = EutilsRequest::new(Utility::Search)
            .param("term", long_term)
            .build(BASE, "t", None, None);
        assert_eq!(call.method, Method::Post);
    }

    #[test]
    fn citmatch_uses_its_cgi_name() {
        let call = EutilsRequest::new(Utility::CitMatch)
            .param("db", "pubmed")
            .param("retmode", "xml")
            .param(
                "bdata",
                "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|",
            )
            .build(BASE, "t", None, None);
        assert!(call.url.starts_with("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/ecitmatch.cgi?db=pubmed&retmode=xml&bdata=proc%20natl"));
    }
}
