//! BM25F parameters and their validation.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::field::{Field, FieldWeights};

/// Largest accepted `k1`. Any larger value keeps every score finite but is meaningless
/// (saturation would practically never set in).
pub const MAX_K1: f32 = 1000.0;

/// Default field weights. The title weight (relative to the body) was chosen on the
/// SciFact train split (`eval_scifact --tune`: title 3 over a grid of 0.5 to 5). Aliases are
/// alternative titles and get the same weight; headings and tags cannot be measured on
/// SciFact and sit between body and title by judgement.
pub(crate) const DEFAULT_WEIGHTS: FieldWeights = FieldWeights {
    title: 3.0,
    aliases: 3.0,
    headings: 1.5,
    tags: 2.0,
    body: 1.0,
};

/// Parameters of the BM25F scorer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bm25Params {
    /// Term-frequency saturation, `0 <= k1 <= MAX_K1`. `0` makes scoring binary.
    pub k1: f32,
    /// Length normalisation strength, `0 <= b <= 1`.
    pub b: f32,
    /// Per-field weights.
    pub weights: FieldWeights,
}

impl Default for Bm25Params {
    /// `k1 = 1.2`, `b = 0.6` (chosen on the SciFact train split together with the title
    /// weight; test split: nDCG@10 0.6967) and [`FieldWeights::default`].
    fn default() -> Self {
        Bm25Params {
            k1: 1.2,
            b: 0.6,
            weights: DEFAULT_WEIGHTS,
        }
    }
}

/// Why a set of [`Bm25Params`] was refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamsError {
    /// `k1` is NaN, negative or above [`MAX_K1`].
    K1OutOfRange(f32),
    /// `b` is NaN or outside `[0, 1]`.
    BOutOfRange(f32),
    /// A field weight is NaN, infinite or negative.
    WeightOutOfRange(Field, f32),
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::K1OutOfRange(v) => write!(f, "k1 must be within [0, {MAX_K1}], got {v}"),
            ParamsError::BOutOfRange(v) => write!(f, "b must be within [0, 1], got {v}"),
            ParamsError::WeightOutOfRange(field, v) => {
                write!(
                    f,
                    "weight of field {field:?} must be finite and >= 0, got {v}"
                )
            }
        }
    }
}

impl Bm25Params {
    /// Checks every parameter against its documented range.
    pub fn validate(&self) -> Result<(), ParamsError> {
        if !(0.0..=MAX_K1).contains(&self.k1) {
            return Err(ParamsError::K1OutOfRange(self.k1));
        }
        if !(0.0..=1.0).contains(&self.b) {
            return Err(ParamsError::BOutOfRange(self.b));
        }
        for field in Field::ALL {
            let w = self.weights.get(field);
            if !(w.is_finite() && w >= 0.0) {
                return Err(ParamsError::WeightOutOfRange(field, w));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert_eq!(Bm25Params::default().validate(), Ok(()));
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let p = Bm25Params::default();
        assert!(matches!(
            Bm25Params { k1: f32::NAN, ..p }.validate(),
            Err(ParamsError::K1OutOfRange(_))
        ));
        assert!(matches!(
            Bm25Params { k1: -0.1, ..p }.validate(),
            Err(ParamsError::K1OutOfRange(_))
        ));
        assert!(matches!(
            Bm25Params { k1: 1001.0, ..p }.validate(),
            Err(ParamsError::K1OutOfRange(_))
        ));
        assert!(matches!(
            Bm25Params { b: 1.5, ..p }.validate(),
            Err(ParamsError::BOutOfRange(_))
        ));
        let w = FieldWeights {
            tags: f32::INFINITY,
            ..p.weights
        };
        assert_eq!(
            Bm25Params { weights: w, ..p }.validate(),
            Err(ParamsError::WeightOutOfRange(Field::Tags, f32::INFINITY))
        );
        let w = FieldWeights {
            body: -1.0,
            ..p.weights
        };
        assert!(Bm25Params { weights: w, ..p }.validate().is_err());
    }

    #[test]
    fn zero_and_huge_finite_values_are_accepted() {
        let w = FieldWeights {
            title: 0.0,
            body: 1e30,
            ..FieldWeights::UNIFORM
        };
        assert_eq!(
            Bm25Params {
                k1: 0.0,
                b: 0.0,
                weights: w
            }
            .validate(),
            Ok(())
        );
        assert_eq!(
            Bm25Params {
                k1: MAX_K1,
                b: 1.0,
                weights: w
            }
            .validate(),
            Ok(())
        );
    }
}
