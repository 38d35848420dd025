//! The MCP resource URI of a note, and the percent-encoding every URI a tool builds uses.

/// The scheme and separator of the MCP resource URI of a note (`obsidian-tc://<vault>/<path>`).
pub const RESOURCE_SCHEME: &str = "obsidian-tc://";

/// The URI of the note `path` in `vault`: the vault id and each segment percent-encoded.
pub fn note_uri(vault: &str, path: &str) -> String {
    let mut uri = String::from(RESOURCE_SCHEME);
    encode_component(&mut uri, vault);
    for segment in path.split('/') {
        uri.push('/');
        encode_component(&mut uri, segment);
    }
    uri
}

/// Appends `value` percent-encoded as JavaScript's `encodeURIComponent` does: every UTF-8
/// byte except `A-Z a-z 0-9 - _ . ! ~ * ' ( )` becomes `%XX` (upper-case hex).
pub(crate) fn encode_component(out: &mut String, value: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in value.bytes() {
        let unreserved = byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')'
            );
        if unreserved {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
    }
}
