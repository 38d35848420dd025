//! [`NoteFilter`]: which notes a query may see, as a bitmap over note keys.

/// The notes a search may return, built once per query by the caller from the vault and ACL
/// decisions. A bitmap over note keys: `allows` is one load and a mask, so the scan checks it
/// for every row before scoring. It takes `max_key / 8` bytes, so note keys should be dense
/// (row ids of the notes table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteFilter {
    /// Every note is allowed (no bitmap).
    all: bool,
    /// Bit `key % 64` of word `key / 64` is set when `key` is allowed.
    words: Vec<u64>,
}

impl NoteFilter {
    /// A filter that allows no note; add notes with [`NoteFilter::allow`].
    pub fn none() -> Self {
        Self {
            all: false,
            words: Vec::new(),
        }
    }

    /// A filter that allows every note (for callers that already scoped the matrix).
    pub fn all() -> Self {
        Self {
            all: true,
            words: Vec::new(),
        }
    }

    /// A filter that allows exactly `keys`.
    pub fn from_keys(keys: impl IntoIterator<Item = u32>) -> Self {
        let mut filter = Self::none();
        for key in keys {
            filter.allow(key);
        }
        filter
    }

    /// Allows note `key`.
    pub fn allow(&mut self, key: u32) {
        let word = (key / 64) as usize;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1u64 << (key % 64);
    }

    /// Whether note `key` may be returned.
    #[inline]
    pub fn allows(&self, key: u32) -> bool {
        self.all
            || self
                .words
                .get((key / 64) as usize)
                .is_some_and(|word| word & (1u64 << (key % 64)) != 0)
    }
}
