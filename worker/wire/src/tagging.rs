//! Commands on the wire: `{"op": "<command>", ...its fields}`, the shape every deployed
//! version speaks, so isolates and objects of two versions still understand each other during
//! a deploy. The enums derive serde's default (external) tagging, and [`to_wire`] and
//! [`from_wire`] move between the two shapes: serde's internally tagged derive buffers each
//! command before reading it, which cost the Worker's bundle 6.8 KB gzipped.

use entrez_mcp_core::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// `command` as the JSON text that travels: `{"op": "<command>", ...its fields}`, `op` first
/// as the internally tagged derive wrote it. Rewritten as text, not through a `Value`: an
/// append carries up to megabytes of rows, which a `Value` would copy on every batch. (No
/// command has a field named `op`, which the tag takes.)
pub fn to_wire(command: &impl Serialize) -> Result<String> {
    let text = serde_json::to_string(command).map_err(|e| Error::internal(e.to_string()))?;
    // A command without fields is its name, `"drop"`.
    if let Some(name) = text.strip_prefix('"') {
        return Ok(format!("{{\"op\":\"{name}}}"));
    }
    // One with fields is `{"<name>":{<fields>}}`; snake_case names need no escaping.
    let tagged = text
        .strip_prefix("{\"")
        .and_then(|t| t.split_once("\":"))
        .and_then(|(name, rest)| Some((name, rest.strip_suffix('}')?.strip_prefix('{')?)));
    match tagged {
        Some((name, "}")) => Ok(format!("{{\"op\":\"{name}\"}}")),
        Some((name, fields)) => Ok(format!("{{\"op\":\"{name}\",{fields}")),
        None => Err(Error::internal("a wire command's fields are an object")),
    }
}

/// The command in JSON text [`to_wire`] wrote.
pub fn from_wire<T: DeserializeOwned>(text: &str) -> Result<T> {
    let bad = |e: serde_json::Error| Error::internal(e.to_string());
    let mut v: Value = entrez_mcp_core::json::from_str(text).map_err(bad)?;
    if let Some(Value::String(op)) = v.as_object_mut().and_then(|m| m.remove("op")) {
        v = match v.as_object().is_some_and(Map::is_empty) {
            true => Value::String(op),
            false => Value::Object(Map::from_iter([(op, v)])),
        };
    }
    serde_json::from_value(v).map_err(bad)
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
        assert!(
            to_wire(&json!({"a": 1, "b": 2})).is_err(),
            "not one named variant"
        );
        assert!(to_wire(&json!({"a": 1})).is_err(), "fields not an object");
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
