//! Directory entry names as vault paths see them: NFC text, matched across the NFC/NFD
//! spellings a file system may store (macOS writes NFD names; a synced vault mixes both).

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

/// The NFC text of an on-disk name, or `None` when it is not UTF-8.
pub(crate) fn nfc_name(name: &OsStr) -> Option<String> {
    let text = name.to_str()?;
    Some(if text.is_ascii() {
        text.to_owned()
    } else {
        text.nfc().collect()
    })
}

/// The on-disk name in `dir` that the NFC segment `segment` addresses: the exact name when
/// it exists, otherwise an entry whose NFC form equals `segment`. `Ok(None)` when absent.
pub(crate) fn find_entry(dir: &Path, segment: &str) -> io::Result<Option<OsString>> {
    match dir.join(segment).symlink_metadata() {
        Ok(_) => return Ok(Some(OsString::from(segment))),
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        Err(_) => {}
    }
    // Only a non-ASCII name has spellings other than its NFC form.
    if segment.is_ascii() {
        return Ok(None);
    }
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        if nfc_name(&name).as_deref() == Some(segment) {
            return Ok(Some(name));
        }
    }
    Ok(None)
}
