//! The judge's answer as the detector reads it: the JSON object in it, a known verdict and a
//! string rationale; anything else is `no_conflict`. The prompt carries both passages.

use obsidian_tc::index::contradictions::{
    JUDGE_INSTRUCTIONS, Verdict, judge_prompt, parse_judgement,
};
use obsidian_tc::store::StoredChunk;

#[test]
fn answers_parse_to_verdicts_and_everything_else_is_no_conflict() {
    let said = parse_judgement(
        "Here you go:\n{\"verdict\": \" Contradiction \", \"rationale\": \" Monday vs Tuesday \"}\n",
    );
    assert_eq!(said.verdict, Verdict::Contradiction);
    assert_eq!(said.rationale, "Monday vs Tuesday");
    let tension = parse_judgement("{\"verdict\": \"tension\", \"rationale\": \"pulls apart\"}");
    assert_eq!(tension.verdict, Verdict::Tension);
    for bad in [
        "",
        "contradiction",
        "{\"verdict\": \"contradiction\"}",
        "{\"verdict\": \"maybe\", \"rationale\": \"x\"}",
        "{\"verdict\": \"no_conflict\", \"rationale\": \"fine\"}",
        "{\"verdict\": 1, \"rationale\": \"x\"}",
        "} {",
    ] {
        assert_eq!(parse_judgement(bad).verdict, Verdict::NoConflict, "{bad:?}");
    }
    let long = format!(
        "{{\"verdict\": \"tension\", \"rationale\": \"{}\"}}",
        "é".repeat(2000)
    );
    assert_eq!(parse_judgement(&long).rationale.chars().count(), 500);
}

#[test]
fn the_prompt_names_both_passages_and_clips_them() {
    let chunk = |path: &str, text: String| StoredChunk {
        chunk_id: 1,
        path: path.to_owned(),
        ordinal: 0,
        text,
    };
    let prompt = judge_prompt(
        &chunk("a.md", "Monday.".to_owned()),
        &chunk("b.md", "x".repeat(5000)),
    );
    assert_eq!(prompt.system, JUDGE_INSTRUCTIONS);
    assert!(
        prompt
            .user
            .starts_with("Passage A (from a.md):\nMonday.\n\nPassage B (from b.md):\n")
    );
    assert_eq!(prompt.user.matches('x').count(), 1800);
}
