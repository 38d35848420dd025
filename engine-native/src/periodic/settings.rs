//! Where Obsidian keeps the notes of a period, resolved from its settings as Obsidian (and
//! `obsidian-daily-notes-interface`) does: the Periodic Notes plugin when it enables the
//! period, else, for daily notes, the core Daily notes plugin, else the defaults.
//!
//! The plugin's `data.json` has two shapes: before 1.0 one object per period
//! (`{"daily": {"enabled", "folder", "format", "template"}, "weekly": ...}`), since 1.0
//! calendar sets (`{"activeCalendarSet": id, "calendarSets": [{"id", "day": {"enabled",
//! "folder", "format", "templatePath"}, "week": ...}]}`). Both are read.

use serde::Serialize;
use serde_json::Value;

use super::period::Period;

/// Which settings a period's notes follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SettingsSource {
    /// The Periodic Notes plugin (`.obsidian/plugins/periodic-notes/data.json`).
    PeriodicNotes,
    /// The core Daily notes plugin (`.obsidian/daily-notes.json`).
    DailyNotes,
    /// Obsidian's defaults (the vault root, the default format, no template).
    Default,
}

/// The folder, name format and template of a period's notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodSettings {
    /// The vault-relative folder (no leading or trailing `/`; empty: the vault root).
    pub folder: String,
    /// The moment.js format of the note's path below the folder.
    pub format: String,
    /// The template note's vault-relative path as configured, when one is.
    pub template: Option<String>,
    /// Where these settings come from.
    pub source: SettingsSource,
}

/// The settings of `period` from the parsed `daily-notes.json` and the Periodic Notes
/// plugin's `data.json` (`None`: the file does not exist).
pub fn resolve(
    period: Period,
    daily_notes: Option<&Value>,
    periodic_notes: Option<&Value>,
) -> PeriodSettings {
    if let Some((section, template_key)) = periodic_notes.and_then(|v| plugin_section(v, period))
        && section.get("enabled").and_then(Value::as_bool) == Some(true)
    {
        let template = text(section, template_key).or_else(|| text(section, "template"));
        return settings_from(period, section, template, SettingsSource::PeriodicNotes);
    }
    if period == Period::Daily
        && let Some(daily) = daily_notes
    {
        return settings_from(
            period,
            daily,
            text(daily, "template"),
            SettingsSource::DailyNotes,
        );
    }
    PeriodSettings {
        folder: String::new(),
        format: period.default_format().to_owned(),
        template: None,
        source: SettingsSource::Default,
    }
}

/// The plugin's settings object for `period` and the key of its template path.
fn plugin_section(data: &Value, period: Period) -> Option<(&Value, &'static str)> {
    match data.get("calendarSets").and_then(Value::as_array) {
        Some(sets) => {
            let active = data.get("activeCalendarSet").and_then(Value::as_str);
            let set = sets
                .iter()
                .find(|set| active.is_some() && set.get("id").and_then(Value::as_str) == active)
                .or_else(|| sets.first())?;
            Some((set.get(period.granularity())?, "templatePath"))
        }
        None => Some((data.get(period.name())?, "template")),
    }
}

fn settings_from(
    period: Period,
    section: &Value,
    template: Option<String>,
    source: SettingsSource,
) -> PeriodSettings {
    let format = section
        .get("format")
        .and_then(Value::as_str)
        .filter(|format| !format.is_empty())
        .unwrap_or(period.default_format());
    PeriodSettings {
        folder: text(section, "folder")
            .map(|folder| folder.trim_matches('/').to_owned())
            .unwrap_or_default(),
        format: format.to_owned(),
        template,
        source,
    }
}

/// The trimmed, non-empty string at `key`.
fn text(section: &Value, key: &str) -> Option<String> {
    section
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn defaults_without_settings() {
        let weekly = resolve(Period::Weekly, None, None);
        assert_eq!(weekly.format, "gggg-[W]ww");
        assert_eq!(weekly.folder, "");
        assert_eq!(weekly.source, SettingsSource::Default);
        assert_eq!(resolve(Period::Yearly, None, None).format, "YYYY");
    }

    #[test]
    fn core_daily_notes_apply_to_daily_notes_only() {
        let core = json!({"folder": "/Journal/", "format": "", "template": " Templates/Day "});
        let daily = resolve(Period::Daily, Some(&core), None);
        assert_eq!(daily.folder, "Journal");
        assert_eq!(daily.format, "YYYY-MM-DD");
        assert_eq!(daily.template.as_deref(), Some("Templates/Day"));
        assert_eq!(daily.source, SettingsSource::DailyNotes);
        let monthly = resolve(Period::Monthly, Some(&core), None);
        assert_eq!(monthly.source, SettingsSource::Default);
    }

    #[test]
    fn an_enabled_periodic_notes_period_wins_over_core_daily_notes() {
        let core = json!({"folder": "Journal", "format": "DD-MM-YYYY"});
        let plugin = json!({
            "daily": {"enabled": true, "folder": "Days", "format": "YYYY/MM/YYYY-MM-DD", "template": "T/d"},
            "weekly": {"enabled": false, "folder": "Weeks", "format": "GGGG-[W]WW"}
        });
        let daily = resolve(Period::Daily, Some(&core), Some(&plugin));
        assert_eq!(daily.folder, "Days");
        assert_eq!(daily.format, "YYYY/MM/YYYY-MM-DD");
        assert_eq!(daily.template.as_deref(), Some("T/d"));
        assert_eq!(daily.source, SettingsSource::PeriodicNotes);
        // A disabled period is ignored.
        let weekly = resolve(Period::Weekly, Some(&core), Some(&plugin));
        assert_eq!(weekly.source, SettingsSource::Default);
        let disabled = json!({"daily": {"enabled": false, "folder": "Days"}});
        let daily = resolve(Period::Daily, Some(&core), Some(&disabled));
        assert_eq!(daily.format, "DD-MM-YYYY");
        assert_eq!(daily.source, SettingsSource::DailyNotes);
    }

    #[test]
    fn reads_the_active_calendar_set_of_periodic_notes_1() {
        let plugin = json!({
            "activeCalendarSet": "work",
            "calendarSets": [
                {"id": "default", "week": {"enabled": true, "folder": "Home", "format": "gggg-ww"}},
                {"id": "work", "week": {"enabled": true, "folder": "Work/Weeks", "format": "GGGG-[W]WW", "templatePath": "Templates/Week.md"}}
            ]
        });
        let weekly = resolve(Period::Weekly, None, Some(&plugin));
        assert_eq!(weekly.folder, "Work/Weeks");
        assert_eq!(weekly.format, "GGGG-[W]WW");
        assert_eq!(weekly.template.as_deref(), Some("Templates/Week.md"));
        assert_eq!(weekly.source, SettingsSource::PeriodicNotes);
        assert_eq!(
            resolve(Period::Monthly, None, Some(&plugin)).source,
            SettingsSource::Default
        );
    }
}
