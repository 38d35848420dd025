//! The metadata of a task line in the Obsidian Tasks plugin's emoji format (📅 due, ⏳
//! scheduled, 🛫 start, ✅ done, ➕ created, ❌ cancelled, 🔺⏫🔼🔽⏬ priority, 🔁 recurrence)
//! and Dataview's inline fields (`[due:: 2024-01-01]`, `(priority:: high)`): reading them
//! ([`fields`], [`tags`]) and rewriting one line in place ([`edit`]). Pure: no vault, no store.

pub mod edit;
pub mod fields;
pub mod status;
pub mod tags;

pub use fields::{DateField, FieldKind, FieldSpan, Priority, TaskFields, spans};
pub use status::StatusType;
pub use tags::task_tags;
