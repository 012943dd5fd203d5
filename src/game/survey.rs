//! One game of a survey of a family: what `period G up to N` finds of it, and the values a
//! comparison with the other games of the survey reads, kept (and charged to the ledger) so
//! that each game is computed once; and the fingerprints by which a game finds the earlier ones
//! it may equal, which [`relate`] then decides.
//!
//! Two games that are the same under an offset `d` (`G(n + a) = H(n + b)`, one of `a`, `b` zero,
//! `d = b - a` from `-MOST_OFFSET` to `MOST_OFFSET`) have equal values on every window of heaps
//! that the offset lines up: the window of `G` from heap `MOST_OFFSET + a` and that of `H` from
//! `MOST_OFFSET + b`. So each game is indexed by the fingerprint of its window from every start
//! `0..=2 MOST_OFFSET`, and a later game looks up the fingerprint of its window from
//! `MOST_OFFSET`: every earlier game it can equal is found there (and others, whose
//! fingerprints collide, which [`relate`] tells apart). A fingerprint is only a filter: what
//! the survey says of two games is what [`relate`] proves or finds.

use std::convert::Infallible;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::FxHasher;

use super::budget::Charge;
use super::equal_games::{relate, Known, Relation, MOST_OFFSET};
use super::heap::Figures;
use super::period;
use super::period_pipeline::{Analysis, MEMORY_STOP};
use super::vocabulary::Period;
use super::{Engine, GameId, Limits, SolveError};

/// How many heaps a fingerprint covers.
pub const WINDOW: u64 = 64;

/// The first heap past every window a fingerprint reads.
pub const WINDOWS_END: u64 = 2 * MOST_OFFSET + WINDOW;

/// One game of a survey; its copies (the games equal to it by definition) share its values.
#[derive(Clone)]
pub struct Surveyed {
    /// What `period G up to N` finds: the period and its proof, the heaps computed, the figures.
    pub analysis: Analysis,
    /// How far its values are known, and the proved period.
    pub known: Known,
    /// The values of heaps `0..len`: up to the least preperiod plus period when it is proved (the
    /// period gives the rest), else every heap computed.
    kept: Arc<Kept>,
    _charge: Arc<Charge>,
}

/// Values in 32 bits while they fit.
enum Kept {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Kept {
    fn len(&self) -> u64 {
        match self {
            Kept::Narrow(v) => v.len() as u64,
            Kept::Wide(v) => v.len() as u64,
        }
    }
}

impl Surveyed {
    /// The value of heap `n`, which must be known (below [`Known::heaps`], or any heap when the
    /// period is proved).
    pub fn value(&self, n: u64) -> u64 {
        let proved = self.known.proved.as_ref();
        let value = match self.kept.as_ref() {
            Kept::Narrow(v) if n < v.len() as u64 => Some(v[n as usize] as u64),
            Kept::Wide(v) if n < v.len() as u64 => Some(v[n as usize]),
            Kept::Narrow(v) => proved.and_then(|p| period::extend(v, p, n)),
            Kept::Wide(v) => proved.and_then(|p| period::extend(v, p, n)),
        };
        value.unwrap_or(u64::MAX)
    }

    /// Whether every heap a fingerprint reads is known.
    fn windows_known(&self) -> bool {
        self.known.proved.is_some() || self.known.heaps >= WINDOWS_END
    }

    /// The fingerprint of the window of heaps from `start`, when its values are known.
    pub fn fingerprint(&self, start: u64) -> Option<u64> {
        if !self.windows_known() {
            return None;
        }
        let mut hasher = FxHasher::default();
        (start..start + WINDOW).for_each(|n| self.value(n).hash(&mut hasher));
        Some(hasher.finish())
    }

    /// The fingerprints a later game looks this one up by: the windows from every start
    /// `0..=2 MOST_OFFSET`; none when the values they read are not known.
    pub fn fingerprints(&self) -> Vec<u64> {
        (0..=2 * MOST_OFFSET)
            .filter_map(|start| self.fingerprint(start))
            .collect()
    }

    /// The fingerprint this game looks up earlier games by: its window from `MOST_OFFSET`.
    pub fn key(&self) -> Option<u64> {
        self.fingerprint(MOST_OFFSET)
    }

    /// How `earlier` and `self` compare (see [`relate`]: `earlier` is `G`, this game `H`).
    pub fn relate_to(&self, earlier: &Surveyed) -> Relation {
        let games = [earlier, self];
        let related =
            relate::<Infallible>(
                earlier.known,
                self.known,
                |side, n| Ok(games[side].value(n)),
            );
        match related {
            Ok(relation) => relation,
            Err(never) => match never {},
        }
    }
}

/// How far a survey computes its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Every game is computed to this many heaps, or to its proved period; the values of so
    /// many heaps are what comparisons read.
    pub heaps: usize,
    /// Whether a game still open there is pushed on while its values look settled in sparse
    /// space ([`FURTHER`]).
    pub further: bool,
}

/// The steps by which a survey pushes an open game on: the periods the literature reports
/// for octal codes of three digits need up to 20,126,195 heaps (0.354), 4,536,500 (0.376),
/// 653,424 (0.56) and 509,622 (0.16), long after their values settled.
pub const FURTHER: [usize; 3] = [1 << 20, 1 << 23, 1 << 25];

/// At most one heap in this many is rare in a game worth pushing on.
const FEW_RARE: usize = 256;

/// Before the last step, a game's largest value and its last rare heap lie in the first
/// `1 / SETTLED` of the heaps computed (0.354's in its first 3,227 heaps of 2^23; 0.6's largest
/// value was still growing at heap 1,274,955).
const SETTLED: usize = 16;

/// Whether an open game whose values have these figures is worth pushing on to `step` heaps:
/// its values lie in sparse space with few rare heaps, and before the last step they have
/// settled: neither the largest value nor a rare heap has come late.
fn worth_pushing(figures: &Figures, step: usize) -> bool {
    let sparse = figures.mask != 0 && figures.rare_heaps.saturating_mul(FEW_RARE) <= figures.heaps;
    let settled = |heap: usize| heap.saturating_mul(SETTLED) <= figures.heaps;
    let last = step == FURTHER[FURTHER.len() - 1];
    sparse
        && (!last || (settled(figures.largest_heap) && figures.last_rare_heap.is_none_or(settled)))
}

impl Engine {
    /// A game of a survey: `period G up to reach.heaps`, pushed on as [`Reach`] says, and the
    /// values a comparison reads. The memory limit ends it with its error (a survey's rows do
    /// not depend on what else is held), and so does Ctrl-C.
    pub fn survey_game(&mut self, game: GameId, reach: Reach) -> Result<Surveyed, SolveError> {
        let mut analysis = self.analyse_within(game, Some(reach.heaps))?;
        for step in FURTHER.into_iter().filter(|_| reach.further) {
            let open = analysis.proof.is_none() && analysis.stopped != Some(MEMORY_STOP);
            let push = analysis
                .figures
                .as_ref()
                .is_some_and(|f| open && step > f.heaps && worth_pushing(f, step));
            if push {
                analysis = self.analyse_within(game, Some(step))?;
            }
        }
        if analysis.stopped == Some(MEMORY_STOP) {
            return Err(SolveError::MemoryLimit(self.limits.max_memory));
        }
        let proved = analysis.period.filter(|_| analysis.proof.is_some());
        let len = match proved {
            Some(p) => (p.preperiod + p.period) as u64,
            None => analysis.looked.min(reach.heaps) as u64,
        };
        let known = Known {
            heaps: match proved {
                Some(_) => analysis.looked as u64,
                None => len,
            },
            proved,
        };
        let limits = self.limits.clone();
        let mut charge = limits.charge();
        let over = |_| SolveError::MemoryLimit(limits.max_memory);
        charge.grow(len as usize * 4).map_err(over)?;
        let mut kept = Kept::Narrow(Vec::with_capacity(len as usize));
        for n in 0..len {
            if n % 4096 == 0 {
                limits.check_interrupt()?;
            }
            let value = self.heap_value(game, n)?;
            match &mut kept {
                Kept::Narrow(v) => match u32::try_from(value) {
                    Ok(value) => v.push(value),
                    Err(_) => {
                        charge.grow(len as usize * 8).map_err(over)?;
                        let mut wide: Vec<u64> = Vec::with_capacity(len as usize);
                        wide.extend(v.iter().map(|&x| x as u64));
                        wide.push(value);
                        kept = Kept::Wide(wide);
                        charge.set(len as usize * 8).map_err(over)?;
                    }
                },
                Kept::Wide(v) => v.push(value),
            }
        }
        debug_assert_eq!(kept.len(), len);
        Ok(Surveyed {
            analysis,
            known,
            kept: Arc::new(kept),
            _charge: Arc::new(charge),
        })
    }
}

/// What a proved period read back from a survey's file is proved by: the run that computed it,
/// whose record the installation's secret signs ([`super::survey_file`]).
pub const READ_BACK: &str = "a record of this survey, signed by this installation";

impl Surveyed {
    /// How many heaps' values are kept (from heap 0).
    pub fn kept_len(&self) -> u64 {
        self.kept.len()
    }

    /// A game read back from a survey's file: what its row and the comparisons read, with its
    /// values kept (charged to the ledger, and refused past the memory limit).
    pub fn read_back(
        looked: usize,
        proved: Option<Period>,
        figures: Option<Figures>,
        values: Vec<u64>,
        limits: &Limits,
    ) -> Result<Surveyed, String> {
        let mut charge = limits.charge();
        let over = |_| {
            format!(
                "its values pass the memory limit ({} bytes)",
                limits.max_memory
            )
        };
        let narrow = values.iter().all(|&v| v <= u32::MAX as u64);
        let width = if narrow { 4 } else { 8 };
        charge.grow(values.len() * width).map_err(over)?;
        let kept = match narrow {
            true => Kept::Narrow(values.into_iter().map(|v| v as u32).collect()),
            false => Kept::Wide(values),
        };
        let analysis = Analysis {
            period: proved,
            proof: proved.map(|_| READ_BACK),
            looked,
            needs: None,
            failed: None,
            stopped: None,
            figures,
        };
        let known = Known {
            heaps: match proved {
                Some(_) => looked as u64,
                None => kept.len(),
            },
            proved,
        };
        Ok(Surveyed {
            analysis,
            known,
            kept: Arc::new(kept),
            _charge: Arc::new(charge),
        })
    }
}
