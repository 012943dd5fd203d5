//! Grundy values of octal and hexadecimal codes by the plain definition: the mex of the values
//! of every move, each move read off the code's digits. The independent computation that
//! answers about these games are checked against (it shares nothing with the engine).

use std::collections::HashSet;

/// The digits of a code written as in the language (`0.161`, `4.7`, `0.3F`): `digits[j]` for
/// taking `j` tokens.
pub fn digits(code: &str) -> Vec<u8> {
    let (whole, fraction) = code.split_once('.').unwrap_or((code, ""));
    std::iter::once(whole)
        .chain(fraction.split("").filter(|d| !d.is_empty()))
        .map(|d| u8::from_str_radix(d, 16).unwrap_or_else(|_| panic!("a digit of {code}: {d}")))
        .collect()
}

/// The values of heaps `0..len` of the game with these digits (`digits[j]` for taking `j`
/// tokens, `j = 0` taking none: bit 1 may take the whole heap, 2 leave one heap, 4 leave two
/// non-empty heaps, 8 three).
pub fn values(digits: &[u8], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = HashSet::new();
        for (j, &d) in digits.iter().enumerate().filter(|&(j, _)| j <= n) {
            let rest = n - j;
            if j >= 1 && (d & 1 != 0 && rest == 0 || d & 2 != 0 && rest > 0) {
                seen.insert(if rest == 0 { 0 } else { g[rest] });
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
            if d & 8 != 0 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        seen.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// The values of the game of this code on heaps `0..len`.
pub fn of_code(code: &str, len: usize) -> Vec<u64> {
    values(&digits(code), len)
}
