//! Heap games beyond the reach of a table: periods found on computed values, proved by a
//! theorem where one applies, and used to answer huge heaps.

use super::period::{self, Period, Structure};
use super::splits::Periodic;
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

    /// The values of a heap game as a proved period repeats them, when a theorem proves one
    /// (`None` for a closed form, or when no period is proved).
    pub(super) fn proved_period(&mut self, game: GameId) -> Result<Option<Periodic>, SolveError> {
        let pattern = self.pattern(game)?;
        let (Some(period), Some(_)) = (pattern.analysis.period, pattern.analysis.proof) else {
            return Ok(None);
        };
        if period.saltus != 0 {
            return Ok(None);
        }
        Ok(Some(Periodic::new(
            pattern.values.clone(),
            period.preperiod as u64,
            period.period as u64,
        )))
    }
}
