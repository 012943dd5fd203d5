//! Heap games beyond the reach of a table: periods found on computed values, proved by a
//! theorem where one applies, and used to answer huge heaps.

use super::period::{self, Period, Structure};
use super::{Engine, GameId, Part, SolveError};

/// Heaps from this size on are answered from a closed form or a proved period, never by
/// filling a table up to them.
pub const HUGE: i64 = 1 << 20;

/// What `period G` reports: the period the values show, whether it is proved, and how far
/// values were computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub period: Option<Period>,
    /// The theorem that proves the period, or that gives a closed form.
    pub proof: Option<&'static str>,
    pub looked: usize,
    /// When a theorem applies to the period but not yet: how many values it needs.
    pub needs: Option<usize>,
}

/// A game's analysis with the values it was made from.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub analysis: Analysis,
    values: Vec<u64>,
}

impl Pattern {
    /// The value of heap `n`, when a closed form or a proved period gives it.
    fn value(&self, n: i64) -> Option<u64> {
        let period = self.analysis.period.as_ref()?;
        self.analysis.proof?;
        period::extend(&self.values, period, n as u64)
    }
}

impl Engine {
    /// Finds the period of a heap game's values, computing as many as a proof needs (within
    /// the state limit). Remembered for the rest of the run.
    pub fn analyse(&mut self, game: GameId) -> Result<Analysis, SolveError> {
        Ok(self.pattern(game)?.analysis.clone())
    }

    fn pattern(&mut self, game: GameId) -> Result<&Pattern, SolveError> {
        if !self.patterns.contains_key(&game) {
            let pattern = self.find_pattern(game)?;
            self.patterns.insert(game, pattern);
        }
        Ok(&self.patterns[&game])
    }

    fn find_pattern(&mut self, game: GameId) -> Result<Pattern, SolveError> {
        let structure = self.structure(game).clone();
        if structure == Structure::Nim {
            return Ok(Pattern {
                analysis: Analysis {
                    period: Some(Period {
                        preperiod: 0,
                        period: 1,
                        saltus: 1,
                    }),
                    proof: Some("every smaller heap can be reached, so G(n) = n"),
                    looked: 1,
                    needs: None,
                },
                values: vec![0],
            });
        }
        // A subtraction game's proof needs about three periods of up to `largest + 1` values.
        let cap = match structure {
            Structure::Unknown => 2048,
            Structure::Subtraction { largest } => {
                (1 << 14).max(largest.saturating_add(1).saturating_mul(4))
            }
            _ => 1 << 14,
        }
        .min(HUGE as usize)
        .min(self.limits.max_states);
        let mut len = 1024.min(cap);
        loop {
            let mut values = Vec::with_capacity(len);
            for n in 0..len as i64 {
                values.push(self.table_value(game, n)?);
            }
            let found = period::find(&values);
            let theorem = found.and_then(|p| structure.proof_needs(&p));
            let proof = theorem
                .filter(|(needed, _)| *needed <= len)
                .map(|(_, theorem)| theorem);
            let needs = theorem
                .map(|(needed, _)| needed)
                .filter(|&needed| needed > len);
            if proof.is_some() || len >= cap {
                let keep = found.map_or(0, |p| p.preperiod + p.period);
                values.truncate(keep.max(1));
                return Ok(Pattern {
                    analysis: Analysis {
                        period: found,
                        proof,
                        looked: len,
                        needs,
                    },
                    values,
                });
            }
            len = (len * 2).min(cap);
        }
    }

    fn table_value(&mut self, game: GameId, n: i64) -> Result<u64, SolveError> {
        let limits = self.limits.clone();
        self.solvers[game].value(&[n], &limits)
    }

    /// The value of a heap that is too large for a table, from a closed form or a proved period.
    pub(super) fn huge_value(&mut self, game: GameId, n: i64) -> Result<u64, SolveError> {
        let pattern = self.pattern(game)?;
        pattern.value(n).ok_or(SolveError::Unknown {
            heap: n,
            known: pattern.analysis.looked,
            searched: None,
        })
    }

    pub(super) fn is_huge(&self, part: &Part) -> bool {
        self.solvers[part.game].game().heap_like() && part.state[0] >= HUGE
    }

    /// The options of a huge heap whose value is `target`: the one heap of a closed form, the
    /// moves of a finite subtraction set, or for an octal game one split per residue of the
    /// period (every other winning split is equivalent to one of these by periodicity).
    pub(super) fn huge_options_with_value(
        &mut self,
        part: &Part,
        target: u64,
    ) -> Result<Vec<Vec<Part>>, SolveError> {
        let game = part.game;
        let n = part.state[0];
        let heap = |h: i64| Part {
            game,
            state: Box::new([h]),
        };
        let mut found = Vec::new();
        match self.structure(game).clone() {
            Structure::Nim => {
                if (target as i64) < n {
                    found.push(vec![heap(target as i64)]);
                }
            }
            Structure::Subtraction { .. } => {
                for option in self.part_options(part)? {
                    if self.huge_value(game, option[0].state[0])? == target {
                        found.push(option);
                    }
                }
            }
            Structure::Octal { digits } => {
                let window = match self.pattern(game)?.analysis.period {
                    Some(p) => (p.preperiod + 2 * p.period) as i64,
                    None => 0,
                };
                for (j, &d) in digits.iter().enumerate() {
                    let rest = n - j as i64;
                    if j > 0 && d & 2 != 0 && self.huge_value(game, rest)? == target {
                        found.push(vec![heap(rest)]);
                    }
                    if d & 4 != 0 {
                        for a in 1..=window.min(rest / 2) {
                            let value =
                                self.huge_value(game, a)? ^ self.huge_value(game, rest - a)?;
                            if value == target {
                                found.push(vec![heap(a), heap(rest - a)]);
                            }
                        }
                    }
                }
            }
            Structure::Unknown => {
                return Err(SolveError::Unknown {
                    heap: n,
                    known: self.pattern(game)?.analysis.looked,
                    searched: None,
                })
            }
        }
        Ok(found)
    }
}
