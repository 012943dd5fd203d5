//! What the workers of a parallel sweep share: the engine's memos as they were when the sweep
//! began, read by every worker without a lock, and the values found since, published by each
//! worker to all the others in a sharded store.
//!
//! A worker has an engine of its own (`Engine::worker`, made of [`Sweep::worker_solvers`])
//! whose solvers keep only the states it is searching (each search marks its own states active,
//! so loops are found as in one thread) and the values it found; a state that no worker has
//! valued yet may be searched by two at once, which costs time but not correctness, since a
//! state has one value. A worker answers heap games, line sweeps, loopy games and misère sums
//! only from what the engine already knew and otherwise gives up with [`SolveError::Deferred`]:
//! those are left to the main thread.
//!
//! Budgets: a game's state and memory limits count the states the engine held when the sweep
//! began plus those published since, each once, exactly as one thread would count them, and a
//! worker's search in progress (its stack) on top of them, with what the other workers' searches
//! hold; each worker's private copy of its own values is charged to the session's ledger, so
//! that all of them count.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use rustc_hash::{FxHashMap, FxHasher};

use super::budget::Charge;
use super::solver::{pack, SPARSE_ENTRY_BYTES};
use super::vocabulary::Structure;
use super::{GameId, Limits, SolveError, Solver};

/// Shards of a store: enough that two workers seldom wait for the same lock.
const SHARDS: usize = 64;

/// The memos shared by the workers of one sweep (see the module's documentation).
pub struct Sweep {
    /// The engine's solvers when the sweep began; nobody writes them until it ends.
    base: Vec<Solver>,
    structures: Vec<Structure>,
    limits: Limits,
    /// The values the workers found, per game; made when a worker first publishes one.
    fresh: Vec<OnceLock<FreshValues>>,
    /// The bytes the workers' searches hold (their stacks), as each last said.
    searching: AtomicUsize,
}

/// The values of one game found during a sweep, in shards each behind its own lock.
struct FreshValues {
    shards: Box<[RwLock<Shard>]>,
    /// How many states are stored here, and their estimated bytes (as [`Solver`] estimates).
    stored: AtomicUsize,
    bytes: AtomicUsize,
}

/// One shard: states that pack into an integer, and the others.
#[derive(Default)]
struct Shard {
    packed: FxHashMap<u128, u32>,
    sparse: FxHashMap<Box<[i64]>, u32>,
}

fn shard_of(state: &[i64]) -> usize {
    use std::hash::{Hash, Hasher};
    let mut hasher = FxHasher::default();
    state.hash(&mut hasher);
    (hasher.finish() >> 32) as usize % SHARDS
}

impl FreshValues {
    fn new() -> FreshValues {
        FreshValues {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            stored: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
        }
    }

    fn get(&self, state: &[i64], key: Option<u128>) -> Option<u32> {
        let shard = self.shards[shard_of(state)]
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        match key {
            Some(key) => shard.packed.get(&key).copied(),
            None => shard.sparse.get(state).copied(),
        }
    }

    fn insert(&self, state: &[i64], value: u32) {
        let mut shard = self.shards[shard_of(state)]
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let old = match pack(state) {
            Some(key) => shard.packed.insert(key, value),
            None => shard.sparse.insert(state.into(), value),
        };
        if old.is_none() {
            self.stored.fetch_add(1, Ordering::Relaxed);
            self.bytes
                .fetch_add(state.len() * 8 + SPARSE_ENTRY_BYTES, Ordering::Relaxed);
        }
    }
}

/// A worker's solver's way to the shared memos of its game, and the charge of the worker's own
/// copy of the values it found (on the session's ledger, so that every worker's copy counts).
pub(super) struct SweepLink {
    pub(super) sweep: Arc<Sweep>,
    pub(super) game: GameId,
    pub(super) own: Charge,
    /// The bytes this solver's search holds, as last said to the sweep.
    pub(super) searching: AtomicUsize,
}

impl SweepLink {
    /// The engine's own solver of the game, as it was when the sweep began.
    pub(super) fn base(&self) -> &Solver {
        &self.sweep.base[self.game]
    }

    fn fresh_values(&self) -> Option<&FreshValues> {
        self.sweep.fresh[self.game].get()
    }

    /// The value of a state, if a worker has published it (`key`: its packed form).
    pub(super) fn fresh(&self, state: &[i64], key: Option<u128>) -> Option<u32> {
        self.fresh_values()?.get(state, key)
    }

    pub(super) fn publish(&self, state: &[i64], value: u32) {
        self.sweep.fresh[self.game]
            .get_or_init(FreshValues::new)
            .insert(state, value);
    }

    /// States stored for the game: the engine's and those published since.
    pub(super) fn stored(&self) -> usize {
        self.base().stored()
            + self
                .fresh_values()
                .map_or(0, |f| f.stored.load(Ordering::Relaxed))
    }

    /// Says that this solver's search holds `bytes` now, and gives what the searches of every
    /// other solver of the sweep hold.
    pub(super) fn report(&self, bytes: usize) -> usize {
        let old = self.searching.swap(bytes, Ordering::Relaxed);
        let all = if bytes >= old {
            self.sweep
                .searching
                .fetch_add(bytes - old, Ordering::Relaxed)
                + (bytes - old)
        } else {
            self.sweep
                .searching
                .fetch_sub(old - bytes, Ordering::Relaxed)
                - (old - bytes)
        };
        all.saturating_sub(bytes)
    }

    /// Fails when `more` bytes (this worker's search, and what it is about to add) would take
    /// the game's memos, with the other workers' searches, over the memory limit.
    pub(super) fn check_bytes(&self, more: usize, limits: &Limits) -> Result<(), SolveError> {
        let others = self.report(more);
        let bytes = self.base().bytes()
            + self
                .fresh_values()
                .map_or(0, |f| f.bytes.load(Ordering::Relaxed));
        // The engine's tables of this game are on the ledger already: counted here instead.
        if bytes + more + others > limits.room() + self.base().charged() {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        Ok(())
    }

    /// Fails when `more` bytes, with the worker's own values grown to `own_bytes`, would take
    /// the game's memos over the memory limit; else charges the growth of its own values.
    pub(super) fn check_own(
        &mut self,
        more: usize,
        own_bytes: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let growth = own_bytes.saturating_sub(self.own.bytes());
        self.check_bytes(more + growth, limits)?;
        self.own
            .set(own_bytes)
            .map_err(|_| SolveError::MemoryLimit(limits.max_memory))
    }
}

impl Drop for SweepLink {
    fn drop(&mut self) {
        self.report(0);
    }
}

impl Sweep {
    /// The shared memos of a sweep that begins with these solvers (taken from the engine, which
    /// answers nothing until [`Sweep::end`] gives them back).
    pub(super) fn new(base: Vec<Solver>, structures: &[Structure], limits: &Limits) -> Sweep {
        let fresh = (0..base.len()).map(|_| OnceLock::new()).collect();
        Sweep {
            base,
            structures: structures.to_vec(),
            limits: limits.clone(),
            fresh,
            searching: AtomicUsize::new(0),
        }
    }

    /// Ends a sweep once every worker is gone: the solvers it began with, with every value the
    /// workers published.
    pub(super) fn end(sweep: Arc<Sweep>, limits: &Limits) -> Vec<Solver> {
        let Ok(sweep) = Arc::try_unwrap(sweep) else {
            unreachable!("a sweep ends after its workers");
        };
        let mut solvers = sweep.base;
        for (solver, fresh) in solvers.iter_mut().zip(sweep.fresh) {
            let Some(fresh) = fresh.into_inner() else {
                continue;
            };
            let stored = fresh.stored.into_inner();
            let shards = fresh.shards.into_vec().into_iter();
            let shards = shards.map(|s| s.into_inner().unwrap_or_else(PoisonError::into_inner));
            let shards = shards.map(|s| (s.packed, s.sparse)).collect();
            solver.absorb(shards, stored, limits);
        }
        solvers
    }

    /// The solvers of one worker: its own memos, reading through the shared ones.
    pub(super) fn worker_solvers(sweep: &Arc<Sweep>) -> Vec<Solver> {
        (0..sweep.base.len())
            .map(|game| {
                Solver::linked(SweepLink {
                    sweep: sweep.clone(),
                    game,
                    own: sweep.limits.charge(),
                    searching: AtomicUsize::new(0),
                })
            })
            .collect()
    }

    pub(super) fn structures(&self) -> &[Structure] {
        &self.structures
    }

    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }
}
