//! E-utilities parameters, merged from the query string and a form body.
//!
//! NCBI treats a POSTed form exactly like the same pairs in a URL, so the
//! replay does too: query pairs first, then body pairs. The crate's axum is
//! built without the `query`/`form` features, so decoding is done here.

/// Decoded request parameters with lower-cased names, in arrival order.
#[derive(Debug, Default, Clone)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Adds the pairs of one `application/x-www-form-urlencoded` string.
    pub fn extend_from(&mut self, raw: &[u8]) {
        for piece in raw.split(|b| *b == b'&') {
            if piece.is_empty() {
                continue;
            }
            let (name, value) = match piece.iter().position(|b| *b == b'=') {
                Some(at) => (&piece[..at], &piece[at + 1..]),
                None => (piece, &piece[..0]),
            };
            // Lower-cased because NCBI documents `WebEnv` yet accepts `webenv`.
            let name = decode(name).trim().to_ascii_lowercase();
            if !name.is_empty() {
                self.pairs.push((name, decode(value)));
            }
        }
    }

    /// Sets `name` to `value`, in place of every value it had.
    pub fn set(&mut self, name: &str, value: &str) {
        self.pairs.retain(|(k, _)| k != name);
        self.pairs.push((name.to_string(), value.to_string()));
    }

    /// The first value of `name`, trimmed; `None` when absent or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .find(|v| !v.is_empty())
    }

    /// The first value of `name`, lower-cased, or `""`.
    pub fn lower(&self, name: &str) -> String {
        self.get(name).unwrap_or("").to_ascii_lowercase()
    }

    /// Whether `name` carries a non-blank value.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A numeric parameter, or `default` when absent or unparsable.
    pub fn number(&self, name: &str, default: u64) -> u64 {
        self.get(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// Every id, from all `id` parameters, split on commas (NCBI's list form).
    pub fn ids(&self) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == "id")
            .flat_map(|(_, v)| v.split(','))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The ids of each `id` parameter apart (elink answers one LinkSet per parameter).
    pub fn id_groups(&self) -> Vec<Vec<String>> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == "id")
            .map(|(_, v)| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            })
            .filter(|g| !g.is_empty())
            .collect()
    }
}

/// Percent-decodes one form component (`+` is a space); invalid UTF-8 is replaced.
pub fn decode(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'+' => out.push(b' '),
            b'%' => {
                match (hex(raw.get(i + 1)), hex(raw.get(i + 2))) {
                    (Some(hi), Some(lo)) => {
                        out.push(hi * 16 + lo);
                        i += 2;
                    }
                    // A stray `%` is kept as written, the way lenient servers do.
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: Option<&u8>) -> Option<u8> {
    match b? {
        c @ b'0'..=b'9' => Some(c - b'0'),
        c @ b'a'..=b'f' => Some(c - b'a' + 10),
        c @ b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_plus_percent_and_stray_percent() {
        assert_eq!(decode(b"a+b%20c%2Cd"), "a b c,d");
        assert_eq!(decode(b"100%"), "100%");
        assert_eq!(decode(b"%zz"), "%zz");
    }

    #[test]
    fn merges_and_splits_ids() {
        let mut p = Params::default();
        p.extend_from(b"db=PubMed&id=1,2");
        p.extend_from(b"ID=3&WebEnv=MCID_x&empty=");
        assert_eq!(p.ids(), vec!["1", "2", "3"]);
        assert_eq!(p.lower("db"), "pubmed");
        assert_eq!(p.get("webenv"), Some("MCID_x"));
        assert!(!p.has("empty"));
    }
}
