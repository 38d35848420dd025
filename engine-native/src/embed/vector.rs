//! Vector arithmetic shared by the providers.

/// Scales `vector` to unit length in place. Returns false (and leaves it unchanged) when it
/// has no direction: all zeros, or a NaN or infinite value.
pub fn l2_normalize(vector: &mut [f32]) -> bool {
    let norm = vector
        .iter()
        .map(|v| f64::from(*v) * f64::from(*v))
        .sum::<f64>()
        .sqrt();
    if !norm.is_finite() || norm == 0.0 {
        return false;
    }
    for v in vector.iter_mut() {
        *v = (f64::from(*v) / norm) as f32;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_refuses_vectors_without_direction() {
        let mut v = vec![3.0, 4.0];
        assert!(l2_normalize(&mut v));
        assert_eq!(v, [0.6, 0.8]);
        let mut zero = vec![0.0, 0.0];
        assert!(!l2_normalize(&mut zero));
        let mut nan = vec![f32::NAN, 1.0];
        assert!(!l2_normalize(&mut nan));
    }
}
