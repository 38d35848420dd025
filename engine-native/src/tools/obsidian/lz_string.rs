//! LZ-String's `decompressFromBase64`: how Excalidraw stores a drawing's scene in a
//! `compressed-json` block. A format fact carried over from LZ-String (MIT); the text is
//! UTF-16 code units, as in JavaScript.

/// The alphabet of LZ-String's Base64 (`=` maps to 64, as LZ-String's table does).
const BASE64: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

/// The bits each Base64 character carries.
const BITS_PER_CHAR: u32 = 6;

/// The compressed bit stream: each Base64 value gives 6 bits, its highest bit first.
struct Bits<'a> {
    values: &'a [u8],
    index: usize,
    position: u32,
}

impl Bits<'_> {
    /// The next `count` bits, least significant first; `None` past the end.
    fn take(&mut self, count: u32) -> Option<u32> {
        let mut bits = 0u32;
        for power in 0..count {
            let value = u32::from(*self.values.get(self.index)?);
            if value & (1 << (self.position - 1)) != 0 {
                bits |= 1 << power;
            }
            self.position -= 1;
            if self.position == 0 {
                self.position = BITS_PER_CHAR;
                self.index += 1;
            }
        }
        Some(bits)
    }
}

/// Decompresses LZ-String Base64 text (whitespace ignored). `None` when it is not valid.
pub(crate) fn decompress_from_base64(input: &str) -> Option<String> {
    let values = input
        .bytes()
        .filter(|byte| !byte.is_ascii_whitespace())
        .map(|byte| {
            BASE64
                .iter()
                .position(|&c| c == byte)
                .and_then(|v| u8::try_from(v).ok())
        })
        .collect::<Option<Vec<u8>>>()?;
    let mut bits = Bits {
        values: &values,
        index: 0,
        position: BITS_PER_CHAR,
    };
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let first = match bits.take(2)? {
        0 => vec![u16::try_from(bits.take(8)?).ok()?],
        1 => vec![u16::try_from(bits.take(16)?).ok()?],
        _ => return Some(String::new()),
    };
    dictionary.push(first.clone());
    let mut previous = first.clone();
    let mut out = first;
    let mut enlarge_in: u32 = 4;
    let mut num_bits: u32 = 3;
    loop {
        let mut code = usize::try_from(bits.take(num_bits)?).ok()?;
        match code {
            0 | 1 => {
                let width = if code == 0 { 8 } else { 16 };
                dictionary.push(vec![u16::try_from(bits.take(width)?).ok()?]);
                code = dictionary.len() - 1;
                enlarge_in -= 1;
            }
            2 => return String::from_utf16(&out).ok(),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let entry = match dictionary.get(code) {
            Some(entry) => entry.clone(),
            None if code == dictionary.len() => {
                let mut entry = previous.clone();
                entry.push(*previous.first()?);
                entry
            }
            None => return None,
        };
        out.extend_from_slice(&entry);
        let mut added = previous;
        added.push(*entry.first()?);
        dictionary.push(added);
        enlarge_in -= 1;
        previous = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decompress_from_base64;

    #[test]
    fn decodes_what_lz_string_compressed() {
        // lz-string 1.5's compressToBase64 of the expected texts
        let empty = "N4IgLgngDgpiBcIYA8DGBDANgSwCYCd0B3EAGiUxgFsYA7MAZwQG0BdAXyA=";
        assert_eq!(
            decompress_from_base64(empty).as_deref(),
            Some("{\"type\":\"excalidraw\",\"elements\":[]}")
        );
        let wide = "N4IgLgngDgpiBcIYA8DGBDANgSwCYCd0B3EAGhADcZ8BnbAewDsEAmcmTGAWxkbBoQBtUHgQh0ARjLhocRGBRhpC5EsQAJDpnoACAJc7AyOQ7ALBuA8XZABfUiNxiARi2Wyx+GKjDpGAc05WbIKKIks6wYipK5BFimpja+kY66N7o2MyWALqWQA=";
        let expected = "{\"type\":\"excalidraw\",\"version\":2,\"elements\":[{\"id\":\"a1\",\"type\":\"text\",\"text\":\"Hello é ✓ 𝄞\"},{\"id\":\"b2\",\"type\":\"rectangle\"},{\"id\":\"a1\",\"type\":\"text\",\"text\":\"Hello é ✓ again\"}]}";
        let split: String = wide
            .as_bytes()
            .chunks(64)
            .map(|line| String::from_utf8_lossy(line).into_owned() + "\n")
            .collect();
        assert_eq!(decompress_from_base64(&split).as_deref(), Some(expected));
    }

    #[test]
    fn refuses_text_outside_the_alphabet() {
        assert_eq!(decompress_from_base64("not base64!"), None);
    }
}
