//! Server configuration, read under the same names on both edges.
//!
//! The Worker reads Worker vars and secrets; the native binary reads the
//! process environment. Both hand a lookup function to [`Config::from_lookup`],
//! so the defaults and the parsing live in one place.

use crate::secret::ApiKey;

/// Default E-utilities base URL.
pub const DEFAULT_EUTILS_BASE_URL: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";
/// Default PubChem PUG REST base URL.
pub const DEFAULT_PUBCHEM_BASE_URL: &str = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/";
/// Default PMC ID Converter API URL.
pub const DEFAULT_PMC_IDCONV_URL: &str =
    "https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/";
/// Default PMC Cloud Service bucket URL (HTTPS; the bucket `pmc-oa-opendata`).
pub const DEFAULT_PMC_CLOUD_URL: &str = "https://pmc-oa-opendata.s3.amazonaws.com/";
/// Default PMC OA web service URL (retired by NCBI in August 2026; kept for mirrors).
pub const DEFAULT_PMC_OA_URL: &str = "https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi";
/// Default literature citation exporter URL.
pub const DEFAULT_PMC_CTXP_URL: &str = "https://pmc.ncbi.nlm.nih.gov/api/ctxp/v1/";
/// Default BioC API (PMC Open Access full text) URL.
pub const DEFAULT_PMC_BIOC_URL: &str =
    "https://www.ncbi.nlm.nih.gov/research/bionlp/RESTful/pmcoa.cgi/";
/// Default NIH iCite base URL (its API is `/api/pubs` under it).
pub const DEFAULT_ICITE_URL: &str = "https://icite.od.nih.gov";
/// Default `tool` parameter sent to NCBI.
pub const DEFAULT_NCBI_TOOL: &str = "entrez-mcp";
/// Hosts accepted in the `Host` header when `ALLOWED_HOSTS` is not set.
pub const DEFAULT_ALLOWED_HOSTS: &[&str] = &["localhost", "127.0.0.1", "[::1]"];
/// How long an MCP session stays valid, by default (24 hours).
pub const DEFAULT_SESSION_TTL_SECS: u64 = 24 * 60 * 60;

/// Every setting the server reads, after defaults are applied.
#[derive(Debug, Clone)]
pub struct Config {
    /// `NCBI_API_KEY`: the server's own key, never shown.
    pub api_key: Option<ApiKey>,
    /// `NCBI_EMAIL`: contact address NCBI asks every tool to send.
    pub email: Option<String>,
    /// `NCBI_TOOL`: tool name NCBI asks every tool to send.
    pub tool: String,
    /// `EUTILS_BASE_URL`.
    pub eutils_base_url: String,
    /// `PUBCHEM_BASE_URL`.
    pub pubchem_base_url: String,
    /// `PMC_IDCONV_URL`.
    pub pmc_idconv_url: String,
    /// `PMC_OA_URL`: the retired OA web service, or a mirror of it (date listings only).
    pub pmc_oa_url: String,
    /// `PMC_CLOUD_URL`: PMC's Cloud Service bucket (article versions, metadata, JATS).
    pub pmc_cloud_url: String,
    /// `PMC_CTXP_URL`.
    pub pmc_ctxp_url: String,
    /// `PMC_BIOC_URL`.
    pub pmc_bioc_url: String,
    /// `ICITE_URL`: NIH iCite (citation metrics and links), without a trailing slash.
    pub icite_url: String,
    /// `ALLOWED_ORIGINS`: browser origins allowed besides localhost ones; `*` allows any.
    pub allowed_origins: Vec<String>,
    /// `ALLOWED_HOSTS`: accepted `Host` header names; `*.suffix` patterns allowed.
    pub allowed_hosts: Vec<String>,
    /// `MCP_SESSION_SECRET`: key that signs session ids, so any instance can verify them.
    pub session_secret: Option<ApiKey>,
    /// `MCP_SESSION_TTL_SECS`: session lifetime.
    pub session_ttl_secs: u64,
    /// `ENTREZ_UPSTREAM_TIMEOUT_MS`: the time one upstream attempt may take, headers and
    /// body together, in place of each service's own (30 s E-utilities and PMC, 35 s PubChem).
    pub upstream_timeout_ms: Option<u64>,
    /// `ENTREZ_WEBSITE_URL`: the page `serverInfo.websiteUrl` points to; by default the
    /// E-utilities documentation, the service this server puts in an assistant's hands.
    pub website_url: String,
    /// `ENTREZ_PACING_TRACE`: each upstream request carries an `X-Entrez-Pacing` header with
    /// its slot and when it was asked for, granted and sent, for the pacing benchmark's
    /// stand-in NCBI to read. A diagnostic; off unless set to `1`.
    pub pacing_trace: bool,
    /// `ENTREZ_CACHE`, `ENTREZ_CACHE_MAX_BYTES`, `ENTREZ_CACHE_TTL_SCALE`: the cache of
    /// upstream answers each edge builds ([`crate::net::cache`]).
    pub cache: crate::net::cache::CacheSettings,
    /// Who may call over HTTP, and what anonymous callers may spend (see [`crate::auth`]);
    /// open unless an edge reads `MCP_AUTH_*` into it.
    pub auth: crate::auth::AuthConfig,
}

/// The default `serverInfo.websiteUrl`: NCBI's E-utilities book.
pub const DEFAULT_WEBSITE_URL: &str = "https://www.ncbi.nlm.nih.gov/books/NBK25501/";

impl Config {
    /// Builds the configuration from a name → value lookup; empty values count as unset.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Config {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let list = |name: &str| -> Option<Vec<String>> {
            get(name).map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
        };
        Config {
            api_key: get("NCBI_API_KEY").map(ApiKey::new),
            email: get("NCBI_EMAIL"),
            tool: get("NCBI_TOOL").unwrap_or_else(|| DEFAULT_NCBI_TOOL.to_string()),
            eutils_base_url: get("EUTILS_BASE_URL")
                .unwrap_or_else(|| DEFAULT_EUTILS_BASE_URL.to_string()),
            pubchem_base_url: get("PUBCHEM_BASE_URL")
                .unwrap_or_else(|| DEFAULT_PUBCHEM_BASE_URL.to_string()),
            pmc_idconv_url: get("PMC_IDCONV_URL")
                .unwrap_or_else(|| DEFAULT_PMC_IDCONV_URL.to_string()),
            pmc_oa_url: get("PMC_OA_URL").unwrap_or_else(|| DEFAULT_PMC_OA_URL.to_string()),
            pmc_cloud_url: get("PMC_CLOUD_URL")
                .map(|u| format!("{}/", u.trim_end_matches('/')))
                .unwrap_or_else(|| DEFAULT_PMC_CLOUD_URL.to_string()),
            pmc_ctxp_url: get("PMC_CTXP_URL").unwrap_or_else(|| DEFAULT_PMC_CTXP_URL.to_string()),
            pmc_bioc_url: get("PMC_BIOC_URL").unwrap_or_else(|| DEFAULT_PMC_BIOC_URL.to_string()),
            icite_url: get("ICITE_URL")
                .map(|u| u.trim_end_matches('/').to_string())
                .unwrap_or_else(|| DEFAULT_ICITE_URL.to_string()),
            allowed_origins: list("ALLOWED_ORIGINS").unwrap_or_default(),
            allowed_hosts: list("ALLOWED_HOSTS").unwrap_or_else(|| {
                DEFAULT_ALLOWED_HOSTS
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            }),
            session_secret: get("MCP_SESSION_SECRET").map(ApiKey::new),
            session_ttl_secs: get("MCP_SESSION_TTL_SECS")
                .and_then(|v| v.parse().ok())
                .filter(|v| *v > 0)
                .unwrap_or(DEFAULT_SESSION_TTL_SECS),
            upstream_timeout_ms: get("ENTREZ_UPSTREAM_TIMEOUT_MS")
                .and_then(|v| v.parse().ok())
                .filter(|v| *v > 0),
            website_url: get("ENTREZ_WEBSITE_URL")
                .filter(|u| u.starts_with("https://"))
                .unwrap_or_else(|| DEFAULT_WEBSITE_URL.to_string()),
            pacing_trace: get("ENTREZ_PACING_TRACE").as_deref() == Some("1"),
            cache: crate::net::cache::CacheSettings::from_lookup(get),
            auth: crate::auth::AuthConfig::open(),
        }
    }

    /// How long one upstream attempt may take: the setting if given, else `built_in`.
    pub fn attempt_timeout_ms(&self, built_in: u64) -> u64 {
        self.upstream_timeout_ms.unwrap_or(built_in)
    }

    /// Defaults only, as if no variable were set.
    pub fn defaults() -> Config {
        Config::from_lookup(|_| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_point_at_ncbi() {
        let c = Config::defaults();
        assert_eq!(c.eutils_base_url, DEFAULT_EUTILS_BASE_URL);
        assert_eq!(c.tool, "entrez-mcp");
        assert!(c.api_key.is_none());
        assert_eq!(c.allowed_hosts, vec!["localhost", "127.0.0.1", "[::1]"]);
        assert_eq!(c.session_ttl_secs, 86_400);
    }

    #[test]
    fn lookup_overrides_and_trims() {
        let c = Config::from_lookup(|name| match name {
            "NCBI_API_KEY" => Some(" abc123 ".into()),
            "ALLOWED_ORIGINS" => Some("https://a.example, https://b.example,".into()),
            "NCBI_EMAIL" => Some("   ".into()),
            "MCP_SESSION_TTL_SECS" => Some("60".into()),
            _ => None,
        });
        assert_eq!(c.api_key.as_ref().map(|k| k.expose()), Some("abc123"));
        assert_eq!(
            c.allowed_origins,
            vec!["https://a.example", "https://b.example"]
        );
        assert_eq!(c.email, None);
        assert_eq!(c.session_ttl_secs, 60);
    }

    #[test]
    fn an_upstream_time_limit_replaces_each_services_own() {
        assert_eq!(Config::defaults().attempt_timeout_ms(35_000), 35_000);
        let set = |v: &'static str| {
            Config::from_lookup(move |n| (n == "ENTREZ_UPSTREAM_TIMEOUT_MS").then(|| v.into()))
        };
        assert_eq!(set("8000").attempt_timeout_ms(35_000), 8_000);
        assert_eq!(set("0").attempt_timeout_ms(30_000), 30_000);
        assert_eq!(set("soon").attempt_timeout_ms(30_000), 30_000);
    }
}
