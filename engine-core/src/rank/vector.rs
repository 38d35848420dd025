//! Dot product and cosine similarity over `f32` vectors, with a fixed summation order.
//!
//! Products are accumulated in 8 independent lanes (element `i` goes to lane `i % 8`,
//! over the leading multiple of 8 elements), the lanes are combined as
//! `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`, and the remaining `len % 8`
//! products are summed left to right and added last. The order is the same on every
//! build, and the lanes let the compiler use SIMD without reordering anything.

use core::fmt;

const LANES: usize = 8;

/// Why two vectors could not be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorError {
    /// The vectors differ in length.
    LengthMismatch {
        /// Length of the first vector.
        left: usize,
        /// Length of the second vector.
        right: usize,
    },
    /// An element is NaN or infinite.
    NonFiniteInput {
        /// 0 for the first vector, 1 for the second.
        vector: usize,
        /// Position of the first such element.
        index: usize,
    },
    /// The inputs are finite but the result (or a norm) overflows `f32`.
    Overflow,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VectorError::LengthMismatch { left, right } => {
                write!(f, "vectors differ in length ({left} vs {right})")
            }
            VectorError::NonFiniteInput { vector, index } => {
                write!(
                    f,
                    "vector {vector} has a NaN or infinite element at index {index}"
                )
            }
            VectorError::Overflow => write!(f, "the result overflows f32"),
        }
    }
}

/// Sum of `f(x, y)` over paired elements, in the fixed order described in the module doc.
fn lane_sum(a: &[f32], b: &[f32], f: impl Fn(f32, f32) -> f32) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            lanes[i] += f(x[i], y[i]);
        }
    }
    let (lanes, mut tail) = (vectorizable(lanes), 0.0f32); // see `vectorizable`
    for (x, y) in ra.iter().zip(rb) {
        tail += f(*x, *y);
    }
    ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
        + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
        + tail
}

/// Checks lengths before any arithmetic.
fn same_length(a: &[f32], b: &[f32]) -> Result<(), VectorError> {
    if a.len() == b.len() {
        Ok(())
    } else {
        Err(VectorError::LengthMismatch {
            left: a.len(),
            right: b.len(),
        })
    }
}

/// Explains a non-finite result: a non-finite input element, else an overflow. (Any NaN
/// or infinite element makes the sums non-finite, so inputs are only scanned on failure.)
fn explain_non_finite(a: &[f32], b: &[f32]) -> VectorError {
    for (vector, v) in [a, b].into_iter().enumerate() {
        if let Some(index) = v.iter().position(|x| !x.is_finite()) {
            return VectorError::NonFiniteInput { vector, index };
        }
    }
    VectorError::Overflow
}

/// The dot product `Σ a_i · b_i`. Empty vectors give `0`.
pub fn dot(a: &[f32], b: &[f32]) -> Result<f32, VectorError> {
    same_length(a, b)?;
    let d = lane_sum(a, b, |x, y| x * y);
    if d.is_finite() {
        Ok(d)
    } else {
        Err(explain_non_finite(a, b))
    }
}

/// The cosine similarity `a·b / (|a| |b|)`, clamped to `[-1, 1]` (rounding can overshoot
/// by an ulp). By definition it is `0` when either vector is all zeros (or empty).
pub fn cosine(a: &[f32], b: &[f32]) -> Result<f32, VectorError> {
    same_length(a, b)?;
    let d = lane_sum(a, b, |x, y| x * y);
    let na = lane_sum(a, a, |x, _| x * x);
    let nb = lane_sum(b, b, |_, y| y * y);
    if !(d.is_finite() && na.is_finite() && nb.is_finite()) {
        return Err(explain_non_finite(a, b));
    }
    if na == 0.0 || nb == 0.0 {
        return Ok(0.0);
    }
    let denom = libm::sqrtf(na) * libm::sqrtf(nb);
    if denom == 0.0 {
        return Ok(0.0);
    }
    Ok((d / denom).clamp(-1.0, 1.0))
}

/// The lanes, unchanged, behind an optimisation barrier on native targets. Without it LLVM
/// folds the lane combination into the loop of [`lane_sum`] and leaves the loop scalar (one
/// `mulss`/`addss` per element, or `mulps` over shuffled lanes); with it each group of four lanes
/// is one `mulps`/`addps` on x86-64, about twice as fast. Each lane still sums its own products
/// in order, so every result is bit-identical. The WebAssembly build (no SIMD) is left as it was.
#[inline(always)]
fn vectorizable(lanes: [f32; LANES]) -> [f32; LANES] {
    #[cfg(not(target_arch = "wasm32"))]
    let lanes = core::hint::black_box(lanes);
    lanes
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn dot_sums_in_the_documented_order() {
        let a: Vec<f32> = (1..=11).map(|i| i as f32).collect();
        let b = [1.0f32; 11];
        assert_eq!(dot(&a, &b), Ok(66.0));
        assert_eq!(dot(&[], &[]), Ok(0.0));
        // Left to right, 1e8 + 3 + 3 loses both 3s (f32 spacing at 1e8 is 8); the lanes add
        // (l0 + l1) + (l2 + l3) = 1e8 + 6, which rounds to 1e8 + 8.
        let a = [1e8f32, 0.0, 3.0, 3.0, 0.0, 0.0, 0.0, 0.0];
        assert_eq!(dot(&a, &[1.0; 8]), Ok(100_000_008.0));
    }

    #[test]
    fn cosine_basics() {
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 1.0]), Ok(0.0));
        assert_eq!(cosine(&[2.0, 0.0], &[3.0, 0.0]), Ok(1.0));
        assert_eq!(cosine(&[2.0, 0.0], &[-3.0, 0.0]), Ok(-1.0));
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), Ok(0.0));
        assert_eq!(cosine(&[], &[]), Ok(0.0));
        assert_eq!(
            cosine(&[1e-30, 0.0], &[1e-30, 0.0]),
            Ok(0.0),
            "norms underflow to zero"
        );
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            dot(&[1.0], &[1.0, 2.0]),
            Err(VectorError::LengthMismatch { left: 1, right: 2 })
        );
        assert_eq!(
            dot(&[1.0, f32::NAN], &[1.0, 2.0]),
            Err(VectorError::NonFiniteInput {
                vector: 0,
                index: 1
            })
        );
        assert_eq!(
            cosine(&[1.0], &[f32::INFINITY]),
            Err(VectorError::NonFiniteInput {
                vector: 1,
                index: 0
            })
        );
        assert_eq!(
            dot(&[3e38, 3e38], &[3e38, 3e38]),
            Err(VectorError::Overflow)
        );
        assert_eq!(cosine(&[3e30], &[1.0]), Err(VectorError::Overflow));
    }
}
