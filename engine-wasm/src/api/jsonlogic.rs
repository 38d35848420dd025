//! Export for [`engine_core::jsonlogic`]: one JSONLogic rule evaluated against one data
//! object within an operation budget.

use engine_core::jsonlogic::{DEFAULT_BUDGET, Rule};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ApiError;

/// Input of [`jsonlogic_evaluate`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonLogicInput {
    /// The rule.
    pub rule: Value,
    /// The data it reads (a note's facts); `null` when absent.
    #[serde(default)]
    pub data: Value,
    /// Most operations the evaluation may take (default
    /// [`DEFAULT_BUDGET`]).
    #[serde(default)]
    pub budget: Option<u64>,
}

/// Output of [`jsonlogic_evaluate`].
#[derive(Debug, Serialize)]
pub struct JsonLogicOutput {
    /// The rule's value.
    pub value: Value,
    /// Whether the value is truthy in JSONLogic's sense.
    pub matches: bool,
    /// Operations the evaluation took.
    pub operations: u64,
}

/// Parses and evaluates a rule. Errors: `invalid_rule` (message names the JSON Pointer of
/// the bad node), `compute_budget_exceeded`, `value_too_deep`.
pub fn jsonlogic_evaluate(input: JsonLogicInput) -> Result<JsonLogicOutput, ApiError> {
    let rule = Rule::parse(&input.rule).map_err(|e| ApiError::new(e.code(), e.to_string()))?;
    let outcome = rule
        .run(&input.data, input.budget.unwrap_or(DEFAULT_BUDGET))
        .map_err(|e| ApiError::new(e.code(), e.to_string()))?;
    Ok(JsonLogicOutput {
        matches: engine_core::jsonlogic::truthy(&outcome.value),
        value: outcome.value,
        operations: outcome.operations,
    })
}
