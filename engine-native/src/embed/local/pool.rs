//! Pooling the token vectors of a padded batch into one vector per text.

use candle_core::{D, DType, IndexOp, Tensor};

use crate::embed::fingerprint::Pooling;

/// `hidden` is `(batch, tokens, dims)`, `mask` `(batch, tokens)` with 1 for real tokens and
/// 0 for padding; the result is `(batch, dims)`.
pub fn pool(hidden: &Tensor, mask: &Tensor, pooling: Pooling) -> candle_core::Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(D::Minus1)?;
    match pooling {
        Pooling::Cls => hidden.i((.., 0, ..)),
        Pooling::Max => {
            // Padding gets a large negative value so that it never wins.
            let penalty = ((mask.ones_like()? - &mask)? * -1e9)?;
            hidden.broadcast_add(&penalty)?.max(1)
        }
        Pooling::Mean | Pooling::Provider => {
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
            let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
            summed.broadcast_div(&counts)
        }
    }
}

#[cfg(test)]
mod tests {
    use candle_core::Device;

    use super::*;

    #[test]
    fn padding_never_counts() {
        // Two texts of three token slots with two dims; the second has one padding slot
        // holding a huge value that must not leak into any pooling.
        let hidden = Tensor::new(
            &[
                [[1.0f32, 2.0], [3.0, 4.0], [5.0, 0.0]],
                [[2.0, 2.0], [4.0, 0.0], [100.0, 100.0]],
            ],
            &Device::Cpu,
        )
        .expect("hidden");
        let mask = Tensor::new(&[[1u32, 1, 1], [1, 1, 0]], &Device::Cpu).expect("mask");
        let rows = |p| {
            pool(&hidden, &mask, p)
                .and_then(|t| t.to_vec2::<f32>())
                .expect("pool")
        };
        assert_eq!(rows(Pooling::Mean), [[3.0, 2.0], [3.0, 1.0]]);
        assert_eq!(rows(Pooling::Cls), [[1.0, 2.0], [2.0, 2.0]]);
        assert_eq!(rows(Pooling::Max), [[5.0, 4.0], [4.0, 2.0]]);
    }
}
