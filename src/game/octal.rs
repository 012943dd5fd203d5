//! Octal and hexadecimal games, with codes written as in Winning Ways (`0.07`, `0.137`, `4.07`;
//! `0.3F`).

use super::vocabulary::{HeapRules, Take};
use super::{Emit, Game, SolveError};

/// An octal or hexadecimal game: digit `d_j` says in which ways `j` tokens may be taken from a
/// heap. Bit 1: when they are the whole heap; bit 2: leaving one heap; bit 4: leaving two
/// non-empty heaps; bit 8 (hexadecimal codes only): leaving three non-empty heaps. The digit
/// before the point (`j = 0`) may only split a heap without taking: 0 or 4 (and 8 or C in hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Octal {
    pub name: String,
    digits: Vec<u8>,
}

/// The base a code is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Digits 0-7: bits 1, 2 and 4.
    Octal,
    /// Digits 0-9 and A-F (either case): bits 1, 2, 4 and 8.
    Hex,
}

impl Base {
    /// Hexadecimal when `hex`, else octal.
    pub fn of(hex: bool) -> Base {
        if hex {
            Base::Hex
        } else {
            Base::Octal
        }
    }
}

/// What is wrong with a code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    /// An octal code with a digit that only a hexadecimal code has (8, 9, A-F).
    HexDigitInOctal(char),
    /// Any other fault, said in words.
    Malformed(String),
}

impl Octal {
    /// Reads a code in `base`; on failure, says what is wrong with it.
    pub fn parse(name: &str, code: &str, base: Base) -> Result<Octal, CodeError> {
        let malformed = |reason: &str| CodeError::Malformed(reason.to_string());
        let (whole, fraction) = code
            .split_once('.')
            .ok_or_else(|| malformed("it has no point: write e.g. 0.07"))?;
        if fraction.is_empty() {
            return Err(malformed("there are no digits after the point"));
        }
        let digit = |c: char| match base {
            Base::Octal => c.to_digit(8),
            Base::Hex => c.to_digit(16),
        };
        if let Some(c) = whole
            .chars()
            .chain(fraction.chars())
            .find(|&c| digit(c).is_none())
        {
            return Err(match base {
                Base::Octal if c.is_ascii_hexdigit() => CodeError::HexDigitInOctal(c),
                Base::Octal => {
                    CodeError::Malformed(format!("`{c}` is not an octal digit (0 to 7)"))
                }
                Base::Hex => CodeError::Malformed(format!(
                    "`{c}` is not a hexadecimal digit (0 to 9, A to F)"
                )),
            });
        }
        let splits_only = match base {
            Base::Octal => {
                "the digit before the point may only be 0 or 4 (split a heap without taking)"
            }
            Base::Hex => {
                "the digit before the point may only be 0, 4, 8 or C (split a heap without taking)"
            }
        };
        let mut leading = whole.trim_start_matches('0').chars();
        let first = match (leading.next().and_then(digit), leading.next()) {
            (None, None) => 0,
            (Some(d), None) if d & 3 == 0 => d as u8,
            _ => return Err(malformed(splits_only)),
        };
        let mut digits = vec![first];
        digits.extend(fraction.chars().map(|c| digit(c).expect("checked") as u8));
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Octal {
            name: name.to_string(),
            digits,
        })
    }
}

impl Octal {
    /// The digits of the code with every move added whose results the code's other moves
    /// already reach with the same value: two codes with the same digits here have the same
    /// value at every heap (0.641 and 0.64; 4.442 and 4.44). Each rule adds moves that change
    /// no heap's set of option values, so the values stay those of the code:
    ///
    /// - when heap 1 has no move (its value is 0), taking `k - 1` and leaving two heaps reaches
    ///   `(1, n - k)`, of the value of `n - k`: taking `k` and leaving one heap adds nothing
    ///   (bit 2 of digit `k` from bit 4 of digit `k - 1`); likewise taking `k` and leaving
    ///   three heaps reaches `(1, a, b)`, so taking `k + 1` and leaving two adds nothing (bit 4
    ///   of digit `k + 1` from bit 8 of digit `k`);
    /// - in the same case, taking `k` from `k + 1` leaves heap 1, of value 0: taking `k + 1`
    ///   and leaving nothing adds nothing (bit 1 of digit `k + 1` from bit 2 of digit `k`);
    /// - taking `k` and leaving nothing is a move of heap `k` alone, to value 0: it adds
    ///   nothing when heap `k` has a move to value 0 already, that is when its value without it
    ///   is not 0 (the values of the smaller heaps are the same with it or without it).
    pub fn equal_by_definition_key(&self) -> Vec<u8> {
        let mut digits = self.digits.clone();
        let heap_one_has_no_move = digits.get(1).is_none_or(|d| d & 1 == 0);
        let mut k = 1;
        while heap_one_has_no_move && k <= digits.len() {
            let below = digits[k - 1];
            let from_below = (below & 4) >> 1 | (below & 8) >> 1;
            if from_below != 0 {
                digits.resize(digits.len().max(k + 1), 0);
                digits[k] |= from_below;
            }
            if digits.get(k).is_some_and(|d| d & 2 != 0) {
                digits.resize(digits.len().max(k + 2), 0);
                digits[k + 1] |= 1;
            }
            k += 1;
        }
        for k in 1..digits.len() {
            if digits[k] & 1 == 0 && small_values(&digits, k + 1)[k] != 0 {
                digits[k] |= 1;
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        digits
    }
}

/// The values of heaps `0..heaps` of the code of `digits`, by the definition (the few heaps
/// [`Octal::equal_by_definition_key`] reads).
fn small_values(digits: &[u8], heaps: usize) -> Vec<usize> {
    let mut values: Vec<usize> = Vec::with_capacity(heaps);
    for n in 0..heaps {
        let mut options = Vec::new();
        for (k, &d) in digits.iter().enumerate().take(n + 1) {
            let rest = n - k;
            if d & 1 != 0 && k > 0 && rest == 0 {
                options.push(0);
            }
            if d & 2 != 0 && k > 0 && rest > 0 {
                options.push(values[rest]);
            }
            if d & 4 != 0 {
                options.extend((1..=rest / 2).map(|a| values[a] ^ values[rest - a]));
            }
            if d & 8 != 0 {
                for a in 1..=rest / 3 {
                    let pairs = (a..=(rest - a) / 2).map(|b| values[b] ^ values[rest - a - b]);
                    options.extend(pairs.map(|pair| values[a] ^ pair));
                }
            }
        }
        options.sort_unstable();
        options.dedup();
        let mex = options.iter().enumerate().find(|&(i, &v)| i != v);
        values.push(mex.map_or(options.len(), |(i, _)| i));
    }
    values
}

/// Calls `emit` with each way `(a, b, c)`, `1 <= a <= b <= c`, to split `rest` into three heaps,
/// until it breaks; returns whether it went to the end.
pub fn each_three_way_split(rest: i64, emit: &mut Emit<'_>) -> bool {
    for a in 1..=rest / 3 {
        for b in a..=(rest - a) / 2 {
            if emit(&[a, b, rest - a - b]).is_break() {
                return false;
            }
        }
    }
    true
}

impl Game for Octal {
    fn heap_like(&self) -> bool {
        true
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        let n = state[0];
        for (j, &d) in self.digits.iter().enumerate() {
            let j = j as i64;
            if j > n {
                break;
            }
            let rest = n - j;
            if d & 1 != 0 && j > 0 && rest == 0 && emit(&[]).is_break() {
                return Ok(());
            }
            if d & 2 != 0 && j > 0 && rest > 0 && emit(&[rest]).is_break() {
                return Ok(());
            }
            if d & 4 != 0 {
                for a in 1..=rest / 2 {
                    if emit(&[a, rest - a]).is_break() {
                        return Ok(());
                    }
                }
            }
            if d & 8 != 0 && !each_three_way_split(rest, emit) {
                return Ok(());
            }
        }
        Ok(())
    }

    fn heap_rules(&self) -> Option<HeapRules> {
        let takes = self
            .digits
            .iter()
            .enumerate()
            .map(|(j, &d)| Take {
                take: j as u64,
                none: j > 0 && d & 1 != 0,
                one: j > 0 && d & 2 != 0,
                two: d & 4 != 0,
                three: d & 8 != 0,
                unequal: false,
            })
            .collect();
        Some(HeapRules {
            takes,
            ranges: Vec::new(),
        })
    }

    /// The structure of its moves, as any game with the same moves has it (a code of digits 0
    /// and 3 is a subtraction game).
    fn structure(&self) -> super::vocabulary::Structure {
        self.heap_rules()
            .map_or(super::vocabulary::Structure::Unknown, |rules| {
                rules.structure()
            })
    }

    fn options_follow_structure(&self) -> bool {
        true
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("{}[{}]", self.name, state[0])
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::ops::ControlFlow;

    use super::*;

    /// The values of heaps `0..heaps` by the definition: the mex of the XORs of each option's
    /// heaps, the options as the game lists them.
    fn plain_values(game: &Octal, heaps: usize) -> Vec<usize> {
        let mut values: Vec<usize> = Vec::new();
        for n in 0..heaps {
            let mut options = Vec::new();
            let mut emit = |parts: &[i64]| {
                options.push(parts.iter().fold(0, |x, &p| x ^ values[p as usize]));
                ControlFlow::Continue(())
            };
            game.options(&[n as i64], &mut emit).unwrap();
            values.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        values
    }

    fn codes(digits: u32, base: u32, leads: &[u32]) -> Vec<String> {
        let mut codes = Vec::new();
        for &lead in leads {
            for rest in 1..base.pow(digits) {
                let text: String = (0..digits)
                    .rev()
                    .map(|p| char::from_digit(rest / base.pow(p) % base, base).unwrap())
                    .collect();
                codes.push(format!("{lead}.{text}"));
            }
        }
        codes
    }

    /// Codes with the same key have the same values at every heap looked at (the plain
    /// definition of each code), and the key joins many of them (0.64 with 0.641 and 0.65,
    /// 4.44 with 4.442): octal codes of up to three digits to 400 heaps, hexadecimal codes of
    /// up to two to 60.
    #[test]
    fn codes_with_one_key_have_the_same_values() {
        let cases = [
            (codes(3, 8, &[0, 4]), Base::Octal, 400),
            (codes(2, 16, &[0, 4, 8]), Base::Hex, 60),
        ];
        for (codes, base, heaps) in cases {
            let mut first: HashMap<Vec<u8>, (String, Vec<usize>)> = HashMap::new();
            let mut joined = 0;
            for code in &codes {
                let game = Octal::parse(code, code, base).unwrap();
                let values = plain_values(&game, heaps);
                match first.get(&game.equal_by_definition_key()) {
                    Some((earlier, seen)) => {
                        assert_eq!(&values, seen, "{code} and {earlier}");
                        joined += 1;
                    }
                    None => {
                        first.insert(game.equal_by_definition_key(), (code.clone(), values));
                    }
                }
            }
            assert!(joined * 3 > codes.len(), "{joined} of {}", codes.len());
        }
        let key = |code: &str| {
            let game = Octal::parse(code, code, Base::Octal).unwrap();
            game.equal_by_definition_key()
        };
        assert_eq!(key("0.64"), key("0.641"));
        assert_eq!(key("0.64"), key("0.65"));
        assert_eq!(key("4.44"), key("4.442"));
        assert_ne!(key("0.161"), key("0.36"));
    }
}
