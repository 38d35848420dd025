//! An entity note: one note per entity in the vault's memory folder, in a shape a person can
//! read and edit in Obsidian and Dataview can query:
//!
//! ```markdown
//! ---
//! type: person
//! aliases:
//!   - Jo
//! works_at: "[[Acme]]"
//! ---
//! # Jo Smith
//!
//! ## Observations
//!
//! - Prefers tea to coffee [date:: 2026-11-27] [session:: s-1]
//! ```
//!
//! `type` is one of [`EntityType`]; relations are typed links in the frontmatter (a property
//! whose value is a wikilink or a list of them: real Obsidian links, which the typed-link tools
//! see too); observations are the list items of the `## Observations` section, each with its
//! date and the session that added it as Dataview inline fields. Reading takes what a human
//! wrote as it is: items without fields, other sections, other properties.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::frontmatter::{self, FrontmatterError};

/// The heading of the observations section.
pub const OBSERVATIONS_HEADING: &str = "## Observations";

/// The frontmatter properties an entity note uses for itself, not relations.
const OWN_PROPERTIES: [&str; 4] = ["type", "aliases", "status", "tags"];

/// What an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EntityType {
    /// A person.
    Person,
    /// A project.
    Project,
    /// A decision taken.
    Decision,
    /// An idea or a topic.
    Concept,
    /// A place.
    Place,
    /// Anything else.
    Other,
}

impl EntityType {
    /// The word in the note's `type` property.
    pub fn as_str(self) -> &'static str {
        match self {
            EntityType::Person => "person",
            EntityType::Project => "project",
            EntityType::Decision => "decision",
            EntityType::Concept => "concept",
            EntityType::Place => "place",
            EntityType::Other => "other",
        }
    }

    /// The type a `type` property names, if it is one of ours.
    pub fn parse(word: &str) -> Option<EntityType> {
        [
            EntityType::Person,
            EntityType::Project,
            EntityType::Decision,
            EntityType::Concept,
            EntityType::Place,
            EntityType::Other,
        ]
        .into_iter()
        .find(|kind| kind.as_str().eq_ignore_ascii_case(word.trim()))
    }
}

/// One observation: a fact about the entity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Observation {
    /// The fact, without its fields.
    pub text: String,
    /// The day it was recorded (`YYYY-MM-DD`), when the item says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The session that recorded it, when the item says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// One typed relation to another note, as the frontmatter says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Relation {
    /// The property (`works_at`).
    pub relation: String,
    /// The link target, without brackets, alias or heading (`Acme`).
    pub target: String,
}

/// What an entity note says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// The `type` property when it is one of ours.
    pub kind: Option<EntityType>,
    /// The `aliases` property.
    pub aliases: Vec<String>,
    /// The `status` property (`active`, `retired`, or whatever a person wrote), when set.
    pub status: Option<String>,
    /// The typed links of the frontmatter, in its order.
    pub relations: Vec<Relation>,
    /// The observations, in the note's order.
    pub observations: Vec<Observation>,
}

/// Reads an entity note (see the module docs); a frontmatter block that is not valid YAML is
/// the frontmatter error.
pub fn read_entity(text: &str) -> Result<Entity, FrontmatterError> {
    let front = frontmatter::read(text)?;
    let kind = front
        .properties
        .get("type")
        .and_then(Value::as_str)
        .and_then(EntityType::parse);
    let aliases = strings(front.properties.get("aliases"));
    let status = front
        .properties
        .get("status")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let relations = front
        .keys
        .iter()
        .filter(|key| !OWN_PROPERTIES.contains(&key.as_str()))
        .flat_map(|key| {
            strings(front.properties.get(key))
                .into_iter()
                .filter_map(|value| link_target(&value))
                .map(move |target| Relation {
                    relation: key.clone(),
                    target,
                })
        })
        .collect();
    Ok(Entity {
        kind,
        aliases,
        status,
        relations,
        observations: observations(text),
    })
}

/// A new entity note's text: its properties (`type`, `aliases` when any, then `relations`
/// grouped by property), the title and the observations section holding `observations`.
pub fn new_entity_text(
    name: &str,
    kind: EntityType,
    aliases: &[String],
    relations: &[Relation],
    observations: &[Observation],
) -> Result<String, FrontmatterError> {
    let mut text = format!("# {name}\n\n{OBSERVATIONS_HEADING}\n\n");
    for observation in observations {
        text.push_str(&observation_line(observation));
        text.push('\n');
    }
    let mut properties: Vec<(String, Value)> = vec![("type".to_owned(), kind.as_str().into())];
    if !aliases.is_empty() {
        properties.push(("aliases".to_owned(), aliases.to_vec().into()));
    }
    for relation in relations {
        let link = Value::from(wikilink(&relation.target));
        match properties
            .iter_mut()
            .find(|(key, _)| *key == relation.relation)
        {
            Some((_, Value::Array(links))) if !links.contains(&link) => links.push(link),
            Some((_, Value::Array(_))) => {}
            Some((_, single)) if *single != link => *single = vec![single.clone(), link].into(),
            Some(_) => {}
            None => properties.push((relation.relation.clone(), link)),
        }
    }
    for (key, value) in properties {
        text = frontmatter::apply(&text, &frontmatter::Edit::Set { key, value })?.text;
    }
    Ok(text)
}

/// `text` with `observation` added at the end of its observations section (the section is
/// added at the end of the note when it has none); `None` when an observation with the same
/// text is already there, whatever its date or session.
pub fn add_observation(text: &str, observation: &Observation) -> Option<String> {
    let wanted = normalized(&observation.text);
    if observations(text)
        .iter()
        .any(|known| normalized(&known.text) == wanted)
    {
        return None;
    }
    let line = observation_line(observation);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(heading) = lines
        .iter()
        .position(|line| line.trim_end() == OBSERVATIONS_HEADING)
    else {
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{OBSERVATIONS_HEADING}\n\n{line}\n"));
        return Some(out);
    };
    let section_end = lines[heading + 1..]
        .iter()
        .position(|line| line.starts_with('#'))
        .map_or(lines.len(), |i| heading + 1 + i);
    // After the section's last non-blank line (its last item), else right under the heading.
    let last = (heading + 1..section_end)
        .rev()
        .find(|&i| !lines[i].trim().is_empty());
    // An empty section gets its first item after a blank line, and one before what follows.
    let (end, lead) = match last {
        Some(i) => (i, ""),
        None => (heading, "\n"),
    };
    let rest: Vec<&str> = lines[end + 1..]
        .iter()
        .copied()
        .skip_while(|part| last.is_none() && part.trim().is_empty())
        .collect();
    let mut out = lines[..=end].concat();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(lead);
    out.push_str(&line);
    out.push('\n');
    if last.is_none() && !rest.is_empty() {
        out.push('\n');
    }
    out.push_str(&rest.concat());
    Some(out)
}

/// `text` with its title heading `# old` (the first line that is exactly that) made
/// `# new`; the text as it is when it has no such heading (a person may have retitled it).
pub fn retitle(text: &str, old: &str, new: &str) -> String {
    let heading = format!("# {old}");
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']) == heading {
            let end = offset + heading.len();
            return format!("{}# {new}{}", &text[..offset], &text[end..]);
        }
        offset += line.len();
    }
    text.to_owned()
}

/// The list item of an observation: `- text [date:: …] [session:: …]`.
pub fn observation_line(observation: &Observation) -> String {
    let mut line = format!("- {}", normalized(&observation.text));
    if let Some(date) = &observation.date {
        line.push_str(&format!(" [date:: {date}]"));
    }
    if let Some(session) = &observation.session {
        line.push_str(&format!(" [session:: {session}]"));
    }
    line
}

/// `[[target]]`.
pub fn wikilink(target: &str) -> String {
    format!("[[{target}]]")
}

/// The target of a wikilink value (`[[Acme|the firm]]` → `Acme`); `None` for other text.
pub fn link_target(value: &str) -> Option<String> {
    let inner = value.trim().strip_prefix("[[")?.strip_suffix("]]")?;
    let target = inner.split(['|', '#', '^']).next()?.trim();
    (!target.is_empty()).then(|| target.to_owned())
}

/// The observations of the note's observations section.
fn observations(text: &str) -> Vec<Observation> {
    let mut inside = false;
    let mut found = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_end();
        if trimmed.starts_with('#') {
            inside = trimmed == OBSERVATIONS_HEADING;
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            found.push(parse_item(item));
        }
    }
    found
}

/// An observation item without its `- `: trailing `[key:: value]` fields split off.
fn parse_item(item: &str) -> Observation {
    let mut rest = item.trim_end();
    let (mut date, mut session) = (None, None);
    while rest.ends_with(']') {
        let Some(open) = rest.rfind('[') else { break };
        let Some((key, value)) = rest[open + 1..rest.len() - 1].split_once("::") else {
            break;
        };
        match key.trim() {
            "date" => date = Some(value.trim().to_owned()),
            "session" => session = Some(value.trim().to_owned()),
            _ => break,
        }
        rest = rest[..open].trim_end();
    }
    Observation {
        text: rest.to_owned(),
        date,
        session,
    }
}

/// The string values of a property: its text, or the texts of its list.
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(text)) => vec![text.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// Text on one line with single spaces (case kept): how an observation is written, so it
/// stays one list item, and compared for duplicates.
fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observation(text: &str) -> Observation {
        Observation {
            text: text.to_owned(),
            date: Some("2026-11-27".to_owned()),
            session: Some("s-1".to_owned()),
        }
    }

    fn relation(relation: &str, target: &str) -> Relation {
        Relation {
            relation: relation.to_owned(),
            target: target.to_owned(),
        }
    }

    #[test]
    fn a_new_entity_reads_back_as_written() {
        let text = new_entity_text(
            "Jo Smith",
            EntityType::Person,
            &["Jo".to_owned()],
            &[
                relation("works_at", "Acme"),
                relation("knows", "Ann"),
                relation("knows", "Bob"),
            ],
            &[observation("Prefers tea\nto coffee")],
        )
        .expect("text");
        assert_eq!(
            text,
            "---\ntype: person\naliases:\n  - Jo\nworks_at: \"[[Acme]]\"\nknows:\n  - \"[[Ann]]\"\n  - \"[[Bob]]\"\n---\n# Jo Smith\n\n## Observations\n\n- Prefers tea to coffee [date:: 2026-11-27] [session:: s-1]\n"
        );
        let entity = read_entity(&text).expect("entity");
        assert_eq!(entity.kind, Some(EntityType::Person));
        assert_eq!(entity.aliases, vec!["Jo"]);
        assert_eq!(
            entity.relations,
            vec![
                relation("works_at", "Acme"),
                relation("knows", "Ann"),
                relation("knows", "Bob")
            ]
        );
        assert_eq!(
            entity.observations,
            vec![observation("Prefers tea to coffee")]
        );
    }

    #[test]
    fn an_observation_goes_after_the_last_item_once() {
        let text = "---\ntype: person\n---\n# Jo\n\n## Observations\n\n- One [date:: 2026-01-01]\n- Two\n\n## Notes\n\nmine\n";
        let added = add_observation(text, &observation("Three")).expect("added");
        assert_eq!(
            added,
            "---\ntype: person\n---\n# Jo\n\n## Observations\n\n- One [date:: 2026-01-01]\n- Two\n- Three [date:: 2026-11-27] [session:: s-1]\n\n## Notes\n\nmine\n"
        );
        assert_eq!(add_observation(&added, &observation("Three")), None);
        assert_eq!(
            add_observation(&added, &observation("  Two ")),
            None,
            "a human's item without fields counts too"
        );
        let items = read_entity(&added).expect("entity").observations;
        assert_eq!(items.len(), 3);
        assert_eq!(items[1].date, None);
    }

    #[test]
    fn a_note_without_the_section_gets_one() {
        assert_eq!(
            add_observation("# Jo\nwritten by hand", &observation("Fact")).expect("added"),
            "# Jo\nwritten by hand\n\n## Observations\n\n- Fact [date:: 2026-11-27] [session:: s-1]\n"
        );
        assert_eq!(
            add_observation(
                "# Jo\n\n## Observations\n\n## Later\n",
                &observation("Fact")
            )
            .expect("added"),
            "# Jo\n\n## Observations\n\n- Fact [date:: 2026-11-27] [session:: s-1]\n\n## Later\n"
        );
    }

    #[test]
    fn retitling_changes_only_the_title_heading() {
        let text = "---\ntype: person\n---\n# Jo\n\n## Observations\n\n- # Jo is not a heading\n";
        assert_eq!(
            retitle(text, "Jo", "Jo Smith"),
            "---\ntype: person\n---\n# Jo Smith\n\n## Observations\n\n- # Jo is not a heading\n"
        );
        assert_eq!(retitle("# Joanna\r\nx", "Jo", "Ann"), "# Joanna\r\nx");
        assert_eq!(retitle("# Jo\r\nx", "Jo", "Ann"), "# Ann\r\nx");
    }

    #[test]
    fn wikilink_values_are_relations_and_other_values_are_not() {
        let text = "---\ntype: project\nstatus: active\nowner: \"[[Jo Smith|Jo]]\"\nbudget: 100\nsee: \"plain text\"\nparts: [\"[[A#Intro]]\", \"[[B]]\"]\n---\n";
        let entity = read_entity(text).expect("entity");
        assert_eq!(
            entity.relations,
            vec![
                relation("owner", "Jo Smith"),
                relation("parts", "A"),
                relation("parts", "B")
            ]
        );
        assert_eq!(EntityType::parse(" Person "), Some(EntityType::Person));
        assert_eq!(EntityType::parse("robot"), None);
    }
}
