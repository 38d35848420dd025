//! Test builds only (cargo feature `output-schema-check`, which scripts/test.sh turns on for
//! every Rust test): each structured result a tool answers is checked against the tool's
//! `outputSchema` before it leaves the dispatcher, so every tool call of every test, in process
//! or through a test server, proves the result fits what the tool promises. A result that does
//! not fit panics with each problem and its path: strict clients (the Python SDK) refuse such a
//! result, so it is a bug, never a warning.

use serde_json::Value;

use crate::runtime::Tool;
use crate::schema::schema_problems;

/// Panics unless `value`, `tool`'s structured result, fits its output schema.
pub(super) fn assert_fits_output_schema(tool: &Tool, value: &Value) {
    let Some(schema) = tool.def.output_schema.as_ref() else {
        return;
    };
    let problems = schema_problems(value, schema);
    if !problems.is_empty() {
        let listed: Vec<String> = problems
            .iter()
            .map(|(path, problem)| format!("{}: {problem}", path.to_pointer()))
            .collect();
        panic!(
            "the structured result of {} does not fit its outputSchema: {}\nresult: {value}",
            tool.name(),
            listed.join("; ")
        );
    }
}
