//! The BM25F arithmetic, in the exact order of operations documented in the module
//! [`crate::rank`] (every step is an IEEE-754 `f32` or `f64` operation; no FMA).

use super::field::Field;
use super::params::Bm25Params;
use super::postings::Posting;

/// Lucene's BM25 IDF, `ln(1 + (N - df + 0.5) / (df + 0.5))`, evaluated in `f64` with
/// `libm::log` and rounded once to `f32`. Always `> 0` for `df <= N`.
pub fn idf(n: u32, df: u32) -> f32 {
    let (n, df) = (f64::from(n), f64::from(df));
    libm::log(1.0 + (n - df + 0.5) / (df + 0.5)) as f32
}

/// Everything a query needs from the index statistics, computed once per query.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldScorer {
    /// `w_f`, or `0` for a field that takes no part (zero weight or no tokens anywhere).
    weight: [f32; Field::COUNT],
    /// `1 - b`.
    base: f32,
    /// `b / avglen_f`, computed in `f64` and rounded to `f32`.
    slope: [f32; Field::COUNT],
    /// `k1`.
    k1: f32,
    /// `k1 + 1`.
    k1_plus_1: f32,
}

impl FieldScorer {
    /// Prepares the per-field constants for `docs` live documents whose field lengths sum
    /// to `field_totals`.
    pub(crate) fn new(params: &Bm25Params, docs: u32, field_totals: &[u64; Field::COUNT]) -> Self {
        let mut weight = params.weights.to_array();
        let mut slope = [0.0f32; Field::COUNT];
        for f in 0..Field::COUNT {
            if field_totals[f] == 0 || docs == 0 {
                weight[f] = 0.0;
            } else {
                let avg = field_totals[f] as f64 / f64::from(docs);
                slope[f] = (f64::from(params.b) / avg) as f32;
            }
        }
        FieldScorer {
            weight,
            base: 1.0 - params.b,
            slope,
            k1: params.k1,
            k1_plus_1: params.k1 + 1.0,
        }
    }

    /// The weighted, length-normalised term frequency of one document's run of postings
    /// (fields in [`Field::ALL`] order), or `None` when no posting is in an active field.
    pub(crate) fn weighted_tf(&self, run: &[Posting], lens: &[u32; Field::COUNT]) -> Option<f32> {
        let mut sum = 0.0f32;
        let mut any = false;
        for p in run {
            let f = p.field_index();
            let w = self.weight[f];
            if w > 0.0 {
                let norm = self.base + self.slope[f] * lens[f] as f32;
                sum += w * p.tf() as f32 / norm;
                any = true;
            }
        }
        any.then_some(sum)
    }

    /// The saturated term frequency `(k1 + 1) / (1 + k1 / tf)`, which equals
    /// `tf (k1 + 1) / (tf + k1)` and stays finite even when `tf` overflows to infinity.
    pub(crate) fn saturate(&self, tf: f32) -> f32 {
        self.k1_plus_1 / (1.0 + self.k1 / tf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::field::FieldWeights;

    #[test]
    fn idf_matches_lucene_formula() {
        // N = 10, df = 1: ln(1 + 9.5 / 1.5)
        let want = libm::log(1.0 + 9.5 / 1.5) as f32;
        assert_eq!(idf(10, 1), want);
        assert!(idf(10, 10) > 0.0);
        assert!(idf(1, 1) > 0.0);
    }

    #[test]
    fn saturation_limits() {
        let p = Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: FieldWeights::UNIFORM,
        };
        let s = FieldScorer::new(&p, 1, &[1, 1, 1, 1, 1]);
        assert_eq!(s.saturate(f32::INFINITY), 2.2);
        let one = s.saturate(1.0);
        assert!(
            (one - 1.0).abs() < 1e-6,
            "tf = 1 with k1 = 1.2 gives 2.2 / 2.2"
        );
        let p0 = Bm25Params { k1: 0.0, ..p };
        assert_eq!(FieldScorer::new(&p0, 1, &[1; 5]).saturate(7.0), 1.0);
    }

    #[test]
    fn inactive_fields_contribute_nothing() {
        let w = FieldWeights {
            title: 0.0,
            ..FieldWeights::UNIFORM
        };
        let p = Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: w,
        };
        // title disabled by weight, headings disabled by having no tokens anywhere
        let s = FieldScorer::new(&p, 2, &[4, 2, 0, 2, 10]);
        let run = [Posting::new(0, Field::Title, 3)];
        assert_eq!(s.weighted_tf(&run, &[2, 1, 0, 1, 5]), None);
        let run = [
            Posting::new(0, Field::Title, 3),
            Posting::new(0, Field::Body, 2),
        ];
        // body: 2 / (0.25 + 0.75 * 5 / 5) = 2
        assert_eq!(s.weighted_tf(&run, &[2, 1, 0, 1, 5]), Some(2.0));
    }
}
