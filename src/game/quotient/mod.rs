//! Misère quotients of heap games (Plambeck and Siegel, "Misère quotients for impartial
//! games"): the monoid of the sums of a closure of heaps up to indistinguishability under misère
//! play, with its P-portion. Computed heap by heap (see [`build`]); a misère sum of heaps of one
//! game is then answered by multiplying its heaps' elements.

mod build;
mod monoid;
mod presentation;
mod walk;

pub use presentation::Presentation;

use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use super::budget::{self, Charge};
use super::sums::Solvers;
use super::vocabulary::Outcome;
use super::{GameId, Limits, Part, Position, SolveError};
use build::{Effort, Verified};

/// The quotient of the closure of some heaps of a game, as far as it was computed.
#[derive(Clone)]
pub struct Quotient {
    verified: Verified,
    /// The heaps of the closure included, in the order added (options first).
    heaps: Vec<i64>,
    /// Each included heap's index among the heaps that can move (`None`: it has no move).
    moving: Vec<Option<usize>>,
    place: FxHashMap<i64, usize>,
    /// The heaps at which the quotient grew.
    pub grew_at: Vec<i64>,
}

/// A quotient computed for a statement, and why it stopped early, if it did.
pub struct QuotientRun {
    pub quotient: Quotient,
    /// The heaps of the closure, in the order they are added (the quotient has a prefix).
    pub closure: Vec<i64>,
    pub stopped: Option<SolveError>,
    /// The closure's bytes, on the ledger while the run is kept.
    _held: Charge,
}

impl Quotient {
    /// The bytes it holds, and with `grows` while it takes one more heap.
    fn bytes(&self, grows: bool) -> usize {
        let more = usize::from(grows);
        self.verified.bytes(grows)
            + budget::vector(&self.heaps, more)
            + budget::vector(&self.moving, more)
            + budget::table(&self.place, grows)
            + budget::vector(&self.grew_at, more)
    }

    fn new() -> Quotient {
        Quotient {
            verified: Verified::empty(),
            heaps: Vec::new(),
            moving: Vec::new(),
            place: FxHashMap::default(),
            grew_at: Vec::new(),
        }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.verified.table.size()
    }

    /// The heaps included, in the order they were added.
    pub fn heaps(&self) -> &[i64] {
        &self.heaps
    }

    /// The element of an included heap.
    pub fn element(&self, heap: i64) -> Option<u32> {
        let &i = self.place.get(&heap)?;
        Some(self.moving[i].map_or(0, |m| self.verified.heaps[m].image))
    }

    pub fn is_p(&self, x: u32) -> bool {
        self.verified.p[x as usize]
    }

    /// The elements of the P-portion.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32).filter(|&x| self.is_p(x)).collect()
    }

    pub fn is_tame(&self) -> bool {
        presentation::is_tame(&self.verified.table, &self.verified.p)
    }

    /// The presentation in generators named after the heaps that bring them in.
    pub fn presentation(&self, limits: &Limits) -> Result<Presentation, SolveError> {
        let images: Vec<u32> = self.verified.heaps.iter().map(|h| h.image).collect();
        Presentation::new(&self.verified.table, &images, &|| limits.check_interrupt())
    }

    /// The element of a sum of included heaps.
    fn element_of(&self, heaps: impl Iterator<Item = i64>) -> Option<u32> {
        let mut x = 0;
        for h in heaps {
            x = self.verified.table.mul(x, self.element(h)?);
        }
        Some(x)
    }

    /// [`Quotient::add`] with the quotient's bytes on `charge` before and after, so that the
    /// searches of the heap see the room it leaves.
    fn add_charged(
        &mut self,
        solvers: &dyn Solvers,
        game: GameId,
        heap: i64,
        effort: &Effort,
        charge: &mut Charge,
    ) -> Result<(), SolveError> {
        let fits = |quotient: &Quotient, grows: bool, charge: &mut Charge| {
            charge
                .set(quotient.bytes(grows))
                .map_err(|budget::OverLimit(limit)| SolveError::MemoryLimit(limit))
        };
        fits(self, true, charge)?;
        self.add(solvers, game, heap, effort)?;
        fits(self, false, charge)
    }

    /// Adds a heap whose options' heaps are all included, within `effort`.
    fn add(
        &mut self,
        solvers: &dyn Solvers,
        game: GameId,
        heap: i64,
        effort: &Effort,
    ) -> Result<(), SolveError> {
        let options = solvers.part_options(&heap_part(game, heap))?;
        let mut sums = Vec::with_capacity(options.len());
        for option in &options {
            let mut sum = Vec::new();
            for part in option {
                let &i = self
                    .place
                    .get(&part.state[0])
                    .ok_or_else(|| unordered(solvers, game, heap, part))?;
                sum.extend(self.moving[i]);
            }
            sums.push(sum);
        }
        let moving = if sums.is_empty() {
            None
        } else {
            if self.verified.add(sums, effort)? {
                self.grew_at.push(heap);
            }
            Some(self.verified.heaps.len() - 1)
        };
        self.place.insert(heap, self.heaps.len());
        self.heaps.push(heap);
        self.moving.push(moving);
        Ok(())
    }
}

/// An option that reaches a heap not yet included: only a loop can (the order is topological).
fn unordered(solvers: &dyn Solvers, game: GameId, heap: i64, part: &Part) -> SolveError {
    SolveError::Loop(vec![
        solvers.describe(&[heap_part(game, heap)]),
        solvers.describe(std::slice::from_ref(part)),
    ])
}

fn heap_part(game: GameId, n: i64) -> Part {
    Part {
        game,
        state: Box::new([n]),
    }
}

/// The heap a quotient works on from a part: its one integer.
fn heap_of(part: &Part) -> Option<i64> {
    match *part.state {
        [n] => Some(n),
        _ => None,
    }
}

/// The most heaps a sum answered from a quotient may reach: beyond, the quotient is not tried.
const MOST_QUOTIENT_HEAP: i64 = 64;

/// The memory a quotient computed for a sum may take: beyond, the whole-sum search answers.
const ON_DEMAND_MEMORY: usize = 256 << 20;

/// How long extending a quotient for a sum may take before the whole-sum search answers.
const ON_DEMAND_TIME: Duration = Duration::from_secs(10);

/// What the engine keeps of the quotients of its games for misère sums.
#[derive(Default)]
pub struct QuotientCache {
    quotients: FxHashMap<GameId, Quotient>,
    /// Games whose quotient stopped at a limit: sums of them go to the whole-sum search.
    given_up: FxHashSet<GameId>,
}

impl QuotientCache {
    /// The bytes the quotients kept hold.
    pub(in crate::game) fn bytes(&self) -> usize {
        budget::table(&self.quotients, false)
            + self
                .quotients
                .values()
                .map(|q| q.bytes(false))
                .sum::<usize>()
            + budget::boxed(self.given_up.capacity() * (size_of::<GameId>() + 1))
    }

    /// The heaps reachable from `heaps` (with them), ordered so that every heap comes after the
    /// heaps of its options, and their bytes on the ledger: a range of ten million heaps is
    /// some 80 MB in order, and more in the marks beside it while they are found.
    fn closure(
        solvers: &mut dyn Solvers,
        game: GameId,
        heaps: impl IntoIterator<Item = i64>,
        known: &FxHashMap<i64, usize>,
    ) -> Result<(Vec<i64>, Charge), SolveError> {
        let mut walk = Closure {
            order: Vec::new(),
            state: FxHashMap::default(),
            stack: Vec::new(),
            pending: 0,
            held: solvers.limits().charge(),
        };
        for root in heaps {
            if known.contains_key(&root) || walk.state.contains_key(&root) {
                continue;
            }
            solvers.limits().check_interrupt()?;
            // A depth-first search: a heap is done when its options' heaps are.
            walk.visit(solvers, game, root)?;
            while let Some((heap, next)) = walk.stack.last_mut() {
                let heap = *heap;
                match next.pop() {
                    Some(h) if known.contains_key(&h) || walk.state.get(&h) == Some(&true) => {}
                    Some(h) if walk.state.contains_key(&h) => {
                        return Err(SolveError::Loop(vec![
                            solvers.describe(&[heap_part(game, heap)]),
                            solvers.describe(&[heap_part(game, h)]),
                        ]))
                    }
                    Some(h) => {
                        solvers.limits().check_interrupt()?;
                        walk.visit(solvers, game, h)?;
                    }
                    None => {
                        // Written in place: hashbrown's `insert` reserves before it looks, so
                        // overwriting a mark in a full table would grow it, unchecked.
                        *walk.state.get_mut(&heap).expect("a heap visited is marked") = true;
                        walk.order.push(heap);
                        let (_, next) = walk.stack.pop().expect("a heap is visited");
                        walk.pending -= budget::vector(&next, 0);
                    }
                }
            }
        }
        let Closure {
            order, mut held, ..
        } = walk;
        held.hold(budget::vector(&order, 0));
        Ok((order, held))
    }

    /// The misère quotient of the closure of heaps `start..=last` of a heap game. Progress is
    /// reported by heaps; a limit or Ctrl-C stops it with the quotient of the heaps done.
    pub fn run(
        &mut self,
        solvers: &mut dyn Solvers,
        game: GameId,
        name: &str,
        start: i64,
        last: i64,
    ) -> QuotientRun {
        let mut quotient = Quotient::new();
        let (closure, held) =
            match Self::closure(solvers, game, start..=last, &FxHashMap::default()) {
                Ok(c) => c,
                Err(e) => {
                    return QuotientRun {
                        quotient,
                        closure: Vec::new(),
                        stopped: Some(e),
                        _held: solvers.limits().charge(),
                    }
                }
            };
        let progress = solvers.limits().progress.clone();
        let reporter = progress.start(
            format!("misère quotient of {name}"),
            "heaps",
            closure.len() as u64,
        );
        let mut stopped = None;
        let effort = Effort::new(solvers.limits(), None);
        let mut charge = solvers.limits().charge();
        for (done, &heap) in closure.iter().enumerate() {
            reporter.iter().for_each(|r| r.set_done(done as u64));
            if let Err(e) = quotient.add_charged(solvers, game, heap, &effort, &mut charge) {
                stopped = Some(e);
                break;
            }
        }
        if stopped.is_none() {
            reporter.into_iter().for_each(|r| r.complete());
        }
        // The quotient returned stays charged beside the closure while it is shown.
        let mut held = held;
        held.hold(held.bytes() + charge.release());
        // Kept for the misère sums of the game when it covers the quotient they use (a quotient
        // stopped early is still faithful for the heaps it has), and when its copy fits beside
        // it (a quotient that stopped at the memory limit was copied past it).
        let covers = self
            .quotients
            .get(&game)
            .is_none_or(|old| old.heaps.iter().all(|h| quotient.place.contains_key(h)));
        let fits = held.fits(quotient.bytes(false)).is_ok();
        if covers && fits && !quotient.heaps.is_empty() {
            self.quotients.insert(game, quotient.clone());
            self.given_up.remove(&game);
        }
        QuotientRun {
            quotient,
            closure,
            stopped,
            _held: held,
        }
    }

    /// The outcome of a misère sum of heaps of one game from its quotient, computed or extended
    /// on demand; `None` when the sum is not of that kind or the quotient stopped at a limit
    /// (the whole-sum search answers then).
    pub(super) fn outcome(
        &mut self,
        solvers: &mut dyn Solvers,
        position: &Position,
    ) -> Result<Option<Outcome>, SolveError> {
        let Some(first) = position.parts().next() else {
            return Ok(None);
        };
        let game = first.game;
        if !solvers.heap_like(game) || solvers.is_loopy(game) || self.given_up.contains(&game) {
            return Ok(None);
        }
        let mut heaps = Vec::with_capacity(position.len());
        for part in position.parts() {
            match heap_of(part) {
                Some(n) if part.game == game && (0..=MOST_QUOTIENT_HEAP).contains(&n) => {
                    heaps.push(n)
                }
                _ => return Ok(None),
            }
        }
        let mut distinct = heaps.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let mut quotient = self.quotients.remove(&game).unwrap_or_else(Quotient::new);
        let added = Self::extend(solvers, &mut quotient, game, &distinct);
        let outcome = quotient.element_of(heaps.iter().copied()).map(|x| {
            if quotient.is_p(x) {
                Outcome::P
            } else {
                Outcome::N
            }
        });
        self.quotients.insert(game, quotient);
        match added {
            Ok(()) => Ok(outcome),
            Err(
                SolveError::MemoryLimit(_) | SolveError::StateLimit(_) | SolveError::TooManyOptions,
            ) => {
                self.given_up.insert(game);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Adds to `quotient` the heaps of the closure of `heaps` that it lacks, within the
    /// on-demand limits.
    fn extend(
        solvers: &mut dyn Solvers,
        quotient: &mut Quotient,
        game: GameId,
        heaps: &[i64],
    ) -> Result<(), SolveError> {
        let (missing, _held) =
            Self::closure(solvers, game, heaps.iter().copied(), &quotient.place)?;
        if missing.is_empty() {
            return Ok(());
        }
        let progress = solvers.limits().progress.clone();
        let reporter = progress.start(
            format!(
                "misère quotient for a sum (at most {} s, then the whole-sum search)",
                ON_DEMAND_TIME.as_secs()
            ),
            "heaps",
            missing.len() as u64,
        );
        let mut result = Ok(());
        let limits = Limits {
            max_memory: solvers.limits().max_memory.min(ON_DEMAND_MEMORY),
            ..solvers.limits().clone()
        };
        let effort = Effort::new(&limits, Some(Instant::now() + ON_DEMAND_TIME));
        let mut charge = limits.charge();
        for (done, &heap) in missing.iter().enumerate() {
            reporter.iter().for_each(|r| r.set_done(done as u64));
            result = quotient.add_charged(solvers, game, heap, &effort, &mut charge);
            if result.is_err() {
                break;
            }
        }
        // A quotient given up on here is no interruption: the sum is searched instead.
        reporter.into_iter().for_each(|r| r.complete());
        result
    }
}

/// The depth-first walk of [`QuotientCache::closure`], its bytes charged as it grows.
struct Closure {
    order: Vec<i64>,
    /// The heaps met: `true` once done.
    state: FxHashMap<i64, bool>,
    /// The heaps being visited, each with the heaps of its options still to look at.
    stack: Vec<(i64, Vec<i64>)>,
    /// The bytes of the stack's lists of heaps.
    pending: usize,
    held: Charge,
}

impl Closure {
    /// Starts visiting heap `h`, within the memory limit.
    fn visit(&mut self, solvers: &mut dyn Solvers, game: GameId, h: i64) -> Result<(), SolveError> {
        let next = option_heaps(solvers, game, h)?;
        self.pending += budget::vector(&next, 0);
        let bytes = budget::table(&self.state, true)
            + budget::vector(&self.order, 1)
            + budget::vector(&self.stack, 1)
            + self.pending;
        self.held
            .set(bytes)
            .map_err(|budget::OverLimit(limit)| SolveError::MemoryLimit(limit))?;
        self.state.insert(h, false);
        self.stack.push((h, next));
        Ok(())
    }
}

/// The distinct heaps of the options of a heap.
fn option_heaps(
    solvers: &mut dyn Solvers,
    game: GameId,
    heap: i64,
) -> Result<Vec<i64>, SolveError> {
    // Valuing the heap first finds a loop, and fills the tables the options come from.
    solvers.part_value(&heap_part(game, heap))?;
    let mut heaps: Vec<i64> = solvers
        .part_options(&heap_part(game, heap))?
        .iter()
        .flatten()
        .filter_map(heap_of)
        .collect();
    heaps.sort_unstable();
    heaps.dedup();
    heaps.reverse();
    Ok(heaps)
}
