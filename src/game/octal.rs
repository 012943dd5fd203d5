//! Octal games, with codes written as in Winning Ways (`0.07`, `0.137`, `4.07`).

use super::heap::{HeapRules, Take};
use super::{Emit, Game, SolveError};

/// An octal game: digit `d_j` says in which ways `j` tokens may be taken from a heap. Bit 1:
/// when they are the whole heap; bit 2: leaving one heap; bit 4: leaving two non-empty heaps.
/// The digit before the point (`j = 0`) may only be 0 or 4: split a heap without taking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Octal {
    pub name: String,
    digits: Vec<u8>,
}

impl Octal {
    /// Reads a code; on failure, says what is wrong with it.
    pub fn parse(name: &str, code: &str) -> Result<Octal, String> {
        let (whole, fraction) = code
            .split_once('.')
            .ok_or_else(|| "it has no point: write e.g. 0.07".to_string())?;
        if fraction.is_empty() {
            return Err("there are no digits after the point".into());
        }
        if let Some(c) = code.chars().find(|c| *c != '.' && !('0'..='7').contains(c)) {
            return Err(format!("`{c}` is not an octal digit (0 to 7)"));
        }
        let first =
            match whole.trim_start_matches('0') {
                "" => 0,
                "4" => 4,
                _ => return Err(
                    "the digit before the point may only be 0 or 4 (split a heap without taking)"
                        .into(),
                ),
            };
        let mut digits = vec![first];
        digits.extend(fraction.bytes().map(|b| b - b'0'));
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Octal {
            name: name.to_string(),
            digits,
        })
    }

    /// The largest number of tokens a move takes.
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }
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
    fn structure(&self) -> super::period::Structure {
        self.heap_rules()
            .map_or(super::period::Structure::Unknown, |rules| rules.structure())
    }

    fn options_follow_structure(&self) -> bool {
        true
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("{}[{}]", self.name, state[0])
    }
}
