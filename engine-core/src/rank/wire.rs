//! Byte-level primitives of the index format: little-endian fixed-width numbers and
//! unsigned LEB128 varints (little-endian base 128, minimal length, at most 64 bits).

use alloc::string::String;
use alloc::vec::Vec;

/// A reason the bytes could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WireError {
    /// The input ended inside a value.
    Eof,
    /// A structural rule was broken.
    Malformed(&'static str),
}

/// Appends `v` as a minimal unsigned LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a string as its varint byte length followed by its UTF-8 bytes.
pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// A cursor over input bytes; every read is bounds-checked.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// Number of unread bytes.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len()
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if n > self.bytes.len() {
            return Err(WireError::Eof);
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// One byte.
    pub(crate) fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.array::<1>()?[0])
    }

    /// A little-endian `u16`.
    pub(crate) fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian `u64`.
    pub(crate) fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A little-endian IEEE-754 `f32`.
    pub(crate) fn f32(&mut self) -> Result<f32, WireError> {
        Ok(f32::from_le_bytes(self.array()?))
    }

    /// A little-endian IEEE-754 `f64`.
    pub(crate) fn f64(&mut self) -> Result<f64, WireError> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// A minimal LEB128 varint of at most 64 bits.
    pub(crate) fn varint(&mut self) -> Result<u64, WireError> {
        let mut value: u64 = 0;
        for i in 0..10 {
            let byte = self.u8()?;
            let bits = u64::from(byte & 0x7f);
            if i == 9 && bits > 1 {
                return Err(WireError::Malformed("varint exceeds 64 bits"));
            }
            value |= bits << (7 * i);
            if byte & 0x80 == 0 {
                if i > 0 && byte == 0 {
                    return Err(WireError::Malformed("varint is not minimal"));
                }
                return Ok(value);
            }
        }
        Err(WireError::Malformed("varint longer than 10 bytes"))
    }

    /// A varint that must fit in 32 bits.
    pub(crate) fn varint_u32(&mut self) -> Result<u32, WireError> {
        u32::try_from(self.varint()?).map_err(|_| WireError::Malformed("varint exceeds 32 bits"))
    }

    /// A varint length followed by that many bytes of UTF-8.
    pub(crate) fn string(&mut self) -> Result<String, WireError> {
        let len = usize::try_from(self.varint()?).map_err(|_| WireError::Eof)?;
        let bytes = self.take(len)?;
        core::str::from_utf8(bytes)
            .map(String::from)
            .map_err(|_| WireError::Malformed("string is not valid UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_boundaries() {
        for v in [
            0u64,
            1,
            127,
            128,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            let mut r = Reader::new(&out);
            assert_eq!(r.varint(), Ok(v));
            assert_eq!(r.remaining(), 0);
        }
    }

    #[test]
    fn bad_varints_are_refused() {
        assert_eq!(Reader::new(&[0x80]).varint(), Err(WireError::Eof));
        assert!(matches!(
            Reader::new(&[0x80, 0x00]).varint(),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x10]).varint_u32(),
            Err(WireError::Malformed(_))
        ));
        let mut over = [0xffu8; 10];
        over[9] = 0x02;
        assert!(matches!(
            Reader::new(&over).varint(),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            Reader::new(&[0xff; 11]).varint(),
            Err(WireError::Malformed(_))
        ));
    }

    #[test]
    fn strings_check_utf8_and_bounds() {
        let mut out = Vec::new();
        put_str(&mut out, "héllo");
        assert_eq!(Reader::new(&out).string().as_deref(), Ok("héllo"));
        assert_eq!(Reader::new(&out[..3]).string(), Err(WireError::Eof));
        assert!(matches!(
            Reader::new(&[2, 0xc3, 0x28]).string(),
            Err(WireError::Malformed(_))
        ));
    }
}
