//! Memoized mex search over one game, iterative so that deep games cannot overflow the stack.
//!
//! A heap-like game is valued in one of two ways, chosen from what its moves reach. Its table is
//! dense, filled in order of heap size, when a target is near the heaps already known or when a
//! search from the target reaches many of the heaps below it; otherwise the search from the
//! target stores only the heaps it reaches (`n -> n / 2` reaches about 60 heaps from 10^18).
//! Both give the value of the definition; they differ in what they store.
//!
//! Memory: the tables (by their real capacity), the stack of a search in progress (every state
//! on it with its options) and the options being listed all count against the memory limit
//! before they grow, and the states stored plus those on the stack against the state limit.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::budget::{self, Charge};
use super::cells::{CellSearch, CellSolver};
use super::chomp::ChompSolver;
use super::heap::HeapSequence;
use super::lines::LineSweep;
use super::position::HUGE;
use super::progress::Reporter;
use super::shared_memos::SweepLink;
use super::vocabulary::Structure;
use super::{mex, Game, Limits, Method, SolveError};
use stack::{Growth, Stack};
use tables::{DenseTable, HashedTable};

mod stack;
mod tables;

pub(super) const UNKNOWN: u32 = u32::MAX;
const ACTIVE: u32 = u32::MAX - 1;

/// What a hash-map entry of the stores shared by a parallel sweep is estimated to cost beyond
/// its key's counters: the entry, its share of a table between half and seven eighths full,
/// and the control byte.
pub const SPARSE_ENTRY_BYTES: usize = 80;

/// A heap this close above the heaps already known is reached by filling the table in order.
const NEAR: usize = 4096;

/// The most states and listed options a search from a heap beyond any table reaches before it
/// gives up: such a heap is answered only when its game reaches few heaps below it.
pub const HUGE_REACH: usize = 1 << 20;

/// How a solver stores what it knows: one mode per game, chosen when the solver is made.
enum Store {
    /// A heap-like game, searched heap by heap.
    Dense(DenseTable),
    /// Any other game, searched state by state.
    Hashed(HashedTable),
    /// A heap game with heap rules: its sequence replaces the search.
    HeapSequence(Box<HeapSequence>),
    /// A two-counter game with line rules: its sweep replaces the search (states of another
    /// width, should any come, are searched into the table).
    Lines(LineSweep, HashedTable),
    /// A game on cells with cell rules: its bit-set solver replaces the search (a state that is
    /// not a board, should one come, is searched into the table).
    Cells(Box<CellSolver>, HashedTable),
    /// Chomp on the Young diagrams of a list state: its tables replace the search (a list that
    /// is no diagram is searched into the hashed table).
    Chomp(ChompSolver, HashedTable),
    /// A worker of a parallel sweep (see [`super::shared_memos`]): the values of its own searches,
    /// read after the memos it shares with the others. A worker never searches a heap-like
    /// game, a heap sequence or a line sweep: it reads what the engine knew of them.
    Linked(SweepLink, HashedTable),
}

/// The memo of one game instance (see [`Store`]). It lives as long as the run, so every query
/// on the same game reuses it.
pub struct Solver {
    game: Arc<dyn Game>,
    /// The game's [`Game::heap_like`], asked once.
    heap_like: bool,
    store: Store,
    stored: usize,
    /// The arenas of searches, kept from one search to the next while they are small.
    stack: Stack,
    visits: u32,
    /// During a search from a heap beyond any table: the first heap that search values on its
    /// own and counts (see [`Solver::heap_value`]).
    far_from: Option<i64>,
    /// What the tables kept between searches hold, on the session's ledger, so that every other
    /// game's search and every value sees them (see [`Solver::value`]).
    retained: Option<Charge>,
}

/// A state as one integer, when it fits, in one of two layouts told apart by the lowest bit
/// (so keys of the two never meet):
///
/// - bit 0 clear: at most 15 counters, the length in bits 1 to 4, then the counters in
///   `123 / len` bits each;
/// - bit 0 set (a state the first does not fit): at most 127 counters, the length in bits 1 to
///   7, the width `w` of the largest counter (its bits) in bits 8 to 13, then the counters in
///   `w` bits each, at most 114 bits in all: a long list of small counters (a board's cells).
///
/// Each state has one key (the first layout when it fits), and different states, of the same
/// or different lengths, different keys.
pub(super) fn pack(state: &[i64]) -> Option<u128> {
    let n = state.len();
    let mut all = 0u64;
    for &x in state {
        if x < 0 {
            return None;
        }
        all |= x as u64;
    }
    let bits = (64 - all.leading_zeros()) as usize;
    let (mut key, mut shift, width) = if n <= 15 && bits <= 123 / n.max(1) {
        ((n as u128) << 1, 5, 123 / n.max(1))
    } else if n <= 127 && n * bits <= 114 {
        (1 | (n as u128) << 1 | (bits as u128) << 8, 14, bits)
    } else {
        return None;
    };
    for &x in state {
        key |= (x as u128) << shift;
        shift += width;
    }
    Some(key)
}

impl Solver {
    pub fn new(game: Arc<dyn Game>) -> Solver {
        let heap_like = game.heap_like();
        let store = if let Some(rules) = game.heap_rules().filter(|r| r.is_valid()) {
            Store::HeapSequence(Box::new(HeapSequence::new(rules)))
        } else if heap_like {
            Store::Dense(DenseTable::default())
        } else if let Some(rules) = game.line_rules().filter(|r| r.is_valid()) {
            Store::Lines(LineSweep::new(rules), HashedTable::default())
        } else if let Some(rules) = game.cell_rules() {
            Store::Cells(Box::new(CellSolver::new(rules)), HashedTable::default())
        } else if game.chomp() {
            Store::Chomp(ChompSolver::default(), HashedTable::default())
        } else {
            Store::Hashed(HashedTable::default())
        };
        Solver::with_store(game, heap_like, store)
    }

    /// A worker's solver in a parallel sweep: empty, reading through `link`.
    pub(super) fn linked(link: SweepLink) -> Solver {
        let (game, heap_like) = (link.base().game.clone(), link.base().heap_like);
        Solver::with_store(game, heap_like, Store::Linked(link, HashedTable::default()))
    }

    fn with_store(game: Arc<dyn Game>, heap_like: bool, store: Store) -> Solver {
        Solver {
            game,
            heap_like,
            store,
            stored: 0,
            stack: Stack::default(),
            visits: 0,
            far_from: None,
            retained: None,
        }
    }

    fn link(&self) -> Option<&SweepLink> {
        match &self.store {
            Store::Linked(link, _) => Some(link),
            _ => None,
        }
    }

    /// The bytes the tables hold.
    pub fn bytes(&self) -> usize {
        let tables = match &self.store {
            Store::Dense(table) => table.bytes(None),
            Store::Hashed(table) | Store::Linked(_, table) => table.bytes(None),
            Store::HeapSequence(heap) => heap.bytes(),
            Store::Lines(lines, table) => lines.bytes() + table.bytes(None),
            Store::Cells(cells, table) => cells.bytes() + table.bytes(None),
            Store::Chomp(chomp, table) => chomp.bytes() + table.bytes(None),
        };
        tables + self.stack.bytes(Growth::default())
    }

    /// Takes in the values a parallel sweep found (states this solver does not hold), how many
    /// they are given, as many as fit in the memory limit (see [`HashedTable::absorb`]), and
    /// charges what the tables hold then. Workers search, and publish, only games whose solver
    /// is hashed.
    pub(super) fn absorb(&mut self, shards: Vec<tables::Shard>, stored: usize, limits: &Limits) {
        // The tables' own charge is on the ledger: the room they may grow into includes it.
        let room =
            (limits.room() + self.charged()).saturating_sub(self.stack.bytes(Growth::default()));
        match &mut self.store {
            Store::Hashed(table) => self.stored += table.absorb(shards, room),
            _ => assert_eq!(
                stored, 0,
                "a sweep published values of a game it never searches"
            ),
        }
        self.recharge(limits);
    }

    /// The value of `state` if this solver's tables hold it, without computing anything: what a
    /// worker of a parallel sweep may read of a heap game or a line sweep.
    fn settled(&self, state: &[i64]) -> Option<u32> {
        match &self.store {
            Store::HeapSequence(heap) => heap.get(u64::try_from(state[0]).ok()?),
            Store::Lines(lines, _) if state.len() == 2 => lines.get(state),
            _ => self.known(state),
        }
    }

    /// The method that computes the values, for a game of this structure.
    pub fn method(&self, structure: &Structure) -> Method {
        match &self.store {
            Store::HeapSequence(heap) => {
                let sparse = (heap.strategy()).map(|s| (s, heap.kernels().name()));
                Method::heap_sequence(heap.rules(), structure, sparse)
            }
            Store::Lines(..) => Method::LineSweep,
            Store::Cells(cells, _) => Method::Cells {
                parts: cells.rules().split,
                symmetric: cells.rules().symmetric,
                pruned: cells.search() == CellSearch::Pruned,
            },
            Store::Chomp(..) => Method::Chomp,
            _ => Method::Search,
        }
    }

    pub fn game(&self) -> &Arc<dyn Game> {
        &self.game
    }

    /// For a game computed as a heap sequence, the period `(n0, p)` its theorem certified, if
    /// any (see [`HeapSequence::period`]).
    pub fn certified_period(&self) -> Option<(usize, usize)> {
        match &self.store {
            Store::HeapSequence(heap) => heap.period(),
            _ => None,
        }
    }

    /// Saves a heap sequence to the cache in use, if it grew since it was last saved.
    pub fn save_to_cache(&mut self, limits: &Limits) {
        if let Store::HeapSequence(heap) = &mut self.store {
            heap.save_to_cache(limits);
        }
    }

    /// How many heaps of a heap sequence were taken from the cache.
    pub fn resumed(&self) -> usize {
        match &self.store {
            Store::HeapSequence(heap) => heap.resumed(),
            _ => 0,
        }
    }

    /// Whether the game's values come from a [`HeapSequence`] (octal-style moves).
    pub fn has_heap_sequence(&self) -> bool {
        matches!(self.store, Store::HeapSequence(_))
    }

    /// Computes the values of the game's heap sequence up to heap `n`, as [`Solver::value`]
    /// does, telling `outer` how far they got; `None` when the game's values come from no heap
    /// sequence.
    pub fn extend_sequence(
        &mut self,
        n: u64,
        limits: &Limits,
        outer: Option<&Reporter>,
    ) -> Option<Result<(), SolveError>> {
        let Store::HeapSequence(heap) = &mut self.store else {
            return None;
        };
        let result = heap.value_reported(n, limits, outer);
        self.stored = self.stored.max(heap.len());
        if result.is_ok() && heap.bytes() > limits.room() {
            return Some(Err(SolveError::MemoryLimit(limits.max_memory)));
        }
        Some(result.map(|_| ()))
    }

    /// The game's heap sequence, to change, when its values come from one.
    pub fn heap_sequence_mut(&mut self) -> Option<&mut HeapSequence> {
        match &mut self.store {
            Store::HeapSequence(heap) => Some(heap),
            _ => None,
        }
    }

    /// The game's heap sequence, when its values come from one.
    pub fn heap_sequence(&self) -> Option<&HeapSequence> {
        match &self.store {
            Store::HeapSequence(heap) => Some(heap),
            _ => None,
        }
    }

    /// How many states have a stored value.
    pub fn stored(&self) -> usize {
        self.stored
    }

    /// The Grundy value of `state` (one heap for heap-like games), in canonical form.
    ///
    /// While it computes, the solver counts its own tables against the room the ledger leaves,
    /// so their charge is given back for that time and taken again for what they keep. A search
    /// stopped by the state or memory limit keeps nothing (its tables are as large as the limit
    /// let them grow, and would leave no room to anything after it); a later search values
    /// those states again.
    pub fn value(&mut self, state: &[i64], limits: &Limits) -> Result<u64, SolveError> {
        if matches!(self.store, Store::Linked(..)) {
            // A worker's own values are charged as they grow (see `SweepLink::check_own`).
            return self.compute(state, limits);
        }
        self.retained = None;
        let result = self.compute(state, limits);
        if matches!(
            result,
            Err(SolveError::MemoryLimit(_) | SolveError::StateLimit(_))
        ) {
            self.forget();
        }
        self.recharge(limits);
        result
    }

    /// Charges what the tables hold now to the ledger (after a search, or a sweep's values
    /// taken in).
    pub(super) fn recharge(&mut self, limits: &Limits) {
        let mut charge = self.retained.take().unwrap_or_else(|| limits.charge());
        charge.hold(self.bytes());
        self.retained = Some(charge);
    }

    /// The bytes charged to the ledger for the tables kept.
    pub(super) fn charged(&self) -> usize {
        self.retained.as_ref().map_or(0, Charge::bytes)
    }

    /// Empties the tables of a searched game (a heap sequence refuses before it grows past the
    /// limit, and a line sweep keeps the box it had: neither needs it).
    fn forget(&mut self) {
        match &mut self.store {
            Store::Dense(table) => *table = DenseTable::default(),
            Store::Hashed(table) | Store::Lines(_, table) => *table = HashedTable::default(),
            Store::Cells(cells, table) => {
                **cells = CellSolver::with_search(cells.rules().clone(), cells.search());
                *table = HashedTable::default();
            }
            Store::Chomp(chomp, table) => {
                *chomp = ChompSolver::default();
                *table = HashedTable::default();
            }
            Store::HeapSequence(_) | Store::Linked(..) => return,
        }
        self.stored = match &self.store {
            Store::Lines(lines, _) => lines.len(),
            _ => 0,
        };
        self.stack = Stack::default();
    }

    fn compute(&mut self, state: &[i64], limits: &Limits) -> Result<u64, SolveError> {
        match &mut self.store {
            Store::Linked(link, _) => {
                let base = link.base();
                let searched = matches!(base.store, Store::Hashed(_));
                if self.heap_like || !searched {
                    return base
                        .settled(state)
                        .map(u64::from)
                        .ok_or(SolveError::Deferred);
                }
            }
            Store::HeapSequence(heap) => {
                let v = heap.value(state[0] as u64, limits)?;
                self.stored = self.stored.max(heap.len());
                if heap.bytes() > limits.room() {
                    return Err(SolveError::MemoryLimit(limits.max_memory));
                }
                return Ok(v as u64);
            }
            Store::Lines(lines, _) if state.len() == 2 => {
                let v = lines.value(state, limits)?;
                self.stored = self.stored.max(lines.len());
                return Ok(v as u64);
            }
            Store::Cells(cells, _) => {
                if let Some((board, present)) = self.game.cell_board(state) {
                    let v = cells.value(&board, present, limits);
                    self.stored = cells.stored();
                    return v;
                }
            }
            Store::Chomp(..) => {
                let stack = self.stack.bytes(Growth::default());
                if let Some(v) = self.tabled(state, stack, limits) {
                    return v;
                }
            }
            _ => {}
        }
        if let Some(v) = self.known(state) {
            return Ok(v as u64);
        }
        if self.heap_like {
            self.heap_value(state[0], limits)?;
        } else {
            self.search(state, None, limits)?;
        }
        Ok(self.known(state).expect("searched state has a value") as u64)
    }

    /// The value of a state that the store's own method values without a search, a Chomp
    /// diagram (a search from a list that is none meets them as options), made beside the
    /// tables, their states and the `stack` bytes of a search; `None` for any other state.
    fn tabled(
        &mut self,
        state: &[i64],
        stack: usize,
        limits: &Limits,
    ) -> Option<Result<u64, SolveError>> {
        let Store::Chomp(chomp, table) = &mut self.store else {
            return None;
        };
        let searched = self.stored - chomp.stored();
        let value = chomp.value(state, (table.bytes(None) + stack, searched), limits)?;
        self.stored = searched + chomp.stored();
        Some(value)
    }

    /// Values a heap: by a search that stores only the heaps it reaches when the heap is far
    /// beyond the table, and by filling the table in order when it is near or when that search
    /// finds the reach dense. A heap too large for the table is answered only by the first; when
    /// only the state limit makes it too large, that limit is the reason the first gives up.
    ///
    /// Whether a heap too large for the table is answered is the game's and the heap's alone,
    /// never what earlier statements stored: its search counts, and values on its own, every
    /// heap it reaches from the end of any table on ([`HUGE`], or the state limit); the heaps
    /// below, which a table may hold, it reads as stored and does not count. (Were a heap below
    /// to move to one above, what was stored could still change the count.)
    fn heap_value(&mut self, target: i64, limits: &Limits) -> Result<(), SolveError> {
        let gap = (target as u64).saturating_sub(self.filled() as u64);
        let fits = target < HUGE;
        let fillable = fits && (target as usize) < limits.max_states;
        if !fillable || gap > NEAR as u64 {
            let reach = if fillable {
                (gap as usize / 8).max(NEAR)
            } else {
                let end = i64::try_from(limits.max_states).map_or(HUGE, |m| m.min(HUGE));
                self.far_from = Some(end);
                HUGE_REACH
            };
            let searched = self.search(&[target], Some((target, reach)), limits);
            let searched = match self.far_from.take() {
                Some(_) => self.end_far_search(target, searched, limits),
                None => searched,
            };
            match searched {
                Err(SolveError::Unknown { .. }) if fillable => {}
                Err(SolveError::Unknown { .. } | SolveError::MemoryLimit(_)) if fits => {
                    return Err(SolveError::StateLimit(limits.max_states))
                }
                result => return result,
            }
        }
        while (self.filled() as i64) < target {
            let h = [self.filled() as i64];
            if self.known(&h).is_none() {
                self.search(&h, None, limits)?;
            }
            if let Store::Dense(table) = &mut self.store {
                table.filled += 1;
            }
        }
        self.search(&[target], None, limits)
    }

    /// After a search from a heap beyond any table: drops what it valued from the end of the
    /// tables on (a later search values them again), and keeps the target's value if found.
    fn end_far_search(
        &mut self,
        target: i64,
        searched: Result<(), SolveError>,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let Store::Dense(table) = &mut self.store else {
            return searched;
        };
        let searching = std::mem::take(&mut table.searching);
        self.stored -= searching.values().filter(|&&v| v < ACTIVE).count();
        searched?;
        let value = searching[&target];
        drop(searching);
        let held = self.stack.bytes(Growth::default());
        if let Store::Dense(table) = &mut self.store {
            table.set(target, value, (true, None), held, limits)?;
        }
        self.stored += 1;
        Ok(())
    }

    /// The options of `state`, one per move in the order the rules give them (two moves that
    /// leave equal states are both listed), each canonical (heaps sorted, for heap-like games).
    /// A heap of a million options lists a million vectors: they must fit in the room the
    /// limits leave, `copies` times over (what the caller builds from them beside them).
    pub fn options(
        &self,
        state: &[i64],
        limits: &Limits,
        copies: usize,
    ) -> Result<Vec<Vec<i64>>, SolveError> {
        let mut options = Vec::new();
        let mut bytes = 0;
        let mut stopped = None;
        let game = &self.game;
        let heap_like = self.heap_like;
        game.options(state, &mut |option| {
            bytes += size_of::<Vec<i64>>() + budget::boxed(option.len() * 8);
            let held = budget::vector(&options, 1) + (1 + copies) * bytes;
            if held > limits.room() {
                stopped = Some(SolveError::MemoryLimit(limits.max_memory));
                return ControlFlow::Break(());
            }
            if options.len() % 4096 == 4095 && limits.check_interrupt().is_err() {
                stopped = Some(SolveError::Interrupted);
                return ControlFlow::Break(());
            }
            let mut option = option.to_vec();
            if heap_like {
                option.sort_unstable();
            } else {
                game.canonicalize(&mut option);
            }
            options.push(option);
            ControlFlow::Continue(())
        })?;
        stopped.map_or(Ok(options), Err)
    }

    pub(super) fn known(&self, state: &[i64]) -> Option<u32> {
        let v = self.slot(state);
        (v < ACTIVE).then_some(v)
    }

    /// Every heap below this one has its value in the dense table.
    fn filled(&self) -> usize {
        match &self.store {
            Store::Dense(table) => table.filled,
            _ => 0,
        }
    }

    /// The value of a state, or [`ACTIVE`] when it is being searched, or [`UNKNOWN`].
    fn slot(&self, state: &[i64]) -> u32 {
        match &self.store {
            Store::Dense(table) => table.slot(state[0], self.far_from),
            Store::Hashed(table) | Store::Lines(_, table) | Store::Cells(_, table) => {
                table.slot(state, pack(state))
            }
            // A diagram in a table made already, else what the search stored.
            Store::Chomp(chomp, table) => {
                (chomp.get(state)).unwrap_or_else(|| table.slot(state, pack(state)))
            }
            Store::HeapSequence(_) => UNKNOWN,
            // A worker holds no heaps of its own (it never searches a heap-like game).
            Store::Linked(..) if self.heap_like => UNKNOWN,
            // A worker: what the engine knew, then its own searches, then the other workers'.
            Store::Linked(link, own) => {
                let key = pack(state);
                match link.base().table_slot(state, key) {
                    UNKNOWN => match own.slot(state, key) {
                        UNKNOWN => link.fresh(state, key).unwrap_or(UNKNOWN),
                        v => v,
                    },
                    v => v,
                }
            }
        }
    }

    /// The slot of a state in the table of a hashed game, its packed form given.
    pub(super) fn table_slot(&self, state: &[i64], key: Option<u128>) -> u32 {
        match &self.store {
            Store::Hashed(table)
            | Store::Lines(_, table)
            | Store::Cells(_, table)
            | Store::Chomp(_, table) => table.slot(state, key),
            _ => UNKNOWN,
        }
    }

    /// Fails when the tables and the stack of the search, grown by `growth`, would go over the
    /// memory limit. A worker of a sweep counts the shared memos instead of its own tables.
    fn check_memory(
        &self,
        stack: &Stack,
        growth: Growth,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let held = stack.bytes(growth);
        match self.link() {
            Some(link) => link.check_bytes(held, limits),
            None if self.bytes() + held > limits.room() => {
                Err(SolveError::MemoryLimit(limits.max_memory))
            }
            None => Ok(()),
        }
    }

    fn set(
        &mut self,
        state: &[i64],
        value: u32,
        stack: &Stack,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let held = stack.bytes(Growth::default());
        match &mut self.store {
            Store::Dense(table) => {
                let how = (stack.reach.is_some(), self.far_from);
                table.set(state[0], value, how, held, limits)
            }
            Store::Hashed(table) => table.set(state, value, held, limits),
            Store::Lines(lines, table) => table.set(state, value, held + lines.bytes(), limits),
            Store::Cells(cells, table) => table.set(state, value, held + cells.bytes(), limits),
            Store::Chomp(chomp, table) => table.set(state, value, held + chomp.bytes(), limits),
            Store::Linked(link, own) => {
                let key = pack(state);
                if !own.contains(state, key) {
                    let entry = state.len() * 8 + SPARSE_ENTRY_BYTES;
                    link.check_own(held + entry, own.bytes_with(state, key), limits)?;
                }
                own.insert(state, key, value);
                if value < ACTIVE {
                    link.publish(state, value);
                }
                Ok(())
            }
            Store::HeapSequence(_) => unreachable!("a heap sequence is never searched"),
        }
    }

    /// Lists the options of `state` at the end of the stack's arenas, counting their bytes as
    /// they come and, in a search of sparse reach, how far it has reached.
    fn expand(&self, state: &[i64], stack: &mut Stack, limits: &Limits) -> Result<(), SolveError> {
        let game = &self.game;
        let heap_like = self.heap_like;
        let link = self.link();
        let tables = match link {
            Some(_) => 0,
            None => self.bytes(),
        };
        let mut stopped = None;
        let mut listed = 0u32;
        let counted = self.counted(state);
        // What the search holds is on the ledger while the game lists the options, so that
        // what the game builds for them (the lists of its rules) is counted beside it.
        let lent = match link {
            Some(_) => 0,
            None => tables + stack.bytes(Growth::default()),
        };
        let mut lend = stack.lent.take().unwrap_or_else(|| limits.charge());
        lend.hold(lent);
        let result = game.options(state, &mut |option| {
            listed = listed.wrapping_add(1);
            if listed.is_multiple_of(4096) && limits.check_interrupt().is_err() {
                stopped = Some(SolveError::Interrupted);
                return ControlFlow::Break(());
            }
            let growth = Growth {
                frames: 1,
                keys: state.len(),
                flat: option.len(),
                ends: 1,
                values: 0,
            };
            let bytes = tables + stack.bytes(growth);
            let over = match link {
                Some(link) => link.check_bytes(bytes, limits).err(),
                None => (bytes > limits.room() + lent)
                    .then_some(SolveError::MemoryLimit(limits.max_memory)),
            };
            stack.counted += usize::from(counted);
            let reached = match self.far_from {
                Some(_) => stack.counted,
                None => stack.pushed + stack.flat.len(),
            };
            let far = stack.reach.filter(|&(_, reach)| reached > reach);
            if let Some((heap, _)) = far {
                stopped = Some(SolveError::Unknown {
                    heap,
                    known: self.filled(),
                    searched: Some(stack.pushed),
                });
            } else if over.is_some() {
                stopped = over;
            }
            if stopped.is_some() {
                return ControlFlow::Break(());
            }
            let start = stack.flat.len();
            stack.flat.extend_from_slice(option);
            if heap_like {
                stack.flat[start..].sort_unstable();
            } else {
                game.canonicalize(&mut stack.flat[start..]);
            }
            stack.ends.push(stack.flat.len());
            ControlFlow::Continue(())
        });
        lend.hold(0);
        stack.lent = Some(lend);
        match stopped {
            Some(reason) => Err(reason),
            None => result,
        }
    }

    fn push(&mut self, stack: &mut Stack, key: &[i64], limits: &Limits) -> Result<(), SolveError> {
        let stored = match self.link() {
            Some(link) => link.stored(),
            None => self.stored,
        };
        if stored + stack.len() >= limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        self.visits = self.visits.wrapping_add(1);
        if self.visits.is_multiple_of(1024) {
            limits.check_interrupt()?;
        }
        stack.counted += usize::from(self.counted(key));
        let (flat, ends) = (stack.flat.len(), stack.ends.len());
        self.expand(key, stack, limits)?;
        let growth = Growth {
            frames: 1,
            keys: key.len(),
            ..Growth::default()
        };
        self.check_memory(stack, growth, limits)?;
        stack.push(key, flat, ends);
        self.set(key, ACTIVE, stack, limits)?;
        if !self.heap_like {
            self.settle_known(stack, limits)?;
        }
        Ok(())
    }

    /// Records the values of the new top frame's options that are known already, and leaves
    /// only the others to be searched, in their order. Looked up one after another in one
    /// loop, the lookups wait for memory together, where one at a time between the searches of
    /// the other options each waits on its own; a known option starts no search, so the
    /// searches, and the loops they find, come in the same order as without this.
    fn settle_known(&self, stack: &mut Stack, limits: &Limits) -> Result<(), SolveError> {
        let options = stack.top().map_or(0, |top| stack.option_count(top));
        if stack.values.capacity() - stack.values.len() < options {
            let growth = Growth {
                values: options,
                ..Growth::default()
            };
            self.check_memory(stack, growth, limits)?;
        }
        stack.settle_top(|option| match self.slot(option) {
            v if v < ACTIVE => Some(v as u64),
            _ => None,
        });
        Ok(())
    }

    /// Whether a search from a heap beyond any table counts `state` (see [`Solver::heap_value`]).
    fn counted(&self, state: &[i64]) -> bool {
        self.far_from.is_some_and(|end| state[0] >= end)
    }

    /// Searches `root`, within `reach` when it is a heap beyond the table (see [`Stack::reach`]).
    fn search(
        &mut self,
        root: &[i64],
        reach: Option<(i64, usize)>,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let mut stack = std::mem::take(&mut self.stack);
        stack.begin(reach);
        let result = self.search_from(root, &mut stack, limits);
        if result.is_err() {
            let keys: Vec<Box<[i64]>> = stack.keys().map(Box::from).collect();
            for key in keys {
                self.unset(&key);
            }
        }
        if stack.is_large() {
            stack = Stack::default();
        }
        stack.begin(None);
        self.stack = stack;
        if let Some(link) = self.link() {
            // What the worker's stack keeps between its searches, seen by the other workers.
            link.report(self.stack.bytes(Growth::default()));
        }
        result
    }

    fn unset(&mut self, state: &[i64]) {
        match &mut self.store {
            Store::Dense(table) => table.unset(state[0]),
            Store::Hashed(table)
            | Store::Lines(_, table)
            | Store::Cells(_, table)
            | Store::Chomp(_, table)
            | Store::Linked(_, table) => table.unset(state),
            Store::HeapSequence(_) => {}
        }
    }

    fn search_from(
        &mut self,
        root: &[i64],
        stack: &mut Stack,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        let heap_like = self.heap_like;
        self.push(stack, root, limits)?;
        let mut values = Vec::new();
        // The child being looked at, in a buffer reused for every child.
        let mut child: Vec<i64> = Vec::new();
        while let Some(top) = stack.top() {
            let children = if heap_like {
                stack.heap_count(top)
            } else {
                stack.option_count(top)
            };
            if top.next_child < children {
                let i = top.next_child;
                child.clear();
                if heap_like {
                    child.push(stack.heap(top, i));
                } else {
                    child.extend_from_slice(stack.option(top, i));
                    stack.aside = budget::vector(&child, 0);
                }
                stack.advance();
                match self.slot(&child) {
                    UNKNOWN => match self.tabled(&child, stack.bytes(Growth::default()), limits) {
                        Some(value) => self.push_value(stack, value?, limits)?,
                        None => self.push(stack, &child, limits)?,
                    },
                    ACTIVE => return Err(self.loop_error(stack, &child)),
                    v if !heap_like => self.push_value(stack, v as u64, limits)?,
                    _ => {}
                }
                continue;
            }
            let value = if heap_like {
                values.clear();
                for option in stack.options(top) {
                    let v = option
                        .iter()
                        .fold(0u64, |acc, &h| acc ^ self.slot(&[h]) as u64);
                    values.push(v);
                }
                mex(&mut values)
            } else {
                mex(stack.top_values())
            };
            let value = u32::try_from(value)
                .ok()
                .filter(|&v| v < ACTIVE)
                .ok_or(SolveError::StateLimit(limits.max_states))?;
            let frame = stack.pop().expect("stack is not empty");
            self.set(stack.key(&frame), value, stack, limits)?;
            self.stored += 1;
            stack.drop_key(&frame);
            if !heap_like && stack.top().is_some() {
                self.push_value(stack, value as u64, limits)?;
            }
        }
        Ok(())
    }

    /// Records the value of a child of the top frame.
    fn push_value(&self, stack: &mut Stack, value: u64, limits: &Limits) -> Result<(), SolveError> {
        if stack.values.len() == stack.values.capacity() {
            let growth = Growth {
                values: 1,
                ..Growth::default()
            };
            self.check_memory(stack, growth, limits)?;
        }
        stack.values.push(value);
        Ok(())
    }

    fn loop_error(&self, stack: &Stack, repeated: &[i64]) -> SolveError {
        let keys: Vec<&[i64]> = stack.keys().collect();
        let start = keys.iter().position(|k| *k == repeated).unwrap_or(0);
        let mut cycle: Vec<String> = keys[start..]
            .iter()
            .map(|k| self.game.describe(k))
            .collect();
        cycle.push(self.game.describe(repeated));
        SolveError::Loop(cycle)
    }
}

#[cfg(test)]
mod tests {
    use super::pack;

    #[test]
    fn packed_states_are_distinct() {
        let states: Vec<Vec<i64>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1],
            vec![1, 0],
            vec![0, 1],
            vec![i64::MAX],
            vec![(1 << 24) - 1; 5],
            vec![255; 15],
            vec![0; 16],
            vec![1; 16],
            vec![1; 114],
            vec![0; 127],
            vec![3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2],
            vec![3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 0],
            vec![1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0],
            vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
        ];
        let keys: Vec<u128> = states.iter().map(|s| pack(s).unwrap()).collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{:?} {:?}", states[i], states[j]);
            }
        }
        assert_eq!(pack(&[1 << 24, 0, 0, 0, 0]), None);
        assert_eq!(pack(&[-1]), None);
        assert_eq!(pack(&[256; 15]), None);
        assert_eq!(pack(&[1; 115]), None);
        assert_eq!(pack(&[0; 128]), None);
    }

    /// Every list of lengths 0 to 4 with counters below 4, and of lengths 15 to 18 with counters
    /// below 2, some of them with one large counter: one key each, all different.
    #[test]
    fn packed_keys_are_one_to_one() {
        let mut states: Vec<Vec<i64>> = Vec::new();
        let mut all = |len: usize, base: i64| {
            for code in 0..base.pow(len as u32) {
                let state: Vec<i64> = (0..len).map(|i| code / base.pow(i as u32) % base).collect();
                states.push(state.clone());
                let mut large = state;
                if let Some(first) = large.first_mut() {
                    *first += 1 << 20;
                    states.push(large);
                }
            }
        };
        for len in 0..=4 {
            all(len, 4);
        }
        for len in 15..=18 {
            all(len, 2);
        }
        let mut seen = std::collections::HashMap::new();
        for state in &states {
            let Some(key) = pack(state) else { continue };
            assert_eq!(pack(state), Some(key));
            if let Some(other) = seen.insert(key, state.clone()) {
                panic!("{state:?} and {other:?} share a key");
            }
        }
        assert!(seen.len() > states.len() / 2);
    }
}
