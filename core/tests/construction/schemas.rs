//! The schema files: each compiles, has a root object, and its examples are valid calls.

use serde_json::Value;
use std::path::Path;

fn schema_files() -> Vec<(String, Value)> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas"));
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, value)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_schema_compiles_as_2020_12_with_a_root_object() {
    let files = schema_files();
    assert!(files.len() >= 6);
    for (name, schema) in &files {
        assert_eq!(schema["type"], "object", "{name}");
        assert!(
            jsonschema::meta::is_valid(schema),
            "{name} is not a valid 2020-12 schema"
        );
        jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn every_registered_tool_has_both_files_and_the_registry_builds() {
    let registry = entrez_mcp_core::framework::Registry::builtin(entrez_mcp_core::tools::CATALOG)
        .expect("registry builds");
    entrez_mcp_core::framework::registry::Registry::prepare(entrez_mcp_core::tools::CATALOG)
        .expect("every schema compiles");
    let names: Vec<String> = schema_files().into_iter().map(|(n, _)| n).collect();
    for t in registry.tools() {
        assert!(
            names.contains(&format!("{}.input.json", t.spec.name)),
            "{}",
            t.spec.name
        );
        assert!(
            names.contains(&format!("{}.output.json", t.spec.name)),
            "{}",
            t.spec.name
        );
    }
    assert_eq!(
        names.len(),
        registry.tools().len() * 2,
        "a schema file belongs to no tool"
    );
}

#[test]
fn every_example_is_a_valid_call_and_every_output_schema_accepts_errors() {
    let registry =
        entrez_mcp_core::framework::Registry::builtin(entrez_mcp_core::tools::CATALOG).unwrap();
    for t in registry.tools() {
        let examples = t.input_schema["examples"]
            .as_array()
            .unwrap_or_else(|| panic!("{} has no examples", t.spec.name));
        assert!(!examples.is_empty());
        let v = jsonschema::draft202012::new(&t.input_schema).unwrap();
        for e in examples {
            assert!(v.is_valid(e), "{} example {e} is invalid", t.spec.name);
        }
        let error =
            entrez_mcp_core::error::Error::new(entrez_mcp_core::error::ErrorKind::NotFound, "x")
                .suggest("y");
        let result = entrez_mcp_core::framework::output::error_result(&error);
        assert!(
            registry.output_violations(t.spec.name, &result).is_empty(),
            "{}",
            t.spec.name
        );
    }
}

#[test]
fn the_store_tools_come_only_with_a_store_in_the_catalogs_order_sharing_parsed_schemas() {
    use entrez_mcp_core::framework::Registry;
    use entrez_mcp_core::tools::CATALOG;
    let without = Registry::available(CATALOG, false).unwrap();
    assert!(!CATALOG.needs_store.is_empty());
    for name in CATALOG.needs_store {
        assert!(without.get(name).is_none(), "{name} listed without a store");
    }
    let with = Registry::available(CATALOG, false)
        .unwrap()
        .with_store_tools()
        .unwrap();
    let names: Vec<&str> = with.tools().iter().map(|t| t.spec.name).collect();
    let table: Vec<&str> = CATALOG.tools.iter().map(|t| t.name).collect();
    assert_eq!(names, table, "table order");
    // A server built again (a Worker's, from the request's env) parses nothing again.
    let (a, b) = (
        without.get("entrez_query").unwrap(),
        with.get("entrez_query").unwrap(),
    );
    assert!(std::sync::Arc::ptr_eq(&a.input_schema, &b.input_schema));
    assert!(std::sync::Arc::ptr_eq(
        &a.listed_input_schema,
        &b.listed_input_schema
    ));
}
