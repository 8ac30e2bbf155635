//! Arbitrary JSON through the argument intake and the schema check of every tool.
#![no_main]
use entrez_mcp_core::framework::intake;
use entrez_mcp_core::framework::Registry;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::builtin(entrez_mcp_core::tools::CATALOG).unwrap())
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    for tool in registry().tools() {
        let read = intake::read(tool.spec.name, &tool.input_schema, value.clone());
        // Reading twice changes nothing more: the canonical form is a fixed point.
        let again = intake::read(tool.spec.name, &tool.input_schema, read.arguments.clone());
        if read.errors.is_empty() {
            assert_eq!(
                again.arguments, read.arguments,
                "{}: {value}",
                tool.spec.name
            );
        }
        let _ = registry().findings(tool, &read.arguments);
    }
});
