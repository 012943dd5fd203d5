//! Misère play beyond one value: the genus of a sum (Conway; Winning Ways, chapter 13).
//!
//! The genus of a position P is its normal-play value g and the misère values γ0, γ1, γ2, ...
//! of P, P + *2, P + *2 + *2, ...; they alternate from some point on. They are found for every
//! sum the search meets from those of its options, as CGSuite does (after Hoey): γ0 is the mex
//! of the options' γ0 (1 when there is no move), and γk is the mex of the options' γk together
//! with γ(k-1) and γ(k-1) xor 1 (the moves in the k-th *2, to *0 and to *1). When no option's
//! sequence changes beyond index d, this one alternates beyond d + 2.

use std::fmt;

use rustc_hash::{FxHashMap, FxHashSet};

use super::engine::Engine;
use super::sums::{self, Measure, MisereSums};
use super::vocabulary::Outcome;
use super::{budget, GameId, Part, Position, SolveError};

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

/// The genus as a [`Measure`]: each distinct list of misère values (trimmed, see
/// [`Genus::misere`]) is stored once, and a sum's number is its list's index.
#[derive(Default)]
pub struct Genera {
    lists: Vec<Box<[u64]>>,
    ids: FxHashMap<Box<[u64]>, u32>,
    /// The bytes of the lists, each held twice (in `lists` and in `ids`).
    list_bytes: usize,
    column: Vec<u64>,
}

impl Genera {
    fn intern(&mut self, values: Vec<u64>) -> u32 {
        if let Some(&id) = self.ids.get(values.as_slice()) {
            return id;
        }
        let id = self.lists.len() as u32;
        let values = values.into_boxed_slice();
        self.list_bytes += 2 * budget::boxed(values.len() * 8);
        self.lists.push(values.clone());
        self.ids.insert(values, id);
        id
    }
}

impl Measure for Genera {
    fn no_move(&mut self) -> u32 {
        self.intern(NO_MOVE.to_vec())
    }

    /// γ0 is the mex of the options' γ0, and γk the mex of the options' γk with γ(k-1) and
    /// γ(k-1) xor 1; the list is trimmed where it starts to alternate.
    fn of_options(&mut self, options: &[u32]) -> u32 {
        let lists = &self.lists;
        let of = |o: &u32| &lists[*o as usize];
        let changes = options.iter().map(|o| of(o).len() - 1).max().unwrap_or(1);
        let last = changes.max(1) + 2;
        let mut values: Vec<u64> = Vec::with_capacity(last + 1);
        for k in 0..=last {
            self.column.clear();
            self.column.extend(options.iter().map(|o| digit(of(o), k)));
            if let Some(&before) = values.last() {
                self.column.extend([before, before ^ 1]);
            }
            values.push(super::mex(&mut self.column));
        }
        let mut end = last;
        while end > 1 && values[end] == values[end - 2] {
            end -= 1;
        }
        values.truncate(end + 1);
        self.intern(values)
    }

    fn bytes(&self) -> usize {
        budget::vector(&self.lists, 0)
            + budget::table(&self.ids, false)
            + self.list_bytes
            + budget::vector(&self.column, 0)
    }
}

impl Engine {
    /// The genus of a position (its misère flag is ignored: the genus covers both plays). A
    /// position that can return to itself has none.
    pub fn genus(&mut self, position: &Position) -> Result<Genus, SolveError> {
        if self.in_sweep {
            return Err(SolveError::Deferred);
        }
        let misere = self.with_sums(|engine, s| {
            let MisereSums {
                components,
                genera,
                genus_measure,
                ..
            } = s;
            let id = sums::number(
                engine,
                components,
                genera,
                genus_measure,
                &position.to_vec(),
            )?;
            Ok::<_, SolveError>(genus_measure.lists[id as usize].to_vec())
        });
        let misere = match misere {
            Err(SolveError::Loop(cycle)) => return Err(SolveError::LoopyGenus(cycle)),
            found => found?,
        };
        let normal = self.value(&position.with_misere(false))?;
        Ok(Genus { normal, misere })
    }
}

impl Engine {
    /// The misère value of a sum of heaps of one game when its quotient settles it, in time
    /// linear in the number of heaps: 0 when the sum is P, 1 when the sum plus a heap that is
    /// *1 is P; `None` otherwise (the whole-sum search answers then).
    ///
    /// Sound because a sum S has misère value n exactly when S + *n is a P-position, by
    /// induction on S + *n. Its options are S' + *n and S + *m for m < n. If S has value n, no
    /// S' has value n (a mex), so no S' + *n is P, nor any S + *m (S has value n, not m), and
    /// the sum has an option (a sum with no move has value 1, and *1 can move): it is P. If S
    /// has a larger value, some S' has value n and S' + *n is P; if a smaller value m, S + *m
    /// is P: either way the sum is N (as is the sum with no move, S ending with value 1 and
    /// n = 0). A heap whose every option leaves no move is the game {0} = *1 itself, so S + that
    /// heap is S + *1.
    pub(super) fn quotient_misere_value(
        &mut self,
        position: &Position,
    ) -> Result<Option<u64>, SolveError> {
        match self.quotient_outcome(position)? {
            Some(Outcome::P) => return Ok(Some(0)),
            Some(_) => {}
            None => return Ok(None),
        }
        let game = position.parts().next().expect("a quotient answered").game;
        let Some(one) = self.star_one(game, position)? else {
            return Ok(None);
        };
        let mut parts = position.to_vec();
        parts.push(Part {
            game,
            state: Box::new([one]),
        });
        Ok(match self.quotient_outcome(&Position::new(parts, true))? {
            Some(Outcome::P) => Some(1),
            _ => None,
        })
    }

    /// A heap that is *1 (it has a move, and every move leaves no move) among the heaps that
    /// `position`, a sum of heaps of `game`, reaches; once found, it is kept for the game.
    fn star_one(&mut self, game: GameId, position: &Position) -> Result<Option<i64>, SolveError> {
        if let Some(&found) = self.sums.star_one.get(&game) {
            return Ok(Some(found));
        }
        let heap = |n: i64| Part {
            game,
            state: Box::new([n]),
        };
        let mut seen: FxHashSet<i64> = position.parts().map(|p| p.state[0]).collect();
        let mut next: Vec<i64> = seen.iter().copied().collect();
        while let Some(n) = next.pop() {
            self.limits.check_interrupt()?;
            let options = self.part_options(&heap(n))?;
            let mut ends = !options.is_empty();
            for part in options.iter().flatten() {
                ends = ends && self.part_options(part)?.is_empty();
                if seen.insert(part.state[0]) {
                    next.push(part.state[0]);
                }
            }
            if ends {
                self.sums.star_one.insert(game, n);
                return Ok(Some(n));
            }
        }
        Ok(None)
    }
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
