//! The test build's output check (feature `output-schema-check`): a structured result that
//! does not fit its tool's output schema fails the call's test, whichever test makes the call.

use obsidian_tc::errors::ToolError;
use obsidian_tc::runtime::{ToolContext, ToolDef};
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

/// A tool that promises `{path}` and answers its argument `answer`.
fn answering() -> ToolDef {
    fn handler(_ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
        Ok(args["answer"].clone())
    }
    ToolDef::new(
        ("test_answering", "Answering", "Answers what it is given."),
        "test",
        (
            json!({
                "type": "object",
                "properties": {"answer": {}},
                "additionalProperties": false
            }),
            Some(json!({
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
                "additionalProperties": false
            })),
        ),
        handler,
    )
}

fn call_answering(answer: Value) -> Value {
    let fx = Fixture::with_tools(json!({}), vec![answering()]);
    fx.ok("test_answering", json!({ "answer": answer }))
}

#[test]
fn a_result_that_fits_passes() {
    assert_eq!(call_answering(json!({"path": "a.md"}))["path"], "a.md");
}

#[test]
#[should_panic(expected = "does not fit its outputSchema: /extra")]
fn a_field_the_schema_does_not_allow_fails_the_test() {
    call_answering(json!({"path": "a.md", "extra": 1}));
}

#[test]
#[should_panic(expected = "does not fit its outputSchema: /path")]
fn a_null_where_the_schema_wants_a_string_fails_the_test() {
    call_answering(json!({"path": null}));
}
