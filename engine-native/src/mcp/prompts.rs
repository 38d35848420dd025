//! The built-in prompt templates: static texts that tell the model which of the server's
//! tools to call for a common vault task. `prompts/get` checks the arguments: a missing
//! required one, an unknown one, a non-string value or a malformed date is invalid params.

use rmcp::ErrorData as McpError;
use rmcp::model::{
    GetPromptResult, JsonObject, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::Value;

/// One prompt template.
struct Template {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [Argument],
    render: fn(&Arguments) -> String,
}

/// One argument of a template.
struct Argument {
    name: &'static str,
    description: &'static str,
    required: bool,
}

/// The validated argument values of one `prompts/get`.
struct Arguments(JsonObject);

impl Arguments {
    /// The value of `name` (validated: present when required, a string).
    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }
}

const PATH: Argument = Argument {
    name: "path",
    description: "The vault-relative path of the note, e.g. Projects/Plan.md.",
    required: true,
};

const TEMPLATES: [Template; 3] = [
    Template {
        name: "summarize_note",
        title: "Summarise a note with its backlinks",
        description: "Summarise one note and say which notes link to it.",
        arguments: &[PATH],
        render: summarize_note,
    },
    Template {
        name: "daily_review",
        title: "Daily review",
        description: "Review one day: its daily note and the notes changed that day.",
        arguments: &[Argument {
            name: "date",
            description: "The day to review, YYYY-MM-DD (default: today).",
            required: false,
        }],
        render: daily_review,
    },
    Template {
        name: "suggest_links",
        title: "Link suggestions for a note",
        description: "Suggest [[wikilinks]] from one note to existing notes it mentions.",
        arguments: &[PATH],
        render: suggest_links,
    },
];

/// Every prompt, with its arguments.
pub fn list() -> ListPromptsResult {
    let prompts = TEMPLATES
        .iter()
        .map(|template| {
            let arguments = template
                .arguments
                .iter()
                .map(|arg| {
                    PromptArgument::new(arg.name)
                        .with_description(arg.description)
                        .with_required(arg.required)
                })
                .collect();
            Prompt::new(template.name, Some(template.description), Some(arguments))
                .with_title(template.title)
        })
        .collect();
    ListPromptsResult::with_all_items(prompts)
}

/// The prompt `name` filled with `arguments`; an unknown prompt or bad arguments are
/// invalid params naming the problem.
pub fn get(name: &str, arguments: Option<JsonObject>) -> Result<GetPromptResult, McpError> {
    let template = TEMPLATES
        .iter()
        .find(|template| template.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
            McpError::invalid_params(
                format!(
                    "no prompt named '{name}'; the prompts are {}",
                    names.join(", ")
                ),
                None,
            )
        })?;
    let arguments = validate(template, arguments.unwrap_or_default())?;
    let text = (template.render)(&arguments);
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(template.description),
    )
}

/// Checks `arguments` against the template: every key known, every value a non-empty
/// string, every required one present, a `date` in YYYY-MM-DD.
fn validate(template: &Template, arguments: JsonObject) -> Result<Arguments, McpError> {
    let invalid = |message: String| McpError::invalid_params(message, None);
    for (key, value) in &arguments {
        if !template.arguments.iter().any(|arg| arg.name == key) {
            return Err(invalid(format!(
                "prompt '{}' takes no argument '{key}'",
                template.name
            )));
        }
        if value.as_str().is_none_or(str::is_empty) {
            return Err(invalid(format!(
                "argument '{key}' of prompt '{}' must be a non-empty string",
                template.name
            )));
        }
    }
    if let Some(missing) = template
        .arguments
        .iter()
        .find(|arg| arg.required && !arguments.contains_key(arg.name))
    {
        return Err(invalid(format!(
            "prompt '{}' needs the argument '{}': {}",
            template.name, missing.name, missing.description
        )));
    }
    let arguments = Arguments(arguments);
    if let Some(date) = arguments.get("date").filter(|date| !is_iso_date(date)) {
        return Err(invalid(format!(
            "date '{date}' is not a day in the form YYYY-MM-DD"
        )));
    }
    Ok(arguments)
}

/// Whether `text` is `YYYY-MM-DD` with a month 01-12 and a day 01-31.
fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |part: &str, len: usize| {
        (part.len() == len && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    match parts.as_slice() {
        [year, month, day] => {
            number(year, 4).is_some()
                && number(month, 2).is_some_and(|m| (1..=12).contains(&m))
                && number(day, 2).is_some_and(|d| (1..=31).contains(&d))
        }
        _ => false,
    }
}

fn summarize_note(args: &Arguments) -> String {
    let path = args.get("path").unwrap_or_default();
    format!(
        "Summarise the note `{path}` of my Obsidian vault.\n\n\
         1. Call `read_note` with path `{path}` and read the whole note (if it answers \
         overflow, read it section by section with its `heading` argument).\n\
         2. Find the notes that link to it. There is no backlinks tool yet: page through \
         `list_notes` and read likely candidates in batches with `read_notes`, looking for \
         [[wikilinks]] or Markdown links to `{path}` or its file name. If the tool list offers \
         a backlinks or search tool, use that instead.\n\
         3. Answer with a summary of at most five sentences, the note's key points as a \
         bullet list, and the notes that link to it with one line each on why.\n\n\
         Do not change any note."
    )
}

fn daily_review(args: &Arguments) -> String {
    let day = args
        .get("date")
        .map_or_else(|| "today".to_owned(), |date| format!("the day {date}"));
    format!(
        "Review {day} in my Obsidian vault.\n\n\
         1. Find the daily note: call `list_notes` and look for a note named after the date \
         (Obsidian's default is YYYY-MM-DD.md, often in a daily-notes folder); read it with \
         `read_note`.\n\
         2. Find the other notes changed that day: `list_notes` gives each note's \
         `modified_ms`; read the ones modified on that day with `read_notes`.\n\
         3. Answer with what was done, the open tasks (`- [ ]`) in these notes, and up to \
         three suggestions for tomorrow.\n\n\
         Do not change any note unless I ask."
    )
}

fn suggest_links(args: &Arguments) -> String {
    let path = args.get("path").unwrap_or_default();
    format!(
        "Suggest links for the note `{path}` of my Obsidian vault.\n\n\
         1. Call `read_note` with path `{path}`.\n\
         2. Call `list_notes` (follow its cursor to the end) to learn the names of the \
         vault's notes.\n\
         3. Find the places in the note that mention another note's topic or name but do not \
         link to it yet; read a candidate with `read_note` when its name alone is not enough.\n\
         4. Answer with a list: the text to link, the [[wikilink]] to use, and one line on why.\n\n\
         Do not edit the note; if I accept suggestions, apply them with `patch_note` using \
         the sha256 that `read_note` returned as expected_sha256."
    )
}

#[cfg(test)]
mod tests {
    use super::is_iso_date;

    #[test]
    fn iso_dates_are_checked_by_shape_and_range() {
        assert!(is_iso_date("2026-11-21"));
        for bad in [
            "2026-13-01",
            "2026-1-01",
            "21-11-2026",
            "2026-11-00",
            "x",
            "",
        ] {
            assert!(!is_iso_date(bad), "{bad}");
        }
    }
}
