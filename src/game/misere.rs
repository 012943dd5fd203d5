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

use super::budget::{self, Charge};
use super::misere_loopy;
use super::quotient::QuotientCache;
use super::sums::{self, Components, Measure, MisereValue, Solvers, SumTable};
use super::vocabulary::Outcome;
use super::{GameId, Limits, Part, Position, SolveError};

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

/// The memo a misère search counts itself while it runs, beside the components (which the
/// quotients do not use).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Own {
    Values,
    Genera,
    LoopyOutcomes,
    Quotients,
}

/// What the misère searches keep from one question to the next: the components met, the
/// sums valued by misère value and by genus, the misère outcomes of loopy sums (see
/// [`super::misere_loopy`]) with the games whose sums were found to loop, the heaps that
/// are *1 (see [`Misere::quotient_value`]) and the quotients of heap games. Each question
/// takes the solvers of the components it needs ([`Solvers`]), nothing else of the engine.
#[derive(Default)]
pub struct Misere {
    components: Components,
    values: SumTable,
    value_measure: MisereValue,
    genera: SumTable,
    genus_measure: Genera,
    loopy_outcomes: SumTable,
    looping: FxHashSet<GameId>,
    /// A heap of each heap game that is *1, once found.
    star_one: FxHashMap<GameId, i64>,
    /// The quotients, which the `quotient` statement computes and extends too.
    pub(super) quotients: QuotientCache,
}

impl Misere {
    /// Forgets the sums searched (not the quotients): after a search stopped at a limit.
    pub fn forget_sums(&mut self) {
        let quotients = std::mem::take(&mut self.quotients);
        *self = Misere {
            quotients,
            ..Misere::default()
        };
    }

    /// The bytes the memos hold, kept from one question to the next.
    pub fn bytes(&self) -> usize {
        self.quotients.bytes() + self.beside(Own::Quotients)
    }

    /// The bytes of the memos a search that counts `own` (with the components, but for the
    /// quotients) does not count.
    fn beside(&self, own: Own) -> usize {
        let set = |ids: usize| budget::boxed(ids * (size_of::<GameId>() + 1));
        let mut bytes = set(self.looping.capacity()) + budget::table(&self.star_one, false);
        if own != Own::Values {
            bytes += self.values.bytes(None) + self.value_measure.bytes();
        }
        if own != Own::Genera {
            bytes += self.genera.bytes(None) + self.genus_measure.bytes();
        }
        if own != Own::LoopyOutcomes {
            bytes += self.loopy_outcomes.bytes(None);
        }
        match own {
            Own::Quotients => bytes + self.components.bytes(),
            _ => bytes + self.quotients.bytes(),
        }
    }

    /// A charge of the memos a search that counts `own` does not count, held while it runs: a
    /// question leaves the memos uncharged (see `Engine::with_misere`), and they must count
    /// beside what the search holds.
    pub(super) fn others(&self, limits: &Limits, own: Own) -> Charge {
        let mut charge = limits.charge();
        charge.hold(self.beside(own));
        charge
    }

    /// The misère Grundy value of a position: 0 and 1 from the quotient when it settles them
    /// (see [`Misere::quotient_value`]), else the whole-sum search. A sum that loops has none.
    pub fn value(
        &mut self,
        solvers: &mut dyn Solvers,
        position: &Position,
    ) -> Result<u64, SolveError> {
        let found = match self.quotient_value(solvers, position) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => self.sum_value(solvers, &position.to_vec()),
            Err(e) => Err(e),
        };
        match found {
            Err(SolveError::Loop(cycle)) => Err(SolveError::MisereLoopyValue(cycle)),
            found => found,
        }
    }

    /// The misère Grundy value of a sum: 1 when no move is left, else the mex of its options'.
    /// Searched on the whole sum, iteratively (see [`sums`]).
    fn sum_value(&mut self, solvers: &dyn Solvers, parts: &[Part]) -> Result<u64, SolveError> {
        let _others = self.others(solvers.limits(), Own::Values);
        sums::number(
            solvers,
            &mut self.components,
            &mut self.values,
            &mut self.value_measure,
            parts,
        )
        .map(u64::from)
    }

    /// The misère values of a position and the position plus copies of *2, up to where they
    /// alternate (see [`Genus::misere`]); its misère flag is ignored. A position that can
    /// return to itself has none.
    pub fn genus_values(
        &mut self,
        solvers: &dyn Solvers,
        position: &Position,
    ) -> Result<Vec<u64>, SolveError> {
        let _others = self.others(solvers.limits(), Own::Genera);
        let id = sums::number(
            solvers,
            &mut self.components,
            &mut self.genera,
            &mut self.genus_measure,
            &position.to_vec(),
        );
        match id {
            Ok(id) => Ok(self.genus_measure.lists[id as usize].to_vec()),
            Err(SolveError::Loop(cycle)) => Err(SolveError::LoopyGenus(cycle)),
            Err(e) => Err(e),
        }
    }

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
    fn quotient_value(
        &mut self,
        solvers: &mut dyn Solvers,
        position: &Position,
    ) -> Result<Option<u64>, SolveError> {
        match self.quotient_outcome(solvers, position)? {
            Some(Outcome::P) => return Ok(Some(0)),
            Some(_) => {}
            None => return Ok(None),
        }
        let game = position.parts().next().expect("a quotient answered").game;
        let Some(one) = self.star_one(solvers, game, position)? else {
            return Ok(None);
        };
        let mut parts = position.to_vec();
        parts.push(Part {
            game,
            state: Box::new([one]),
        });
        Ok(
            match self.quotient_outcome(solvers, &Position::new(parts, true))? {
                Some(Outcome::P) => Some(1),
                _ => None,
            },
        )
    }

    /// [`QuotientCache::outcome`], the other memos charged while it runs.
    fn quotient_outcome(
        &mut self,
        solvers: &mut dyn Solvers,
        position: &Position,
    ) -> Result<Option<Outcome>, SolveError> {
        let _others = self.others(solvers.limits(), Own::Quotients);
        self.quotients.outcome(solvers, position)
    }

    /// A heap that is *1 (it has a move, and every move leaves no move) among the heaps that
    /// `position`, a sum of heaps of `game`, reaches; once found, it is kept for the game.
    fn star_one(
        &mut self,
        solvers: &dyn Solvers,
        game: GameId,
        position: &Position,
    ) -> Result<Option<i64>, SolveError> {
        if let Some(&found) = self.star_one.get(&game) {
            return Ok(Some(found));
        }
        let heap = |n: i64| Part {
            game,
            state: Box::new([n]),
        };
        let mut seen: FxHashSet<i64> = position.parts().map(|p| p.state[0]).collect();
        let mut next: Vec<i64> = seen.iter().copied().collect();
        while let Some(n) = next.pop() {
            solvers.limits().check_interrupt()?;
            let options = solvers.part_options(&heap(n))?;
            let mut ends = !options.is_empty();
            for part in options.iter().flatten() {
                ends = ends && solvers.part_options(part)?.is_empty();
                if seen.insert(part.state[0]) {
                    next.push(part.state[0]);
                }
            }
            if ends {
                self.star_one.insert(game, n);
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The misère outcome of a position: from the quotient or the misère value when its games
    /// have no loops, else by retrograde analysis of its graph (see [`super::misere_loopy`]).
    pub fn outcome(
        &mut self,
        solvers: &mut dyn Solvers,
        position: &Position,
    ) -> Result<Outcome, SolveError> {
        let looping = position
            .parts()
            .any(|p| solvers.is_loopy(p.game) || self.looping.contains(&p.game));
        if !looping {
            let found = match self.quotient_outcome(solvers, position) {
                Ok(Some(outcome)) => Ok(outcome),
                Ok(None) => self.sum_value(solvers, &position.to_vec()).map(|v| {
                    if v == 0 {
                        Outcome::P
                    } else {
                        Outcome::N
                    }
                }),
                Err(e) => Err(e),
            };
            match found {
                Err(SolveError::Loop(_)) => self.mark_looping(solvers, position),
                found => return found,
            }
        }
        let _others = self.others(solvers.limits(), Own::LoopyOutcomes);
        misere_loopy::outcome(
            solvers,
            &mut self.components,
            &mut self.loopy_outcomes,
            &position.to_vec(),
        )
    }

    /// After a loop in the misère search of `position`: marks the games whose own component
    /// loops (or cannot be shown not to, its value stopping at a limit), so that their later
    /// sums go to retrograde analysis while the other games keep their quotient. A loop of a sum
    /// is a loop of some component, since each move changes one component.
    fn mark_looping(&mut self, solvers: &mut dyn Solvers, position: &Position) {
        let mut tested = FxHashSet::default();
        for part in position.parts() {
            if self.looping.contains(&part.game) || !tested.insert(part) {
                continue;
            }
            if solvers.part_value(part).is_err() {
                self.looping.insert(part.game);
            }
        }
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
