//! Fuzzes YAML frontmatter reading and editing (`frontmatter::read`, `apply`,
//! `property_types`) on arbitrary notes and edits.
//!
//! Input layout: the first byte picks the mode (set, remove, merge, replace); the rest, read
//! as lossy UTF-8, is split at its first NUL into the edit and the note. For set, the edit is
//! `key=value` (the value as JSON, else as text); for remove, the key; for merge and replace,
//! a JSON object of properties (else one property named by the text).
//!
//! Nothing may panic. An edit that succeeds must round-trip: `changed` says whether the text
//! changed, the new text reads back to exactly the `after` properties, a set property reads
//! back as the value given, a removed one is gone, and the same edit applied again changes
//! nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use obsidian_tc::frontmatter::{Edit, apply, property_types, read};
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let input = String::from_utf8_lossy(rest);
    let (head, note) = input.split_once('\0').unwrap_or((&input, ""));
    let _ = property_types(note);
    let _ = read(note);
    let edit = edit_from(mode, head);
    let Ok(result) = apply(note, &edit) else {
        return;
    };
    assert_eq!(
        result.changed,
        result.text != note,
        "changed does not match the text"
    );
    let back = read(&result.text).expect("an edited note reads back");
    assert_eq!(
        back.properties, result.after,
        "the new text does not read back to `after`"
    );
    match &edit {
        Edit::Set { key, value } => {
            assert_eq!(
                back.properties.get(key),
                Some(value),
                "set {key} reads back differently"
            )
        }
        Edit::Remove { key } => assert!(!back.properties.contains_key(key), "{key} not removed"),
        Edit::Merge { .. } => {}
        Edit::Replace { properties } => {
            assert_eq!(
                &back.properties, properties,
                "replace reads back differently"
            )
        }
    }
    let again = apply(&result.text, &edit).expect("the same edit applies again");
    assert!(
        !again.changed,
        "the same edit applied twice changed the note again"
    );
});

/// The edit the mode byte and the head text describe (see the module docs).
fn edit_from(mode: u8, head: &str) -> Edit {
    let json = || serde_json::from_str::<Value>(head).ok();
    let properties = || match json() {
        Some(Value::Object(map)) => map,
        _ => Map::from_iter([(head.to_owned(), Value::Bool(true))]),
    };
    match mode % 4 {
        0 => {
            let (key, value) = head.split_once('=').unwrap_or((head, ""));
            let value =
                serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
            Edit::Set {
                key: key.to_owned(),
                value,
            }
        }
        1 => Edit::Remove {
            key: head.to_owned(),
        },
        2 => Edit::Merge {
            properties: properties(),
        },
        _ => Edit::Replace {
            properties: properties(),
        },
    }
}
