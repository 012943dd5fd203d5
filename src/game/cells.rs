//! Games on a set of cells (the squares of a board with holes, or the vertices of a graph),
//! played natively on bit sets: Cram, Node Kayles and their kind, whose moves are the kinds of
//! [`CellMove`].
//!
//! A set is a `u128` over the board's cells (numbered row by row on a grid), so a board holds at
//! most [`MOST_CELLS`] cells. The moves depend on adjacency alone, so a region is stored under a
//! canonical form that every copy of it shares: a grid region cropped to its bounding box (and,
//! for a game declared symmetric, the least of its eight images under reflection and rotation),
//! a graph's vertices relabelled in order (the induced subgraph); `shape.rs` computes them with
//! shifts of the whole set. A game whose moves touch one part only (`split`) values each set as
//! the XOR of its connected parts, as a heap game values a split heap.
//!
//! Two searches give a region's value ([`CellSearch`]): the full search (the mex of every
//! option's value, every option valued), which is the oracle, and the pruned search of
//! `pruned.rs` (Lemoine and Viennot; Beling and Rogalski), which asks of most options only
//! whether their value is one number. Both are iterative (an explicit stack), store exact values
//! in one table (`table.rs`: a flat open-addressed table of grid regions), count the table and
//! the stack against the state and memory limits, and stop on Ctrl-C.

mod boxes;
mod pruned;
mod shape;
mod table;

use shape::{unpack, Grid, Region, Space};
use table::Table;

pub use super::vocabulary::{Board, TooManyCells, MOST_CELLS};
use super::vocabulary::{CellMove, CellRules};
use super::{mex, Limits, SolveError};

/// Which search values a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellSearch {
    /// Every option valued, the value their mex.
    Full,
    /// Options asked only what the answer needs ([`pruned`]'s searches).
    Pruned,
}

impl CellSearch {
    /// The search for games of these rules: the pruned one, which answers the same and visits a
    /// small part of what the full one does on every game of cells measured (BENCHMARKS.md).
    pub fn chosen(_rules: &CellRules) -> CellSearch {
        CellSearch::Pruned
    }
}

/// The values of a game on cells, region by region.
pub struct CellSolver {
    rules: CellRules,
    search: CellSearch,
    table: Table,
    stacks: pruned::Stacks,
    /// The value of a region of one cell: 1 when a move takes a lone cell, else 0.
    lone: u32,
    /// For games on grids whose moves take one cell or two adjacent cells only, and which are
    /// symmetric: whether they take one cell, and whether two (what `shape::mirrored` reads).
    mirror: Option<(bool, bool)>,
    /// The only move takes two adjacent cells (Cram): twin tufts and bridges go
    /// (`shape::Grid::reduced`).
    pairs_only: bool,
    /// For Cram split into parts: the values of paths, by their number of cells
    /// ([`path_values`]; a part is connected, which the test for a path needs).
    paths: Option<Vec<u8>>,
}

/// The values of Cram on a path of n cells, n = 0 ..= [`MOST_CELLS`], by the plain mex: a
/// move takes two adjacent cells of the path, leaving a path of a cells and one of n - 2 - a
/// (the octal game 0.07, Dawson's Kayles). A grid region whose cells have one adjacency fewer
/// than cells and at most two neighbours each is a path (connected with no cycle, no branch);
/// Cram's moves depend on which cells are adjacent alone, so such a region has the value of the
/// path of as many cells.
fn path_values() -> Vec<u8> {
    let mut values = vec![0u8; MOST_CELLS + 1];
    let mut seen = Vec::new();
    for n in 2..=MOST_CELLS {
        seen.clear();
        seen.extend((0..=n - 2).map(|a| u64::from(values[a] ^ values[n - 2 - a])));
        values[n] = u8::try_from(mex(&mut seen)).expect("a value of at most 128");
    }
    values
}

impl CellSolver {
    /// A solver with the search chosen for its rules.
    pub fn new(rules: CellRules) -> CellSolver {
        let search = CellSearch::chosen(&rules);
        CellSolver::with_search(rules, search)
    }

    pub fn with_search(rules: CellRules, search: CellSearch) -> CellSolver {
        let pairs_only = rules
            .moves
            .iter()
            .all(|m| *m == CellMove::RemoveAdjacentPair);
        let lone = u32::from(!pairs_only);
        let has = |kind| rules.moves.contains(&kind);
        let mirror = (rules.symmetric && !has(CellMove::RemoveWithNeighbours))
            .then(|| (has(CellMove::RemoveOne), has(CellMove::RemoveAdjacentPair)));
        let paths = (pairs_only && rules.split).then(path_values);
        CellSolver {
            rules,
            search,
            table: Table::default(),
            stacks: pruned::Stacks::default(),
            lone,
            mirror,
            pairs_only,
            paths,
        }
    }

    /// The moves it plays.
    pub fn rules(&self) -> &CellRules {
        &self.rules
    }

    /// The search it uses.
    pub fn search(&self) -> CellSearch {
        self.search
    }

    /// How many regions have an entry in the table (a value, or values they do not have).
    pub fn stored(&self) -> usize {
        self.table.len()
    }

    /// How many regions have their value stored (the rest of [`CellSolver::stored`] are
    /// hints, values a region does not have, which a full table drops).
    pub fn stored_values(&self) -> usize {
        self.table.values()
    }

    /// The bytes the stored values (and the stacks kept for the next search) take.
    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.stacks.bytes()
    }

    /// The Grundy value of the set `present` of `board`'s cells.
    pub fn value(
        &mut self,
        board: &Board,
        present: u128,
        limits: &Limits,
    ) -> Result<u64, SolveError> {
        let present = present & board.all();
        let space = match board {
            Board::Grid { width, height } => Space::Grid(Grid::new(*width, *height)),
            Board::Graph { adjacency } => Space::Graph(adjacency),
        };
        let mut regions = Vec::new();
        self.regions_of(&space, present, &mut |region| regions.push(region));
        let mut total = 0;
        for region in regions {
            total ^= match self.search {
                CellSearch::Full => self.full(region, limits)?,
                CellSearch::Pruned => self.pruned(region, limits)?,
            };
        }
        Ok(u64::from(total))
    }

    /// Calls `part` with the stored form of each part of `set` (or of `set` itself when the
    /// game does not split).
    fn regions_of(&self, space: &Space<'_>, set: u128, part: &mut impl FnMut(Region)) {
        if self.rules.split {
            space.parts(set, &mut |p| part(space.region(p, self.rules.symmetric)));
        } else if set != 0 {
            part(space.region(set, self.rules.symmetric));
        }
    }

    /// The value of one region by the full search, on an explicit stack: a region whose
    /// options' parts are all valued gets the mex of their XORs; otherwise the parts not yet
    /// valued go on the stack above it and it is looked at again once they are (every option
    /// has fewer cells, so no region waits on itself).
    fn full(&mut self, root: Region, limits: &Limits) -> Result<u32, SolveError> {
        let mut stack = vec![root.clone()];
        let mut visits = 0u32;
        let mut seen = Vec::new();
        let mut missing = Vec::new();
        while let Some(region) = stack.last().cloned() {
            if self.table.get(&region).is_some() {
                stack.pop();
                continue;
            }
            visits = visits.wrapping_add(1);
            if visits.is_multiple_of(1024) {
                limits.check_interrupt()?;
            }
            let (space, set) = unpack(&region);
            seen.clear();
            missing.clear();
            space.options(&self.rules.moves, set, &mut |option| {
                let mut value = 0;
                let mut known = true;
                self.regions_of(&space, option, &mut |part| match self.table.get(&part) {
                    Some(v) => value ^= v,
                    None => {
                        known = false;
                        missing.push(part);
                    }
                });
                if known {
                    seen.push(u64::from(value));
                }
                true
            });
            if missing.is_empty() {
                stack.pop();
                let value = u32::try_from(mex(&mut seen)).expect("a value below 2^32");
                let held = stack.capacity() * std::mem::size_of::<Region>();
                self.keep(region, value, stack.len(), held, limits)?;
            } else {
                missing.sort_unstable_by_key(Region::size);
                missing.dedup();
                stack.append(&mut missing);
                let held = stack.capacity() * std::mem::size_of::<Region>();
                self.within(stack.len(), held, limits)?;
            }
        }
        Ok(self.table.get(&root).expect("the root is valued"))
    }

    /// Stores a region's value, if the table with it fits in the limits beside `pending`
    /// questions on the stack, which holds `held` bytes.
    fn keep(
        &mut self,
        region: Region,
        value: u32,
        pending: usize,
        held: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        self.room_for(&region, pending, held, limits)?;
        self.table.insert(&region, value);
        self.within(pending, held, limits)
    }

    /// Notes that `region`'s value is not in `not` (bit v for v), when one more entry fits in
    /// the limits beside `pending` questions holding `held` bytes (else nothing: it is only a
    /// shortcut, and a later entry that does not fit ends the search with the limit).
    fn exclude(&mut self, region: &Region, not: u64, pending: usize, held: usize, limits: &Limits) {
        if not != 0 && self.room_for(region, pending, held, limits).is_ok() {
            self.table.exclude(region, not);
        }
    }

    /// Whether one more entry, for `region`, fits in the limits beside `pending` questions
    /// holding `held` bytes, making room when it does not ([`CellSolver::within`]).
    fn room_for(
        &mut self,
        region: &Region,
        pending: usize,
        held: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        loop {
            let memory = self.table.bytes_after_one_more(region) + held <= limits.room();
            let states = self.table.len() + 1 + pending <= limits.max_states;
            if memory && states {
                return Ok(());
            }
            if !self.table.evict_hint(Some(region)) {
                return Err(match memory {
                    true => SolveError::StateLimit(limits.max_states),
                    false => SolveError::MemoryLimit(limits.max_memory),
                });
            }
        }
    }

    /// Whether the stored regions and the `pending` questions on the stack (holding `held`
    /// bytes) fit in the limits. Values are what the limits bound: when the table is full,
    /// hints (the pruned search's values a region does not have, a shortcut only) go to make
    /// room, the one for the fewest cells of a few, and the search goes on; a region whose
    /// hint went is asked again in full if it is needed.
    fn within(&mut self, pending: usize, held: usize, limits: &Limits) -> Result<(), SolveError> {
        while self.table.len() + pending > limits.max_states {
            if !self.table.evict_hint(None) {
                return Err(SolveError::StateLimit(limits.max_states));
            }
        }
        if self.table.bytes() + held > limits.room() {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        Ok(())
    }
}
