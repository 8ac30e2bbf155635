//! The registry: the tools of a [`Catalog`] (`crate::tools::CATALOG`), parsed and compiled once.
//!
//! Registration checks the name rule and parses both schemas; each tool's validators are
//! compiled when first needed. Both are kept for the life of the process, shared by every
//! registry built in it ([`registered`]): a Worker builds its server on an isolate's first
//! request, after the module's start-up has parsed and compiled them all
//! (`entrez_mcp_worker::startup`), and the native server compiles every schema when it starts
//! ([`Registry::prepare`]), so a schema that does not compile stops it there.
//! `core/tests/construction/schemas.rs` compiles every schema.

use crate::error::{Error, ErrorKind};
use crate::framework::arguments;
use crate::framework::describe;
use crate::framework::intake;
use crate::framework::output::{call_warnings_text, error_result_in, TextForm, ToolOutput};
use crate::framework::resources::ResourceOwner;
use crate::framework::spec::{is_valid_tool_name, ToolSpec};
use crate::framework::ToolContext;
use crate::json;
use crate::platform::BoxFuture;
use crate::suggest::closest;
use crate::validation::Finding;
use jsonschema::Validator;
use serde_json::Value;
use std::sync::{Arc, Mutex, OnceLock};

/// The tools a server may serve, in the order `tools/list` returns them, and those of them
/// that need a dataset store (servers without one neither list nor run them).
#[derive(Clone, Copy)]
pub struct Catalog {
    /// Every tool.
    pub tools: &'static [ToolSpec],
    /// The names of those that need a dataset store.
    pub needs_store: &'static [&'static str],
    /// Who serves the resources the tools make (`resources/*`), in listing order.
    pub resources: &'static [&'static dyn ResourceOwner],
    /// The tool that validates calls and its `experimental.toolValidation` capability,
    /// announced while that tool is served.
    pub validation: Option<(&'static str, Capability)>,
}

/// A capability a tool announces (its value, built when announced).
pub type Capability = fn() -> Value;

/// A tool with its parsed and compiled schemas.
pub struct RegisteredTool {
    /// The static row from the table.
    pub spec: ToolSpec,
    /// The parsed inputSchema, as the file has it (entrez_tool_info serves it whole).
    pub input_schema: Arc<Value>,
    /// The inputSchema `tools/list` serves ([`describe::listed_input_schema`]).
    pub listed_input_schema: Arc<Value>,
    /// The parsed outputSchema, served verbatim.
    pub output_schema: Arc<Value>,
    validators: Arc<OnceLock<Result<Validators, String>>>,
    /// Its `tools/list` entry, built on first use (by any registry of the process).
    listing: Arc<OnceLock<Value>>,
}

/// A tool's compiled inputSchema and outputSchema.
#[derive(Clone)]
struct Validators {
    input: Arc<Validator>,
    output: Arc<Validator>,
}

impl RegisteredTool {
    /// The compiled schemas, compiled on first use (by any registry of the process).
    fn validators(&self) -> Result<&Validators, Error> {
        self.validators
            .get_or_init(|| compiled(&self.spec, &self.input_schema, &self.output_schema))
            .as_ref()
            .map_err(|e| Error::internal(e.clone()))
    }
}

/// All tools, ready to list and call.
pub struct Registry {
    tools: Vec<RegisteredTool>,
    catalog: Catalog,
}

impl Registry {
    /// The tools of `catalog` a server can run: those that need a store only when it has one.
    pub fn available(catalog: Catalog, has_store: bool) -> Result<Registry, String> {
        let specs: Vec<ToolSpec> = catalog
            .tools
            .iter()
            .filter(|s| has_store || !catalog.needs_store.contains(&s.name))
            .copied()
            .collect();
        Registry::new(catalog, &specs)
    }

    /// This registry with its catalog's tools that need a store added, in catalog order.
    pub fn with_store_tools(self) -> Result<Registry, String> {
        let catalog = self.catalog;
        let added = Registry::new(
            catalog,
            &catalog
                .tools
                .iter()
                .filter(|s| catalog.needs_store.contains(&s.name) && self.get(s.name).is_none())
                .copied()
                .collect::<Vec<_>>(),
        )?;
        let mut have: Vec<RegisteredTool> = self.tools.into_iter().chain(added.tools).collect();
        let order = |name: &str| {
            catalog
                .tools
                .iter()
                .position(|t| t.name == name)
                .unwrap_or(usize::MAX)
        };
        have.sort_by_key(|t| order(t.spec.name));
        Ok(Registry {
            tools: have,
            catalog,
        })
    }

    /// Parses and compiles every tool's schemas now, for the process: a schema that does not
    /// compile stops the native server at start-up, and on Workers the module's start-up does
    /// this work instead of an isolate's first requests.
    pub fn prepare(catalog: Catalog) -> Result<(), String> {
        for tool in Registry::builtin(catalog)?.tools() {
            tool.validators().map_err(|e| e.message)?;
        }
        Ok(())
    }

    /// No tools (a placeholder while a registry is rebuilt).
    pub fn empty(catalog: Catalog) -> Registry {
        Registry {
            tools: Vec::new(),
            catalog,
        }
    }

    /// Every tool of `catalog`.
    pub fn builtin(catalog: Catalog) -> Result<Registry, String> {
        Registry::new(catalog, catalog.tools)
    }

    /// Registers `specs` of `catalog`, checking names and parsing schemas (compiled on first use).
    pub fn new(catalog: Catalog, specs: &[ToolSpec]) -> Result<Registry, String> {
        let mut tools: Vec<RegisteredTool> = Vec::with_capacity(specs.len());
        for spec in specs {
            if !is_valid_tool_name(spec.name) {
                return Err(format!(
                    "tool name {:?} breaks the MCP naming rule",
                    spec.name
                ));
            }
            if tools.iter().any(|t| t.spec.name == spec.name) {
                return Err(format!("tool {:?} is registered twice", spec.name));
            }
            tools.push(registered(spec)?);
        }
        Ok(Registry { tools, catalog })
    }

    /// All tools in table order.
    pub fn tools(&self) -> &[RegisteredTool] {
        &self.tools
    }

    /// The owners of the resources this registry's tools make.
    pub fn resource_owners(&self) -> &'static [&'static dyn ResourceOwner] {
        self.catalog.resources
    }

    /// The `experimental.toolValidation` capability, when the validating tool is served.
    pub fn validation(&self) -> Option<Capability> {
        let (tool, capability) = self.catalog.validation?;
        self.get(tool).map(|_| capability)
    }

    /// One tool by exact name.
    pub fn get(&self, name: &str) -> Option<&RegisteredTool> {
        self.tools.iter().find(|t| t.spec.name == name)
    }

    /// The error for an unknown tool name, with a did-you-mean when one is close.
    pub fn unknown_tool(&self, name: &str, kind: ErrorKind) -> Error {
        let names = self.tools.iter().map(|t| t.spec.name);
        let mut err =
            Error::new(kind, format!("Unknown tool \"{name}\".")).with_code("unknown_tool");
        if let Some(best) = closest(name, names.clone()) {
            err.message = format!("Unknown tool \"{name}\". Did you mean \"{best}\"?");
            err = err.suggest(format!("Use \"{best}\"."));
        }
        err.suggest(format!(
            "Available tools: {}.",
            names.collect::<Vec<_>>().join(", ")
        ))
        .with_details(json!({ "name": name }))
    }

    /// Runs `tools/call`: unknown tools are protocol errors, everything else a result.
    ///
    /// The arguments are read once ([`intake::read`]); the schema, the semantic
    /// rules and the handler all see that reading, and every repair made on the
    /// way is reported in the result (`call_warnings`), whether it succeeds or not.
    /// Boxed: `tools/call` and a pending task's look share one copy of the call's code.
    pub fn call<'a>(
        &'a self,
        ctx: &'a ToolContext<'a>,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, Error>> {
        Box::pin(self.run(ctx, name, arguments))
    }

    async fn run(
        &self,
        ctx: &ToolContext<'_>,
        name: &str,
        arguments: Value,
    ) -> Result<Value, Error> {
        let tool = self
            .get(name)
            .ok_or_else(|| self.unknown_tool(name, ErrorKind::InvalidParams))?;
        let form = tool.spec.text_form;
        // A schema that cannot compile is this server's fault, not the caller's.
        if let Err(e) = tool.validators() {
            return Ok(error_result_in(&e, form, &[]));
        }
        let intake = intake::read(name, &tool.input_schema, arguments);
        let notes: Vec<Value> = intake.notes.iter().map(Finding::to_value).collect();
        let found = self.findings(tool, &intake.arguments);
        let schema_errors = intake::unexplained(&intake.errors, found.errors);
        if !intake.errors.is_empty() || !schema_errors.is_empty() {
            let mut errors: Vec<Value> = intake.errors.iter().map(Finding::to_value).collect();
            errors.extend(schema_errors);
            let error = arguments::refusal(name, errors, notes, found.suggestions);
            return Ok(error_result_in(&error, form, &[]));
        }
        // Read once into the tool's typed call: its rules check it, then it runs.
        let call = (tool.spec.read)(&intake.arguments);
        // The semantic rules validate reports: a call they reject never runs.
        let names: Vec<&str> = self.tools.iter().map(|t| t.spec.name).collect();
        let rules = crate::validation::Context {
            tool_names: &names,
            allowance: ctx.allowance(),
        };
        let mut report = call.report(&rules);
        report.warnings.splice(0..0, intake.notes);
        if let Some(e) = report.rejection(name) {
            return Ok(error_result_in(&e, form, &[]));
        }
        // Only tools that take max_characters are held to a budget (their callers can change it).
        let budget = call.view_args().map(|_| call.view().max_characters);
        ctx.cache_log.set_mode(call.cache_mode());
        let outcome = call.run(ctx).await;
        let call_warnings: Vec<Value> = report.warnings.iter().map(Finding::to_value).collect();
        Ok(match outcome {
            Ok(output) => {
                // validate's findings are about the caller's own arguments, and a finding
                // cut away would make it lie: its result is held by its input, not a budget.
                let cache = ctx.cache_log.summary().zip(ctx.cache_log.sentence());
                let output = match (form, budget) {
                    (TextForm::Readable, Some(budget)) => {
                        within(output, budget, &call_warnings, cache.as_ref())
                    }
                    _ => output,
                };
                let output = with_cache_note(output, cache);
                self.checked_success(tool, with_call_warnings(output, call_warnings))
            }
            Err(mut e) => {
                // A handler cannot emit JSON-RPC errors: keep the result channel.
                if e.kind.rpc_code().is_some() {
                    e.kind = ErrorKind::InvalidArguments;
                }
                error_result_in(&e, form, &call_warnings)
            }
        })
    }

    /// Schema findings for `arguments` against a tool's inputSchema, without running it.
    pub fn findings(&self, tool: &RegisteredTool, arguments: &Value) -> arguments::Findings {
        match tool.validators() {
            Ok(v) => arguments::findings(tool.spec.name, &v.input, &tool.input_schema, arguments),
            // Prepared natively at start-up; on Workers a schema that cannot compile is a bug
            // every call of the tool reports.
            Err(e) => arguments::Findings::internal(e),
        }
    }

    /// Violations of `result` (a `CallToolResult`) against the tool's outputSchema.
    pub fn output_violations(&self, name: &str, result: &Value) -> Vec<String> {
        let Some(tool) = self.get(name) else {
            return vec![format!("unknown tool {name}")];
        };
        let validators = match tool.validators() {
            Ok(v) => v,
            Err(e) => return vec![e.message],
        };
        match result.get("structuredContent") {
            None => vec!["structuredContent is missing".to_string()],
            Some(s) => validators
                .output
                .iter_errors(s)
                .map(|e| format!("{}: {e}", arguments::json_path(e.instance_path().as_str())))
                .collect(),
        }
    }

    /// The `CallToolResult` tool `name` answers with `outcome`, as `call` would write it; for
    /// results produced after the call (a task's outcome).
    pub fn result_of(&self, name: &str, outcome: Result<ToolOutput, Error>) -> Value {
        let Some(tool) = self.get(name) else {
            return error_result_in(
                &self.unknown_tool(name, ErrorKind::Internal),
                TextForm::Readable,
                &[],
            );
        };
        match outcome {
            Ok(output) => self.checked_success(tool, output),
            Err(e) => error_result_in(&e, tool.spec.text_form, &[]),
        }
    }

    fn checked_success(&self, tool: &RegisteredTool, output: ToolOutput) -> Value {
        let form = tool.spec.text_form;
        let result = output.in_form(form).into_result();
        let violations = self.output_violations(tool.spec.name, &result);
        if violations.is_empty() {
            return result;
        }
        // Clients validate structuredContent; a broken result is our bug, said plainly.
        error_result_in(
            &Error::internal(format!(
                "{} produced a result that breaks its own outputSchema; this is a server bug.",
                tool.spec.name
            ))
            .suggest("Report this to the server's maintainers with the arguments you used.")
            .with_details(json!({ "violations": violations })),
            form,
            &[],
        )
    }

    /// The `tools/list` entry for a tool: built once per process (an isolate's start-up
    /// builds it on Workers), then copied.
    pub fn descriptor(&self, tool: &RegisteredTool) -> Value {
        tool.listing
            .get_or_init(|| {
                json!({
                    "name": tool.spec.name,
                    "title": tool.spec.title,
                    "description": tool.spec.description,
                    "inputSchema": &*tool.listed_input_schema,
                    "outputSchema": &*tool.output_schema,
                    "annotations": tool.spec.annotations.to_value(tool.spec.title),
                })
            })
            .clone()
    }
}

/// Holds a result to the call's budget, keeping room for the warnings and the cache note
/// added after.
fn within(
    output: ToolOutput,
    budget: usize,
    call_warnings: &[Value],
    cache: Option<&(Value, String)>,
) -> ToolOutput {
    let all: Vec<Value> = call_warnings
        .iter()
        .chain(&output.coded_warnings)
        .cloned()
        .collect();
    // The warnings' lines, and what joins them to the result ("\n\n", "call_warnings":).
    let reserved = if all.is_empty() {
        0
    } else {
        let text = call_warnings_text(&all).chars().count();
        text.max(crate::framework::budget::json_chars(&Value::Array(all))) + 20
    };
    let noted = cache.map_or(0, |(v, line)| {
        line.chars()
            .count()
            .max(crate::framework::budget::json_chars(v))
            + 20
    });
    crate::framework::budget::enforce(output, budget, reserved + noted)
}

/// Says in both forms when any upstream answer came from the cache or was shared.
fn with_cache_note(mut output: ToolOutput, cache: Option<(Value, String)>) -> ToolOutput {
    if let Some((summary, line)) = cache.filter(|_| output.structured.is_object()) {
        output.text = format!("{}\n\n{line}", output.text);
        json::set(&mut output.structured, "cache", summary);
    }
    output
}

/// Adds what the call's reading repaired or noticed to a successful result, in both forms.
fn with_call_warnings(mut output: ToolOutput, mut call_warnings: Vec<Value>) -> ToolOutput {
    call_warnings.append(&mut output.coded_warnings);
    if call_warnings.is_empty() || !output.structured.is_object() {
        return output;
    }
    output.text = format!("{}\n\n{}", output.text, call_warnings_text(&call_warnings));
    json::set(
        &mut output.structured,
        "call_warnings",
        Value::Array(call_warnings),
    );
    output
}

/// `spec` registered: its schemas parsed (and, once compiled, its validators) from the
/// process's cache when a registry of this process registered the same texts before.
fn registered(spec: &ToolSpec) -> Result<RegisteredTool, String> {
    type Key = (&'static str, &'static str, &'static str);
    type Parsed = (
        Arc<Value>,
        Arc<Value>,
        Arc<Value>,
        Arc<OnceLock<Result<Validators, String>>>,
        Arc<OnceLock<Value>>,
    );
    static CACHE: OnceLock<Mutex<Vec<(Key, Parsed)>>> = OnceLock::new();
    // By content: the same texts parse to the same schemas, wherever the constant lives.
    let key = (spec.name, spec.input_schema, spec.output_schema);
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let hit = lock(cache)
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, p)| p.clone());
    let (input_schema, listed_input_schema, output_schema, validators, listing) = match hit {
        Some(parsed) => parsed,
        None => {
            let input = parse(spec.name, "input", spec.input_schema)?;
            let listed = describe::listed_input_schema(&input);
            let parsed = (
                Arc::new(input),
                Arc::new(listed),
                Arc::new(parse(spec.name, "output", spec.output_schema)?),
                Arc::new(OnceLock::new()),
                Arc::new(OnceLock::new()),
            );
            lock(cache).push((key, parsed.clone()));
            parsed
        }
    };
    Ok(RegisteredTool {
        spec: *spec,
        input_schema,
        listed_input_schema,
        output_schema,
        validators,
        listing,
    })
}

/// The validators of `spec`, whose schemas parse as `input` and `output`.
fn compiled(spec: &ToolSpec, input: &Value, output: &Value) -> Result<Validators, String> {
    let compile = |which: &str, schema: &Value| {
        jsonschema::draft202012::new(schema)
            .map(Arc::new)
            .map_err(|e| format!("{which} schema of {} does not compile: {e}", spec.name))
    };
    Ok(Validators {
        input: compile("input", input)?,
        output: compile("output", output)?,
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn parse(tool: &str, which: &str, text: &str) -> Result<Value, String> {
    let schema: Value = crate::json::from_str(text)
        .map_err(|e| format!("{which} schema of {tool} is not JSON: {e}"))?;
    if schema.get("type") != Some(&json!("object")) {
        return Err(format!(
            "{which} schema of {tool} must have root type \"object\""
        ));
    }
    Ok(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Result;
    use crate::framework::spec::{ToolAnnotations, ToolCall};

    /// A call the registry holds and never runs.
    struct Never;

    impl ToolCall for Never {
        fn run<'a>(self: Box<Self>, _: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>> {
            unreachable!("the registry runs no call")
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn never(_: &Value) -> Box<dyn ToolCall> {
        Box::new(Never)
    }

    /// A tool of this test alone (the process shares parsed schemas by name and text).
    const fn spec(name: &'static str) -> ToolSpec {
        ToolSpec {
            name,
            title: name,
            description: "a tool of the registry's own test",
            input_schema: r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#,
            output_schema: r#"{"type": "object"}"#,
            annotations: ToolAnnotations::LOCAL_READ_ONLY,
            typical_output: "nothing",
            text_form: TextForm::Readable,
            read: never,
        }
    }

    /// Two tools, the second needing a store; the catalog order is theirs.
    const CATALOG: Catalog = Catalog {
        tools: &[spec("registry_test_first"), spec("registry_test_stored")],
        needs_store: &["registry_test_stored"],
        resources: &[],
        validation: None,
    };

    #[test]
    fn schemas_are_parsed_and_compiled_once_per_process_and_store_tools_come_and_go() {
        Registry::prepare(CATALOG).unwrap();
        let without = Registry::available(CATALOG, false).unwrap();
        assert!(without.get("registry_test_stored").is_none());
        let with = Registry::available(CATALOG, false)
            .unwrap()
            .with_store_tools()
            .unwrap();
        let names: Vec<&str> = with.tools().iter().map(|t| t.spec.name).collect();
        assert_eq!(
            names,
            ["registry_test_first", "registry_test_stored"],
            "table order"
        );
        let a = without.get("registry_test_first").unwrap();
        let b = with.get("registry_test_first").unwrap();
        // A server built again (a Worker's, from the request's env) parses nothing again.
        assert!(Arc::ptr_eq(&a.input_schema, &b.input_schema));
        assert!(Arc::ptr_eq(&a.listed_input_schema, &b.listed_input_schema));
        let (a, b) = (a.validators().unwrap(), b.validators().unwrap());
        assert!(Arc::ptr_eq(&a.input, &b.input));
        assert!(Arc::ptr_eq(&a.output, &b.output));
    }
}
