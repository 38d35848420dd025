//! The five fields a note is indexed under, and their weights.

use serde::{Deserialize, Serialize};

/// A field of an indexed document. The declaration order is the fixed order in which
/// per-field contributions are summed (title, aliases, headings, tags, body).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The note title (file name or `title` frontmatter).
    Title,
    /// Frontmatter `aliases`.
    Aliases,
    /// Markdown headings.
    Headings,
    /// Tags (inline and frontmatter).
    Tags,
    /// The note body.
    Body,
}

impl Field {
    /// Number of fields.
    pub const COUNT: usize = 5;

    /// All fields in summation order.
    pub const ALL: [Field; Field::COUNT] = [
        Field::Title,
        Field::Aliases,
        Field::Headings,
        Field::Tags,
        Field::Body,
    ];

    /// Position of the field in [`Field::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The field at position `index` of [`Field::ALL`], if any.
    pub const fn from_index(index: usize) -> Option<Field> {
        if index < Field::COUNT {
            Some(Field::ALL[index])
        } else {
            None
        }
    }
}

/// A non-negative weight per field: how much one occurrence of a term in that field counts
/// towards the document's weighted term frequency. A weight of `0` disables the field.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FieldWeights {
    /// Weight of [`Field::Title`].
    pub title: f32,
    /// Weight of [`Field::Aliases`].
    pub aliases: f32,
    /// Weight of [`Field::Headings`].
    pub headings: f32,
    /// Weight of [`Field::Tags`].
    pub tags: f32,
    /// Weight of [`Field::Body`].
    pub body: f32,
}

impl FieldWeights {
    /// Every field weighted equally (`1.0`): plain BM25 over the concatenated fields,
    /// except that lengths are still normalised per field.
    pub const UNIFORM: FieldWeights = FieldWeights {
        title: 1.0,
        aliases: 1.0,
        headings: 1.0,
        tags: 1.0,
        body: 1.0,
    };

    /// The weights as an array in [`Field::ALL`] order.
    pub const fn to_array(self) -> [f32; Field::COUNT] {
        [
            self.title,
            self.aliases,
            self.headings,
            self.tags,
            self.body,
        ]
    }

    /// Weights from an array in [`Field::ALL`] order.
    pub const fn from_array(w: [f32; Field::COUNT]) -> FieldWeights {
        FieldWeights {
            title: w[0],
            aliases: w[1],
            headings: w[2],
            tags: w[3],
            body: w[4],
        }
    }

    /// The weight of one field.
    pub const fn get(self, field: Field) -> f32 {
        self.to_array()[field.index()]
    }
}

impl Default for FieldWeights {
    /// The engine defaults (see [`crate::rank::Bm25Params::default`]).
    fn default() -> Self {
        crate::rank::params::DEFAULT_WEIGHTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_indices_round_trip_in_summation_order() {
        for (i, f) in Field::ALL.iter().enumerate() {
            assert_eq!(f.index(), i);
            assert_eq!(Field::from_index(i), Some(*f));
        }
        assert_eq!(Field::from_index(Field::COUNT), None);
    }

    #[test]
    fn weights_array_round_trip() {
        let w = FieldWeights {
            title: 1.0,
            aliases: 2.0,
            headings: 3.0,
            tags: 4.0,
            body: 5.0,
        };
        assert_eq!(FieldWeights::from_array(w.to_array()), w);
        assert_eq!(w.get(Field::Tags), 4.0);
    }
}
