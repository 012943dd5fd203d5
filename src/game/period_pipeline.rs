//! Heap games beyond the reach of a table: periods found on computed values, proved by a
//! theorem where one applies, and used to answer huge heaps.
//!
//! The pipeline sees one game at a time, as a [`HeapGame`]: its solver, what is known of its
//! moves and the limits, which the engine lends it; [`Periods`] keeps what it found.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::arithmetic_splits::ArithmeticValues;
use super::budget::Charge;
use super::heap::Figures;
use super::period::{self, arithmetic};
use super::position::HUGE;
use super::splits::Periodic;
use super::vocabulary::{Period, Structure};
use super::{GameId, Limits, SolveError, Solver};

/// How far `period` computes values looking for a period and its proof: as far as a table is
/// ever filled, and never beyond the state limit.
pub const SEARCH_HEAPS: usize = HUGE as usize;

/// How far `period` computes values while no period shows, in games that may split a heap
/// (octal games, games it knows nothing of): their heaps cost more as they grow. Subtraction
/// games search up to [`SEARCH_HEAPS`].
pub const BLIND_SEARCH_HEAPS: usize = 1 << 16;

/// How far the search goes for games that take any amount or split: each heap's splits are
/// a pass over the smaller heaps, so the work grows as the square of the heaps.
pub const SPLIT_SEARCH_HEAPS: usize = 1 << 14;

/// How far the search goes for games that split a heap in three (hexadecimal codes with a digit
/// of bit 8): each heap's splits in three are a pass over the pairs of smaller heaps, so the work
/// grows as the cube of the heaps.
pub const THREE_WAY_SEARCH_HEAPS: usize = 1 << 12;

/// What [`Analysis::stopped`] says when the memory limit ended the search.
pub(super) const MEMORY_STOP: &str = "stopped by the memory limit";

/// The first window of heaps looked at; it doubles, or grows to what a proof needs.
const FIRST_WINDOW: usize = 1024;

/// How far a plain `period` (with no `up to`) computes a heap sequence of an octal or
/// subtraction game looking for a period the theorem proves: far enough for the long
/// preperiods of the literature (the proof of 0.354's, 10,061,916 heaps with period 1,180,
/// needs 20,126,195 heaps), within the memory limit.
pub const SEQUENCE_SEARCH_HEAPS: usize = 1 << 25;

/// Past this many heaps, a heap sequence grows by this many at a time between looks for a
/// proved period (doubling before); and no apparent period is looked for in more values.
const SEQUENCE_STEP: usize = 1 << 20;

/// What `period G` reports: the least period the values show, whether it is proved, and how far
/// values were computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub period: Option<Period>,
    /// The theorem that proves the period, or that gives a closed form.
    pub proof: Option<&'static str>,
    /// How many heaps' values were examined.
    pub looked: usize,
    /// When a theorem applies to the period but not yet: how many values it needs.
    pub needs: Option<usize>,
    /// A theorem that could prove the period but whose hypotheses the values do not meet.
    pub failed: Option<&'static str>,
    /// What ended the search short of a proof, as `period` says it: the state or memory limit,
    /// or the end of the search ([`SEARCH_HEAPS`], or [`SPLIT_SEARCH_HEAPS`]), when it had
    /// found no period or one whose proof needs more heaps.
    pub stopped: Option<&'static str>,
    /// Of a heap sequence: its figures as far as it is known.
    pub figures: Option<Figures>,
}

/// A game's analysis with the values it was made from.
#[derive(Debug)]
struct Pattern {
    pub analysis: Analysis,
    values: Vec<u64>,
    /// The values past the window, when the period the heap sequence certified begins past it,
    /// charged to the ledger while the pattern is kept.
    _charge: Option<Charge>,
}

impl Pattern {
    /// The value of heap `n`, when a closed form or a proved period gives it.
    fn value(&self, n: i64) -> Option<u64> {
        let period = self.analysis.period.as_ref()?;
        self.analysis.proof?;
        period::extend(&self.values, period, n as u64)
    }
}

/// One heap game as the pipeline sees it, lent by the engine: its solver, what is known of its
/// moves, and the limits.
pub struct HeapGame<'e> {
    pub solver: &'e mut Solver,
    pub structure: &'e Structure,
    pub limits: &'e Limits,
}

impl HeapGame<'_> {
    /// The value of heap `n`, from the solver.
    fn value(&mut self, n: i64) -> Result<u64, SolveError> {
        self.solver.value(&[n], self.limits)
    }
}

/// What the pipeline found of each game, remembered for the rest of the run.
#[derive(Debug, Default)]
pub struct Periods {
    patterns: FxHashMap<GameId, Pattern>,
    /// What `period G` found of a game within a bound, under the state and memory limits of the
    /// time (a few words each, kept for `period`, `solved` and the rest asked again).
    analyses: FxHashMap<(GameId, Option<usize>, usize, usize), Analysis>,
}

impl Periods {
    /// Finds the least period of a heap game's values, computing as many as a proof needs
    /// (within the limits). Remembered for the rest of the run.
    pub fn analyse(&mut self, game: GameId, heap: HeapGame) -> Result<Analysis, SolveError> {
        Ok(self.pattern(game, heap)?.analysis.clone())
    }

    fn pattern(&mut self, game: GameId, mut heap: HeapGame) -> Result<&Pattern, SolveError> {
        Ok(match self.patterns.entry(game) {
            Entry::Occupied(found) => found.into_mut(),
            Entry::Vacant(slot) => slot.insert(find_pattern(&mut heap, None)?),
        })
    }

    /// What `period G` (`bound`: `period G up to N`) says of a heap game. An octal or subtraction
    /// game computed as a heap sequence grows it as far as it takes for the theorem to prove a
    /// period, up to `bound` heaps ([`SEQUENCE_SEARCH_HEAPS`] when not given) and the memory
    /// limit; any other game goes through the pipeline of [`Periods::analyse`], within `bound`.
    pub fn analyse_within(
        &mut self,
        game: GameId,
        heap: HeapGame,
        bound: Option<usize>,
    ) -> Result<Analysis, SolveError> {
        let key = (game, bound, heap.limits.max_states, heap.limits.max_memory);
        if let Some(analysis) = self.analyses.get(&key) {
            return Ok(analysis.clone());
        }
        let analysis = self.analyse_afresh(game, heap, bound)?;
        // What the memory limit stopped depends on what else is held then.
        if analysis.stopped != Some(MEMORY_STOP) {
            self.analyses.insert(key, analysis.clone());
        }
        Ok(analysis)
    }

    fn analyse_afresh(
        &mut self,
        game: GameId,
        mut heap: HeapGame,
        bound: Option<usize>,
    ) -> Result<Analysis, SolveError> {
        let sequence = heap.solver.has_heap_sequence()
            && match heap.structure {
                // A set whose largest take is past the bound has no proof within it: the
                // pipeline's window says what the theorem would need.
                Structure::Subtraction { largest } => {
                    *largest < bound.unwrap_or(SEQUENCE_SEARCH_HEAPS)
                }
                Structure::Octal { digits } => digits.iter().all(|d| d & 8 == 0),
                _ => false,
            };
        match (sequence, bound) {
            (true, _) => sequence_period(&mut heap, bound),
            (false, None) => self.analyse(game, heap),
            (false, Some(_)) => Ok(find_pattern(&mut heap, bound)?.analysis),
        }
    }

    /// The value of a heap that is too large for a table, from a closed form or a proved period.
    /// Games with no theorem are refused at once, without a search.
    pub fn huge_value(&mut self, game: GameId, heap: HeapGame, n: i64) -> Result<u64, SolveError> {
        if !heap.structure.is_known() {
            return Err(SolveError::Unknown {
                heap: n,
                known: heap.solver.stored(),
                searched: None,
            });
        }
        let pattern = self.pattern(game, heap)?;
        pattern.value(n).ok_or(SolveError::Unknown {
            heap: n,
            known: pattern.analysis.looked,
            searched: None,
        })
    }

    /// A game's pattern with its period, when a theorem proves one.
    fn proved(
        &mut self,
        game: GameId,
        heap: HeapGame,
    ) -> Result<Option<(&Pattern, Period)>, SolveError> {
        let pattern = self.pattern(game, heap)?;
        Ok(match (pattern.analysis.period, pattern.analysis.proof) {
            (Some(period), Some(_)) => Some((pattern, period)),
            _ => None,
        })
    }

    /// The values of a heap game as a proved period repeats them, when a theorem proves one
    /// (`None` for a closed form, or when no period is proved).
    pub fn proved_period(
        &mut self,
        game: GameId,
        heap: HeapGame,
    ) -> Result<Option<Periodic>, SolveError> {
        let Some((pattern, period)) = self.proved(game, heap)? else {
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

    /// The values of a game that takes any amount or splits, as a proved arithmetic period
    /// (saltus equal to the period, a power of two) gives them; `None` when none is proved.
    pub fn proved_arithmetic(
        &mut self,
        game: GameId,
        heap: HeapGame,
    ) -> Result<Option<ArithmeticValues>, SolveError> {
        let Some((pattern, period)) = self.proved(game, heap)? else {
            return Ok(None);
        };
        let p = period.period as u64;
        if period.saltus != p || !p.is_power_of_two() {
            return Ok(None);
        }
        Ok(Some(ArithmeticValues::new(
            pattern.values.clone(),
            period.preperiod as u64,
            p,
        )))
    }
}

/// The period pipeline: the period a theorem certifies (the heap sequence's own, when it has
/// one), reduced to the least; else the least apparent period, looked for in a window that
/// grows to what the theorem needs for it, or while no period shows, up to the limits (and
/// `bound` heaps, when given).
fn find_pattern(heap: &mut HeapGame, bound: Option<usize>) -> Result<Pattern, SolveError> {
    let structure = heap.structure.clone();
    if structure.is_nim() {
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
                failed: None,
                stopped: None,
                figures: None,
            },
            values: vec![0],
            _charge: None,
        });
    }
    // How far values are computed for a proof, and how far while no period shows.
    let (most, blind) = match structure {
        Structure::TakeAnyOrSplit { .. } => (SPLIT_SEARCH_HEAPS, SPLIT_SEARCH_HEAPS),
        Structure::Octal { .. } if structure.splits_in_three() => {
            (THREE_WAY_SEARCH_HEAPS, THREE_WAY_SEARCH_HEAPS / 2)
        }
        Structure::Subtraction { .. } => (SEARCH_HEAPS, SEARCH_HEAPS),
        _ => (SEARCH_HEAPS, BLIND_SEARCH_HEAPS),
    };
    let cap = most
        .min(heap.limits.max_states)
        .min(bound.unwrap_or(usize::MAX));
    let blind = blind.min(cap);
    let mut values = Vec::new();
    let mut len = FIRST_WINDOW.min(cap);
    loop {
        let mut stopped = match fill(heap, &mut values, len) {
            Ok(()) => None,
            Err(SolveError::StateLimit(_)) => Some("stopped by the state limit"),
            Err(SolveError::MemoryLimit(_)) => Some(MEMORY_STOP),
            Err(e) => return Err(e),
        };
        if let Some((proved, theorem)) = proved(heap, &values) {
            // The period the heap sequence certified may begin past the window (0.376's at heap
            // 2,268,248): the pattern keeps a preperiod and a period of values.
            let needs = proved.preperiod + proved.period;
            let mut charge = None;
            if values.len() < needs {
                let mut held = heap.limits.charge();
                held.grow(needs * size_of::<u64>())
                    .map_err(|_| SolveError::MemoryLimit(heap.limits.max_memory))?;
                fill(heap, &mut values, needs)?;
                charge = Some(held);
            }
            let least = period::least(&values, &proved);
            let looked = values.len();
            values.truncate(least.preperiod + least.period);
            return Ok(Pattern {
                analysis: Analysis {
                    period: Some(least),
                    proof: Some(theorem),
                    looked,
                    needs: None,
                    failed: None,
                    stopped: None,
                    figures: None,
                },
                values,
                _charge: charge,
            });
        }
        let found = period::find(&values);
        let theorem = found.and_then(|p| structure.proof_needs(&p));
        let needs = theorem.map(|(needed, _)| needed);
        // The next window, `Ok(None)` to report what was found, or `Err(bound)` when a bound
        // keeps the search from going on.
        let doubled = if len < blind {
            Ok(Some((2 * len).min(blind)))
        } else {
            Err(blind)
        };
        let mut failed = None;
        let next = match (found, theorem) {
            // An apparent period in a game that no theorem covers: reported as it is.
            (Some(_), _) if !structure.is_known() => Ok(None),
            (Some(_), Some((needed, _))) if needed > len => {
                if needed <= cap {
                    Ok(Some(needed))
                } else {
                    Err(cap)
                }
            }
            // The test's hypotheses fail; as its games split every heap in all ways (a pass
            // over the heap each), there is no blind search for another candidate.
            (Some(_), Some((_, name))) if structure.takes_any_or_splits() => {
                failed = Some(name);
                Ok(None)
            }
            _ => doubled,
        };
        let next = next.unwrap_or_else(|bound| {
            let end = if bound < heap.limits.max_states {
                "the search ends there"
            } else {
                "stopped by the state limit"
            };
            stopped = stopped.or(Some(end));
            None
        });
        match next {
            Some(next) if stopped.is_none() => len = next,
            _ => {
                let looked = values.len();
                let keep = found.map_or(0, |p| p.preperiod + p.period);
                values.truncate(keep.max(1));
                return Ok(Pattern {
                    analysis: Analysis {
                        period: found,
                        proof: None,
                        looked,
                        needs: needs.filter(|&needed| needed > looked),
                        failed,
                        stopped,
                        figures: None,
                    },
                    values,
                    _charge: None,
                });
            }
        }
    }
}

/// The least period of a heap sequence and its proof: the sequence grows, doubling, then
/// [`SEQUENCE_STEP`] heaps at a time, and after each step the theorem looks for a period it
/// proves from all the values so far; the period it certifies is reduced to the least, with
/// the least preperiod. Stopped by the bound or the memory limit, it gives what is known:
/// an apparent period (never proved) when the values are few enough to look, and the
/// sequence's figures. Ctrl-C stops it with the heaps it reached.
fn sequence_period(heap: &mut HeapGame, bound: Option<usize>) -> Result<Analysis, SolveError> {
    let bound = bound.unwrap_or(SEQUENCE_SEARCH_HEAPS).max(1);
    let (structure, limits) = (heap.structure, heap.limits);
    let solver = &mut *heap.solver;
    let reporter = (limits.progress).start("period: heap values", "heaps", bound as u64);
    let mut len = FIRST_WINDOW.min(bound);
    let mut stopped = None;
    loop {
        match solver.extend_sequence(len as u64 - 1, limits, reporter.as_ref()) {
            Some(Ok(())) => {}
            Some(Err(SolveError::HeapMemory { .. } | SolveError::MemoryLimit(_))) => {
                stopped = Some(MEMORY_STOP);
            }
            Some(Err(e)) => return Err(e),
            None => unreachable!("only heap sequences are grown"),
        }
        let heap = solver.heap_sequence_mut().expect("a heap sequence");
        let certified = match heap.certify(limits) {
            Ok(certified) => certified,
            Err(SolveError::MemoryLimit(_)) => {
                stopped = Some(MEMORY_STOP);
                None
            }
            Err(e) => return Err(e),
        };
        if let (Some((_, p)), Some(least)) = (certified, heap.least_period()) {
            let proof = structure.proof_needs(&Period {
                preperiod: 0,
                period: p,
                saltus: 0,
            });
            if let Some((_, theorem)) = proof {
                reporter.into_iter().for_each(|r| r.complete());
                return Ok(Analysis {
                    period: Some(least),
                    proof: Some(theorem),
                    looked: heap.len(),
                    needs: None,
                    failed: None,
                    stopped: None,
                    figures: Some(heap.figures()),
                });
            }
        }
        if stopped.is_none() && len < bound {
            len = match len < SEQUENCE_STEP {
                true => 2 * len,
                false => len + SEQUENCE_STEP,
            }
            .min(bound);
            continue;
        }
        let looked = heap.len();
        let found = (looked <= SEQUENCE_STEP)
            .then(|| period::find(&heap.values().map(u64::from).collect::<Vec<_>>()))
            .flatten();
        let needs = found
            .and_then(|p| structure.proof_needs(&p))
            .map(|(needed, _)| needed)
            .filter(|&needed| needed > looked);
        reporter.into_iter().for_each(|r| r.complete());
        return Ok(Analysis {
            period: found,
            proof: None,
            looked,
            needs,
            failed: None,
            stopped: stopped.or(Some("the search ends there")),
            figures: Some(heap.figures()),
        });
    }
}

/// Computes the values of heaps up to `len` into `values`.
fn fill(heap: &mut HeapGame, values: &mut Vec<u64>, len: usize) -> Result<(), SolveError> {
    values.reserve(len.saturating_sub(values.len()));
    for n in values.len()..len {
        values.push(heap.value(n as i64)?);
    }
    Ok(())
}

/// The period a theorem proves from `values`, with the theorem: for subtraction and octal
/// games the one the heap sequence certified (or, without a sequence, the same theorem on
/// `values`); for games that take any amount or split, the arithmetic-periodicity test.
fn proved(heap: &HeapGame, values: &[u64]) -> Option<(Period, &'static str)> {
    let structure = heap.structure;
    match structure {
        Structure::Subtraction { .. } | Structure::Octal { .. } => {
            let Some((preperiod, period)) = heap.solver.certified_period() else {
                return period::certified(values, structure);
            };
            let found = Period {
                preperiod,
                period,
                saltus: 0,
            };
            Some((found, structure.proof_needs(&found)?.1))
        }
        Structure::TakeAnyOrSplit { splits } => {
            let candidate = period::find(values)?;
            let proved = arithmetic::prove(values, &candidate, splits)?;
            Some((proved, arithmetic::THEOREM))
        }
        Structure::Nim | Structure::Unknown => None,
    }
}
