//! Pooling the token vectors of a padded batch into one vector per text, for both local
//! engines (each hands over its model's output as one flat array).

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::Pooling;

/// `mask` holds `rows × width` values, 1 for real tokens and 0 for padding, and `hidden` the
/// `rows × width × dims` token values (row, then token, then dimension); the result is one
/// vector of `dims` values per row. Padding never counts: mean and max look at real tokens
/// only. Sizes that do not fit together are an [`EmbedError::Model`].
pub fn pool(
    hidden: &[f32],
    mask: &[u32],
    width: usize,
    pooling: Pooling,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    if mask.is_empty() {
        return Ok(Vec::new());
    }
    if width == 0 || !mask.len().is_multiple_of(width) || !hidden.len().is_multiple_of(mask.len()) {
        return Err(EmbedError::Model {
            message: format!(
                "{} token values for a mask of {} tokens in rows of {width}",
                hidden.len(),
                mask.len()
            ),
        });
    }
    let dims = hidden.len() / mask.len();
    let token = |index: usize| &hidden[index * dims..(index + 1) * dims];
    let pooled = (0..mask.len() / width).map(|row| {
        let mut real = (row * width..(row + 1) * width).filter(|&t| mask[t] != 0);
        match pooling {
            Pooling::Cls => token(row * width).to_vec(),
            Pooling::Max => real.fold(vec![f32::NEG_INFINITY; dims], |mut acc, t| {
                acc.iter_mut()
                    .zip(token(t))
                    .for_each(|(a, v)| *a = a.max(*v));
                acc
            }),
            Pooling::Mean | Pooling::Provider => {
                let mut sum = vec![0.0f32; dims];
                let count = real
                    .by_ref()
                    .inspect(|&t| sum.iter_mut().zip(token(t)).for_each(|(s, v)| *s += v))
                    .count();
                let count = count.max(1) as f32;
                sum.iter_mut().for_each(|s| *s /= count);
                sum
            }
        }
    });
    Ok(pooled.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_never_counts() {
        // Two texts of three token slots with two dims; the second has one padding slot
        // holding a huge value that must not leak into any pooling.
        let hidden = [
            1.0f32, 2.0, 3.0, 4.0, 5.0, 0.0, //
            2.0, 2.0, 4.0, 0.0, 100.0, 100.0,
        ];
        let mask = [1u32, 1, 1, 1, 1, 0];
        let rows = |p| pool(&hidden, &mask, 3, p).expect("pool");
        assert_eq!(rows(Pooling::Mean), [[3.0, 2.0], [3.0, 1.0]]);
        assert_eq!(rows(Pooling::Cls), [[1.0, 2.0], [2.0, 2.0]]);
        assert_eq!(rows(Pooling::Max), [[5.0, 4.0], [4.0, 2.0]]);
    }

    #[test]
    fn sizes_that_do_not_fit_are_an_error() {
        assert!(pool(&[1.0; 5], &[1, 1], 2, Pooling::Mean).is_err());
        assert!(pool(&[1.0; 6], &[1, 1, 1], 2, Pooling::Mean).is_err());
        assert_eq!(pool(&[], &[], 0, Pooling::Mean), Ok(Vec::new()));
    }
}
