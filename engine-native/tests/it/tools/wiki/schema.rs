//! `SCHEMA.md` parsing: types with their required properties, the vocabulary, and a
//! malformed line as a warning (never an error) with the rest still read.

use obsidian_tc::tools::wiki::schema::WikiSchema;
use serde_json::json;

#[test]
fn types_vocabulary_and_warnings() {
    let schema = WikiSchema::parse(
        "# Schema\n\nProse.\n\n## Types\n\n### concept\nrequired: title, sources\n\n### place\n\nnonsense line\n\n## Vocabulary\n\n- status: draft, stable\nbad\n",
    );
    assert_eq!(schema.types["concept"], vec!["title", "sources"]);
    assert!(schema.types["place"].is_empty());
    assert_eq!(schema.vocabulary["status"], vec!["draft", "stable"]);
    assert_eq!(schema.warnings.len(), 2, "{:?}", schema.warnings);
    assert!(
        schema.warnings[0].starts_with("line 12:"),
        "{:?}",
        schema.warnings
    );
    let props = json!({"type": "concept", "title": "X", "status": "wild"});
    let problems = schema.problems(Some("concept"), props.as_object().expect("map"));
    assert_eq!(
        problems,
        vec![
            "type concept requires the property 'sources'".to_owned(),
            "'wild' is not an allowed value of 'status' (draft, stable)".to_owned()
        ]
    );
    assert_eq!(
        schema.problems(Some("gadget"), &serde_json::Map::new()),
        vec!["SCHEMA.md defines no page type 'gadget'".to_owned()]
    );
}

#[test]
fn a_schema_without_types_is_a_warning() {
    let schema = WikiSchema::parse("# Nothing here\n");
    assert!(schema.types.is_empty());
    assert_eq!(schema.warnings.len(), 1);
    assert!(schema.problems(None, &serde_json::Map::new()).is_empty());
}
