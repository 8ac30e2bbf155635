//! Commands on the wire: `{"op": "<command>", ...its fields}`, the shape every deployed
//! version speaks, so isolates and objects of two versions still understand each other during
//! a deploy. The command enums derive it (`#[serde(tag = "op")]`); these two functions only
//! name the error. (Until round 4 the enums derived serde's external tagging and these
//! functions rewrote it, to keep the internally tagged derive's 6.8 KB out of the bundle.)

use entrez_mcp_core::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// `command` as the JSON text that travels: `{"op": "<command>", ...its fields}`, `op` first.
pub fn to_wire(command: &impl Serialize) -> Result<String> {
    serde_json::to_string(command).map_err(|e| Error::internal(e.to_string()))
}

/// The command in JSON text [`to_wire`] wrote (or an older version did).
pub fn from_wire<T: DeserializeOwned>(text: &str) -> Result<T> {
    entrez_mcp_core::json::from_str(text).map_err(|e| Error::internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::super::{CatalogCommand, DatasetCommand, LedgerCommand};
    use super::*;
    use entrez_mcp_core::staging::store::{Lease, Status};
    use serde_json::json;

    #[test]
    fn commands_travel_tagged_with_op_as_every_version_wrote_them() {
        let c = DatasetCommand::Finish {
            status: Status::Failed("upstream".into()),
            lease: Lease {
                now_ms: 1,
                expires_ms: 2,
            },
        };
        let text = to_wire(&c).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"op": "finish", "status": {"Failed": "upstream"}, "lease": {"now_ms": 1, "expires_ms": 2}})
        );
        assert_eq!(from_wire::<DatasetCommand>(&text).unwrap(), c);
        let r = to_wire(&CatalogCommand::List { now_ms: 5 }).unwrap();
        assert_eq!(
            r, r#"{"op":"list","now_ms":5}"#,
            "op first, as the derive wrote it"
        );
        // Braces and quotes inside the fields travel as they are.
        let odd = DatasetCommand::Finish {
            status: Status::Failed("a \"}\" b {".into()),
            lease: Lease {
                now_ms: 3,
                expires_ms: 4,
            },
        };
        assert_eq!(
            from_wire::<DatasetCommand>(&to_wire(&odd).unwrap()).unwrap(),
            odd
        );
        let release = LedgerCommand::Release { id: "x".into() };
        assert_eq!(to_wire(&release).unwrap(), r#"{"op":"release","id":"x"}"#);
        // A command without fields, and one sent by an older version (fields in any order, a
        // field it did not know left to its default).
        assert_eq!(to_wire(&DatasetCommand::Drop).unwrap(), r#"{"op":"drop"}"#);
        assert_eq!(
            from_wire::<DatasetCommand>(r#"{"op":"drop"}"#).unwrap(),
            DatasetCommand::Drop
        );
        let old = r#"{"id":"d","bytes":7,"op":"record","expires_ms":9}"#;
        assert_eq!(
            from_wire::<LedgerCommand>(old).unwrap(),
            LedgerCommand::Record {
                id: "d".into(),
                bytes: 7,
                expires_ms: 9,
                running_until_ms: 0
            }
        );
        assert!(from_wire::<LedgerCommand>(r#"{"op":"admit"}"#).is_err());
        assert!(from_wire::<LedgerCommand>(r#"{"op":"nothing","id":"d"}"#).is_err());
        let err: std::result::Result<(), Error> = Err(entrez_mcp_core::error::Error::new(
            entrez_mcp_core::error::ErrorKind::LimitExceeded,
            "too big",
        )
        .with_code("dataset_quota_exceeded"));
        let back: std::result::Result<(), Error> =
            serde_json::from_value(serde_json::to_value(&err).unwrap()).unwrap();
        let e = back.unwrap_err();
        assert_eq!(e.kind, entrez_mcp_core::error::ErrorKind::LimitExceeded);
        assert_eq!(e.code, "dataset_quota_exceeded");
    }
}
