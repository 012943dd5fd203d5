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
