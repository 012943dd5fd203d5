//! Games on a set of cells (the squares of a board with holes, or the vertices of a graph),
//! played natively on bit sets: Cram, Node Kayles and their kind, whose moves are the kinds of
//! [`CellMove`].
//!
//! A set is a `u128` over the board's cells (numbered row by row on a grid), so a board holds at
//! most [`MOST_CELLS`] cells. The moves depend on adjacency alone, so a region is stored under a
//! canonical form that every copy of it shares: a grid region cropped to its bounding box (and,
//! for a game declared symmetric, the least of its eight images under reflection and rotation),
//! a graph's vertices relabelled in order (the induced subgraph). A game whose moves touch one
//! part only (`split`) values each set as the XOR of its connected parts, as a heap game values
//! a split heap. The search is iterative (an explicit stack of regions), stores each region's
//! value in one hash map, counts the map and the stack against the state and memory limits, and
//! stops on Ctrl-C.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::vocabulary::{bit, cells_of, full, grid_adjacency, CellMove, CellRules};
pub use super::vocabulary::{Board, TooManyCells, MOST_CELLS};
use super::{mex, Limits, SolveError};

/// A region as it is stored: a grid region cropped (and, when the game is symmetric, the least
/// of its images), or a graph region as its induced subgraph on vertices relabelled in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Region {
    Grid { width: u8, height: u8, cells: u128 },
    Graph(Arc<[u128]>),
}

/// Where the cells of a set lie: what its parts are put in canonical form against.
enum Frame<'a> {
    Grid { width: usize },
    Graph(&'a [u128]),
}

/// The eight images of a `width` by `height` box under the dihedral group, as where each cell
/// goes: (the image's width, the cell's index in the image).
fn image(transform: u8, width: usize, height: usize, row: usize, column: usize) -> (usize, usize) {
    let (r, c) = if transform & 1 == 0 {
        (row, column)
    } else {
        (row, width - 1 - column)
    };
    let (r, c) = if transform & 2 == 0 {
        (r, c)
    } else {
        (height - 1 - r, c)
    };
    if transform & 4 == 0 {
        (width, r * width + c)
    } else {
        (height, c * height + r)
    }
}

impl Frame<'_> {
    fn region(&self, part: u128, symmetric: bool) -> Region {
        match *self {
            Frame::Grid { width } => {
                let cells: Vec<(usize, usize)> =
                    cells_of(part).map(|c| (c / width, c % width)).collect();
                let top = cells.iter().map(|&(r, _)| r).min().unwrap_or(0);
                let left = cells.iter().map(|&(_, c)| c).min().unwrap_or(0);
                let bottom = cells.iter().map(|&(r, _)| r).max().unwrap_or(0);
                let right = cells.iter().map(|&(_, c)| c).max().unwrap_or(0);
                let (w, h) = (right + 1 - left, bottom + 1 - top);
                let transforms = if symmetric { 0..8 } else { 0..1 };
                transforms
                    .map(|transform| {
                        let mut image_width = w;
                        let mut set = 0;
                        for &(r, c) in &cells {
                            let (iw, index) = image(transform, w, h, r - top, c - left);
                            image_width = iw;
                            set |= bit(index);
                        }
                        let image_height = w * h / image_width;
                        (image_width as u8, image_height as u8, set)
                    })
                    .min()
                    .map(|(width, height, cells)| Region::Grid {
                        width,
                        height,
                        cells,
                    })
                    .expect("a transform")
            }
            Frame::Graph(adjacency) => {
                let rank = |v: usize| (part & (bit(v) - 1)).count_ones() as usize;
                Region::Graph(
                    cells_of(part)
                        .map(|v| cells_of(adjacency[v] & part).fold(0, |row, u| row | bit(rank(u))))
                        .collect(),
                )
            }
        }
    }
}

/// What one stored region costs: its hash-map entry (key and value), its share of a table
/// between half and seven eighths full, and a graph region's rows.
const ENTRY_BYTES: usize = 96;

/// The values of a game on cells, region by region.
pub struct CellSolver {
    rules: CellRules,
    values: FxHashMap<Region, u32>,
    /// The bytes of the rows of the graph regions stored.
    rows_bytes: usize,
    grids: FxHashMap<(u8, u8), Arc<[u128]>>,
}

impl CellSolver {
    pub fn new(rules: CellRules) -> CellSolver {
        CellSolver {
            rules,
            values: FxHashMap::default(),
            rows_bytes: 0,
            grids: FxHashMap::default(),
        }
    }

    /// The moves it plays.
    pub fn rules(&self) -> &CellRules {
        &self.rules
    }

    /// How many regions have a stored value.
    pub fn stored(&self) -> usize {
        self.values.len()
    }

    /// The bytes the stored values take.
    pub fn bytes(&self) -> usize {
        self.values.capacity() * ENTRY_BYTES + self.rows_bytes
    }

    /// The Grundy value of the set `present` of `board`'s cells.
    pub fn value(
        &mut self,
        board: &Board,
        present: u128,
        limits: &Limits,
    ) -> Result<u64, SolveError> {
        let present = present & board.all();
        let adjacency = match board {
            Board::Grid { width, height } => grid_adjacency(*width, *height),
            Board::Graph { adjacency } => adjacency.clone(),
        };
        let frame = match board {
            Board::Grid { width, .. } => Frame::Grid { width: *width },
            Board::Graph { adjacency } => Frame::Graph(adjacency),
        };
        let mut total = 0;
        for part in self.parts(&adjacency, present) {
            let region = frame.region(part, self.rules.symmetric);
            total ^= self.search(region, limits)?;
        }
        Ok(u64::from(total))
    }

    /// The connected parts of `set` when the game splits, else `set` itself (none when empty).
    fn parts(&self, adjacency: &[u128], set: u128) -> Vec<u128> {
        if !self.rules.split {
            return if set == 0 { Vec::new() } else { vec![set] };
        }
        let mut parts = Vec::new();
        let mut left = set;
        while left != 0 {
            let mut part = left & left.wrapping_neg();
            let mut frontier = part;
            while frontier != 0 {
                let reached = cells_of(frontier).fold(0, |near, c| near | adjacency[c]);
                frontier = reached & left & !part;
                part |= frontier;
            }
            left &= !part;
            parts.push(part);
        }
        parts
    }

    /// A stored region as a set of cells with their adjacency, and the frame its parts lie in.
    fn unpack(&mut self, region: &Region) -> (Arc<[u128]>, u128, Option<usize>) {
        match *region {
            Region::Grid {
                width,
                height,
                cells,
            } => {
                let adjacency = self
                    .grids
                    .entry((width, height))
                    .or_insert_with(|| grid_adjacency(width.into(), height.into()))
                    .clone();
                (adjacency, cells, Some(width.into()))
            }
            Region::Graph(ref rows) => (rows.clone(), full(rows.len()), None),
        }
    }

    /// Calls `option` with the set each move of the rules leaves.
    fn options(&self, adjacency: &[u128], set: u128, option: &mut impl FnMut(u128)) {
        for &kind in &self.rules.moves {
            for c in cells_of(set) {
                match kind {
                    CellMove::RemoveOne => option(set & !bit(c)),
                    CellMove::RemoveWithNeighbours => option(set & !(bit(c) | adjacency[c])),
                    CellMove::RemoveAdjacentPair => {
                        for d in cells_of(adjacency[c] & set & !(u128::MAX >> (127 - c))) {
                            option(set & !(bit(c) | bit(d)));
                        }
                    }
                }
            }
        }
    }

    /// The value of one region, by an explicit stack: a region whose options' parts are all
    /// valued gets the mex of their XORs; otherwise the parts not yet valued go on the stack
    /// above it and it is looked at again once they are (every option has fewer cells, so no
    /// region waits on itself).
    fn search(&mut self, root: Region, limits: &Limits) -> Result<u32, SolveError> {
        let mut stack = vec![root.clone()];
        let mut visits = 0u32;
        let mut seen = Vec::new();
        let mut missing = Vec::new();
        while let Some(region) = stack.last().cloned() {
            if self.values.contains_key(&region) {
                stack.pop();
                continue;
            }
            visits = visits.wrapping_add(1);
            if visits.is_multiple_of(1024) {
                limits.check_interrupt()?;
            }
            let (adjacency, set, grid) = self.unpack(&region);
            let frame = match grid {
                Some(width) => Frame::Grid { width },
                None => Frame::Graph(&adjacency),
            };
            seen.clear();
            missing.clear();
            self.options(&adjacency, set, &mut |option| {
                let mut value = 0;
                let mut known = true;
                for part in self.parts(&adjacency, option) {
                    let part = frame.region(part, self.rules.symmetric);
                    match self.values.get(&part) {
                        Some(v) if known => value ^= v,
                        Some(_) => {}
                        None => {
                            known = false;
                            missing.push(part);
                        }
                    }
                }
                if known {
                    seen.push(u64::from(value));
                }
            });
            if missing.is_empty() {
                stack.pop();
                let value = u32::try_from(mex(&mut seen)).expect("a value below 2^32");
                self.store(region, value, stack.len(), limits)?;
            } else {
                missing.sort_unstable_by_key(|r| match r {
                    Region::Grid { cells, .. } => cells.count_ones(),
                    Region::Graph(rows) => rows.len() as u32,
                });
                missing.dedup();
                stack.append(&mut missing);
                self.within(stack.len(), stack.capacity(), limits)?;
            }
        }
        Ok(self.values[&root])
    }

    fn store(
        &mut self,
        region: Region,
        value: u32,
        pending: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        if self.values.len() == self.values.capacity() {
            let grown = (self.values.capacity() * 2).max(16) * ENTRY_BYTES;
            if grown + self.rows_bytes > limits.room() {
                return Err(SolveError::MemoryLimit(limits.max_memory));
            }
        }
        if let Region::Graph(rows) = &region {
            self.rows_bytes += rows.len() * 16 + 16;
        }
        self.values.insert(region, value);
        self.within(pending, 0, limits)
    }

    /// Whether the stored regions and those on the stack fit in the limits.
    fn within(
        &self,
        pending: usize,
        stack_capacity: usize,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        if self.values.len() + pending > limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        let stack_bytes = stack_capacity * (std::mem::size_of::<Region>() + 16);
        if self.bytes() + stack_bytes > limits.room() {
            return Err(SolveError::MemoryLimit(limits.max_memory));
        }
        Ok(())
    }
}
