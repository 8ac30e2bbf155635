//! Opaque pagination cursors for list methods.

use crate::error::{Error, ErrorKind};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

const PREFIX: &str = "entrez-mcp:offset:";

/// Encodes a list offset as an opaque cursor.
pub fn encode(offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("{PREFIX}{offset}"))
}

/// Decodes a cursor into an offset below `len`; anything else is -32602.
pub fn decode(cursor: &str, len: usize) -> Result<usize, Error> {
    let offset = URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| s.strip_prefix(PREFIX).and_then(|n| n.parse::<usize>().ok()))
        .filter(|o| *o > 0 && *o < len);
    offset.ok_or_else(|| {
        Error::new(ErrorKind::InvalidParams, format!("Invalid cursor \"{cursor}\"."))
            .with_code("invalid_cursor")
            .suggest("Pass the nextCursor value from the previous page unchanged, or omit cursor to start at the first page.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() {
        assert_eq!(decode(&encode(2), 5).unwrap(), 2);
        assert!(decode(&encode(5), 5).is_err());
        assert!(decode(&encode(0), 5).is_err());
        assert!(decode("not-a-cursor", 5).is_err());
        assert_eq!(decode("!!", 5).unwrap_err().kind.rpc_code(), Some(-32602));
    }
}
