//! Misère play beyond one value: the genus of a sum (Conway; Winning Ways, chapter 13).
//!
//! The genus of a position P is its normal-play value g and the misère values γ0, γ1, γ2, ...
//! of P, P + *2, P + *2 + *2, ...; they alternate from some point on. They are found for every
//! sum the search meets from those of its options, as CGSuite does (after Hoey): γ0 is the mex
//! of the options' γ0 (1 when there is no move), and γk is the mex of the options' γk together
//! with γ(k-1) and γ(k-1) xor 1 (the moves in the k-th *2, to *0 and to *1). When no option's
//! sequence changes beyond index d, this one alternates beyond d + 2.

use std::fmt;

use rustc_hash::FxHashMap;

use super::engine::Engine;
use super::{budget, Part, Position, SolveError};

/// The genus of a position, in Conway's notation `g^γ0γ1...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play Grundy value.
    pub normal: u64,
    /// The misère values of P + k copies of *2 for k = 0, 1, ..., up to where they alternate:
    /// the last two alternate forever after (at least two are kept).
    pub misere: Vec<u64>,
}

impl Genus {
    /// The misère value of the position plus `k` copies of *2.
    pub fn misere_with_twos(&self, k: usize) -> u64 {
        digit(&self.misere, k)
    }

    /// Whether the misère values are those of a tame game of the same normal value: γ0 is
    /// 1 - g when g < 2 and g otherwise, then g xor 2, g, g xor 2, ... (the genus of a nim heap).
    pub fn is_tame(&self) -> bool {
        let g = self.normal;
        (0..self.misere.len() + 2).all(|k| {
            let tame = match k {
                0 if g < 2 => 1 - g,
                _ => g ^ (((k & 1) as u64) << 1),
            };
            self.misere_with_twos(k) == tame
        })
    }
}

impl fmt::Display for Genus {
    /// `0^1`, `2^2` for tame genera (only γ0 is written: the rest follows), else every misère
    /// value up to the alternation, `4^146`, in parentheses and commas when one is above 9,
    /// `6^(1,9,10,8)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = if self.is_tame() {
            &self.misere[..1]
        } else {
            &self.misere[..]
        };
        let digits: Vec<String> = shown.iter().map(u64::to_string).collect();
        if shown.iter().any(|&v| v > 9) {
            write!(f, "{}^({})", self.normal, digits.join(","))
        } else {
            write!(f, "{}^{}", self.normal, digits.concat())
        }
    }
}

/// γk of a trimmed sequence: beyond its end, its last two values alternate.
fn digit(values: &[u64], k: usize) -> u64 {
    let n = values.len();
    if k < n {
        values[k]
    } else {
        values[n - 2 + ((n ^ k) & 1)]
    }
}

/// The misère values of a sum with no move: 1, 2, 0, 2, 0, ...
const NO_MOVE: [u64; 3] = [1, 2, 0];

/// The misère values of sums, trimmed (see [`Genus::misere`]), by their misère key (the sorted
/// components that can move). A sum being searched holds an empty list.
#[derive(Default)]
pub struct GenusMemo {
    values: FxHashMap<Vec<Part>, Box<[u64]>>,
    /// The bytes of the keys and value lists, beyond the table's own.
    bytes: usize,
}

/// A sum being searched: its key, its options, and the next option to visit.
type GenusFrame = (Vec<Part>, Vec<Vec<Part>>, usize);

impl Engine {
    /// The genus of a position (its misère flag is ignored: the genus covers both plays).
    pub fn genus(&mut self, position: &Position) -> Result<Genus, SolveError> {
        if self.in_sweep {
            return Err(SolveError::Deferred);
        }
        let normal = self.value(&position.with_misere(false))?;
        let root = self.misere_key(&position.to_vec())?;
        let known = self.genus_memo.values.get(&root);
        if known.is_none_or(|v| v.is_empty()) {
            let mut stack = Vec::new();
            let result = self.genus_search(root.clone(), &mut stack);
            if result.is_err() {
                for (key, _, _) in stack {
                    if let Some(values) = self.genus_memo.values.remove(&key) {
                        self.genus_memo.bytes -= entry_bytes(&key, &values);
                    }
                }
            }
            result?;
        }
        Ok(Genus {
            normal,
            misere: self.genus_memo.values[&root].to_vec(),
        })
    }

    fn genus_search(
        &mut self,
        root: Vec<Part>,
        stack: &mut Vec<GenusFrame>,
    ) -> Result<(), SolveError> {
        let options = self.misere_options(&root)?;
        let mut frames = frame_bytes(&root, &options);
        self.genus_memo.bytes += entry_bytes(&root, &[]);
        self.genus_memo.values.insert(root.clone(), Box::new([]));
        stack.push((root, options, 0));
        let mut column = Vec::new();
        while let Some((_, options, next)) = stack.last_mut() {
            if *next < options.len() {
                let child = options[*next].clone();
                *next += 1;
                match self.genus_memo.values.get(&child) {
                    Some(values) if values.is_empty() => {
                        return Err(self.misere_loop(stack, &child))
                    }
                    Some(_) => {}
                    None => {
                        self.misere_room(self.genus_memo.values.len())?;
                        let grand = self.misere_options(&child)?;
                        let frame = frame_bytes(&child, &grand);
                        let held = budget::table(&self.genus_memo.values, true)
                            + self.genus_memo.bytes
                            + entry_bytes(&child, &[])
                            + frames
                            + frame
                            + budget::vector(stack, 1);
                        if held > self.limits.max_memory {
                            return Err(SolveError::MemoryLimit(self.limits.max_memory));
                        }
                        frames += frame;
                        self.genus_memo.bytes += entry_bytes(&child, &[]);
                        self.genus_memo.values.insert(child.clone(), Box::new([]));
                        stack.push((child, grand, 0));
                    }
                }
                continue;
            }
            let (key, options, _) = stack.pop().expect("stack is not empty");
            frames -= frame_bytes(&key, &options);
            let values = self.genus_from_options(&options, &mut column);
            self.genus_memo.bytes += entry_bytes(&key, &values) - entry_bytes(&key, &[]);
            self.genus_memo.values.insert(key, values);
        }
        Ok(())
    }

    /// The trimmed misère values of a sum from those of its options (all known).
    fn genus_from_options(&self, options: &[Vec<Part>], column: &mut Vec<u64>) -> Box<[u64]> {
        if options.is_empty() {
            return Box::new(NO_MOVE);
        }
        let of = |o: &Vec<Part>| &self.genus_memo.values[o];
        let changes = options.iter().map(|o| of(o).len() - 1).max().unwrap_or(1);
        let last = changes.max(1) + 2;
        let mut values: Vec<u64> = Vec::with_capacity(last + 1);
        for k in 0..=last {
            column.clear();
            column.extend(options.iter().map(|o| digit(of(o), k)));
            if let Some(&before) = values.last() {
                column.extend([before, before ^ 1]);
            }
            values.push(super::mex(column));
        }
        let mut end = last;
        while end > 1 && values[end] == values[end - 2] {
            end -= 1;
        }
        values.truncate(end + 1);
        values.into_boxed_slice()
    }
}

/// The bytes of one memo entry beyond the table's buckets: its key and its value list.
fn entry_bytes(key: &Vec<Part>, values: &[u64]) -> usize {
    super::engine::parts_bytes(key)
        + if values.is_empty() {
            0
        } else {
            budget::boxed(values.len() * 8)
        }
}

/// The bytes a frame holds beyond its place on the stack: its key and its options.
fn frame_bytes(key: &Vec<Part>, options: &Vec<Vec<Part>>) -> usize {
    super::engine::misere_frame_bytes(key, options)
}

#[cfg(test)]
mod tests {
    use super::Genus;

    fn genus(normal: u64, misere: &[u64]) -> String {
        Genus {
            normal,
            misere: misere.to_vec(),
        }
        .to_string()
    }

    #[test]
    fn notation_abbreviates_tame_genera_and_brackets_large_values() {
        assert_eq!(genus(0, &[1, 2, 0]), "0^1");
        assert_eq!(genus(1, &[0, 3, 1]), "1^0");
        assert_eq!(genus(2, &[2, 0]), "2^2");
        assert_eq!(genus(4, &[1, 4, 6]), "4^146");
        assert_eq!(genus(1, &[1, 3]), "1^13");
        assert_eq!(genus(6, &[1, 9, 10, 8]), "6^(1,9,10,8)");
        assert_eq!(genus(10, &[10, 8]), "10^(10)");
    }

    #[test]
    fn values_beyond_the_list_alternate_its_last_two() {
        let g = Genus {
            normal: 4,
            misere: vec![1, 4, 6],
        };
        let values: Vec<u64> = (0..7).map(|k| g.misere_with_twos(k)).collect();
        assert_eq!(values, [1, 4, 6, 4, 6, 4, 6]);
    }
}
