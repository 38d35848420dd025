//! JSON numbers as ECMAScript prints them: `Number::toString` (ECMA-262 §6.1.6.1.20), which
//! is also what `JSON.stringify` and RFC 8785 §3.2.2.3 use.
//!
//! A `serde_json::Number` is read as the IEEE-754 double JavaScript would hold: integers
//! beyond ±2^53 round to the nearest double (ties to even), exactly like `JSON.parse` does.

use alloc::string::String;

use serde_json::Number;

use super::HashError;
use super::shortest::shortest_digits;

/// Appends `number` in ECMAScript form: `-0` prints as `0`, no `+` before positive numbers,
/// plain decimal notation for magnitudes in `[1e-6, 1e21)`, otherwise `d.ddde±x`.
pub(crate) fn write_number(number: &Number, out: &mut String) -> Result<(), HashError> {
    let value = as_double(number).ok_or(HashError::NonFiniteNumber)?;
    write_double(value, out);
    Ok(())
}

/// The double JavaScript would hold for `number`, if it is finite. Every number of the
/// default `serde_json` build is; with `arbitrary_precision` a literal like `1e400` is not.
fn as_double(number: &Number) -> Option<f64> {
    let value = if let Some(n) = number.as_u64() {
        n as f64
    } else if let Some(n) = number.as_i64() {
        n as f64
    } else {
        number.as_f64()?
    };
    value.is_finite().then_some(value)
}

/// Appends the ECMAScript `Number::toString` of a finite double.
pub(crate) fn write_double(value: f64, out: &mut String) {
    if value == 0.0 {
        out.push('0');
        return;
    }
    if value < 0.0 {
        out.push('-');
    }
    let decimal = shortest_digits(value.abs());
    let digits = decimal.digits();
    let k = digits.len() as i32;
    let n = decimal.exponent;
    if k <= n && n <= 21 {
        push_ascii(digits, out);
        push_zeros(n - k, out);
    } else if 0 < n && n <= 21 {
        let (whole, fraction) = digits.split_at_checked(n as usize).unwrap_or((digits, &[]));
        push_ascii(whole, out);
        out.push('.');
        push_ascii(fraction, out);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        push_zeros(-n, out);
        push_ascii(digits, out);
    } else {
        let (first, rest) = digits.split_first().unwrap_or((&b'0', &[]));
        out.push(char::from(*first));
        if !rest.is_empty() {
            out.push('.');
            push_ascii(rest, out);
        }
        let e = n - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        push_decimal(e.unsigned_abs(), out);
    }
}

fn push_ascii(digits: &[u8], out: &mut String) {
    out.extend(digits.iter().map(|&d| char::from(d)));
}

fn push_zeros(count: i32, out: &mut String) {
    for _ in 0..count {
        out.push('0');
    }
}

fn push_decimal(n: u32, out: &mut String) {
    if n >= 10 {
        push_decimal(n / 10, out);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(value: f64) -> String {
        let mut out = String::new();
        write_double(value, &mut out);
        out
    }

    #[test]
    fn zero_and_sign() {
        assert_eq!(js(0.0), "0");
        assert_eq!(js(-0.0), "0");
        assert_eq!(js(-1.5), "-1.5");
    }

    #[test]
    fn decimal_notation_boundaries() {
        assert_eq!(js(1e20), "100000000000000000000");
        assert_eq!(js(123_456_789_012_345_680_000.0), "123456789012345680000");
        assert_eq!(js(1e21), "1e+21");
        assert_eq!(js(1.5e21), "1.5e+21");
        assert_eq!(js(0.000001), "0.000001");
        assert_eq!(js(1.25e-6), "0.00000125");
        assert_eq!(js(1e-7), "1e-7");
        assert_eq!(js(-1.5e-7), "-1.5e-7");
        assert_eq!(js(4.5), "4.5");
        assert_eq!(js(0.002), "0.002");
    }

    #[test]
    fn extremes() {
        assert_eq!(js(5e-324), "5e-324");
        assert_eq!(js(-f64::MAX), "-1.7976931348623157e+308");
        assert_eq!(js(1e30), "1e+30");
    }

    #[test]
    fn integers_keep_their_value_as_doubles() {
        let mut out = String::new();
        write_number(&Number::from(u64::MAX), &mut out).unwrap();
        assert_eq!(out, "18446744073709552000");
        out.clear();
        write_number(&Number::from(i64::MIN), &mut out).unwrap();
        assert_eq!(out, "-9223372036854776000");
        out.clear();
        write_number(&Number::from(9_007_199_254_740_993u64), &mut out).unwrap();
        assert_eq!(out, "9007199254740992");
    }
}
