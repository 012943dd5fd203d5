//! The words the engine and its users share: what a game's moves are known to be (take-and-break
//! rules, line rules, the structure the periodicity theorems read) and what a position is worth
//! (generalized values, outcomes, periods). Everything here is plain data with the rules that
//! define it; the solvers that compute with it live in the feature modules, and this module
//! imports none of them.

use std::fmt;
use std::sync::Arc;

// Values and outcomes.

/// A generalized Grundy value: a finite value, or infinity together with the finite values
/// of its options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GValue {
    Finite(u64),
    /// The finite values among the options, ascending.
    Infinite(Vec<u64>),
}

/// Who wins with best play: the player to move (N), the other player (P), or neither (D).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    N,
    P,
    D,
}

impl Outcome {
    pub fn letter(self) -> &'static str {
        match self {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::D => "D",
        }
    }
}

impl GValue {
    /// The value of a disjunctive sum: finite values add by XOR; a finite `a` plus `∞(K)` is
    /// `∞(K xor a)`; two infinite values make `∞()`, a draw.
    pub fn sum(&self, other: &GValue) -> GValue {
        match (self, other) {
            (GValue::Finite(a), GValue::Finite(b)) => GValue::Finite(a ^ b),
            (GValue::Finite(a), GValue::Infinite(k)) | (GValue::Infinite(k), GValue::Finite(a)) => {
                let mut shifted: Vec<u64> = k.iter().map(|v| v ^ a).collect();
                shifted.sort_unstable();
                GValue::Infinite(shifted)
            }
            (GValue::Infinite(_), GValue::Infinite(_)) => GValue::Infinite(Vec::new()),
        }
    }

    pub fn outcome(&self) -> Outcome {
        match self {
            GValue::Finite(0) => Outcome::P,
            GValue::Finite(_) => Outcome::N,
            GValue::Infinite(k) if k.contains(&0) => Outcome::N,
            GValue::Infinite(_) => Outcome::D,
        }
    }

    pub fn finite(&self) -> Option<u64> {
        match self {
            GValue::Finite(v) => Some(*v),
            GValue::Infinite(_) => None,
        }
    }
}

impl fmt::Display for GValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GValue::Finite(v) => write!(f, "{v}"),
            GValue::Infinite(k) => {
                let k: Vec<String> = k.iter().map(|v| v.to_string()).collect();
                write!(f, "∞{{{}}}", k.join(", "))
            }
        }
    }
}

// Periods and the structure the periodicity theorems read.

/// `G(n + period) = G(n) + saltus` for every `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub preperiod: usize,
    pub period: usize,
    pub saltus: u64,
}

/// What a heap game's moves are known to be, for the periodicity theorems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Nothing is known: periods are apparent, never proved.
    Unknown,
    /// Every smaller heap can be reached: `G(n) = n`.
    Nim,
    /// A finite subtraction set whose largest element is `largest`.
    Subtraction { largest: usize },
    /// An octal or hexadecimal game with these digits (`digits[j]` for taking `j` tokens; bit 8:
    /// leave three non-empty heaps).
    Octal { digits: Vec<u8> },
    /// Every smaller heap can be reached, and a heap may also be split in two in these ways
    /// (Lasker's Nim): the arithmetic-periodicity test applies.
    TakeAnyOrSplit { splits: Vec<Split> },
}

/// What the engine asks of a structure, answered here so that its callers need not match on it
/// (the matches that remain are those that map each structure to its theorem or method).
impl Structure {
    /// Whether anything is known of the moves: a closed form or a theorem may apply.
    pub fn is_known(&self) -> bool {
        *self != Structure::Unknown
    }

    /// Whether the game is Nim, `G(n) = n`.
    pub fn is_nim(&self) -> bool {
        *self == Structure::Nim
    }

    /// Whether a move may leave three heaps (a hexadecimal code with a digit that has bit 8).
    pub fn splits_in_three(&self) -> bool {
        matches!(self, Structure::Octal { digits } if digits.iter().any(|d| d & 8 != 0))
    }

    /// Whether every smaller heap can be reached and a heap may be split in two (the
    /// arithmetic-periodicity test applies, and the values grow).
    pub fn takes_any_or_splits(&self) -> bool {
        matches!(self, Structure::TakeAnyOrSplit { .. })
    }

    /// The largest take of a finite subtraction set (a heap has at most that many options).
    pub fn largest_subtraction(&self) -> Option<usize> {
        match self {
            Structure::Subtraction { largest } => Some(*largest),
            _ => None,
        }
    }
}

/// A way to split a heap: take `take` tokens, then leave two non-empty heaps, which must differ
/// when `unequal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub take: usize,
    pub unequal: bool,
}

// The moves of games on cells (a board's squares or a graph's vertices).

/// One kind of move of a game played on a set of cells, each defined by adjacency alone (so a
/// region may be moved, reflected or relabelled without changing its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellMove {
    /// Remove one cell.
    RemoveOne,
    /// Remove a cell and every neighbour still present (Node Kayles).
    RemoveWithNeighbours,
    /// Remove two adjacent cells (Cram, dominoes on a board).
    RemoveAdjacentPair,
}

/// A game on cells whose moves are all of the kinds of [`CellMove`]: an option of a set is the
/// set less what one move removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRules {
    pub moves: Vec<CellMove>,
    /// Every move touches one connected part only: a position is the sum of its parts.
    pub split: bool,
    /// A board's reflections and rotations keep values (the eight images of the dihedral group).
    pub symmetric: bool,
}

/// The most cells a board may have: one bit of a `u128` each.
pub const MOST_CELLS: usize = 128;

/// The cells a set is drawn from, and which of them are adjacent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// `width` by `height` squares, numbered row by row; a square's neighbours are the four
    /// beside it.
    Grid { width: usize, height: usize },
    /// The vertices `0..n` of an undirected graph: `adjacency[v]` holds the neighbours of `v`.
    Graph { adjacency: Arc<[u128]> },
}

/// A board of more cells than a set holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyCells {
    pub cells: usize,
}

impl fmt::Display for TooManyCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a board of {} cells: a game on cells is played on at most {MOST_CELLS} cells",
            self.cells
        )
    }
}

impl std::error::Error for TooManyCells {}

pub(crate) fn bit(cell: usize) -> u128 {
    1u128 << cell
}

/// The cells of a set, ascending.
pub(crate) fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

/// Every cell of a board of `cells` cells.
pub(crate) fn full(cells: usize) -> u128 {
    if cells == MOST_CELLS {
        u128::MAX
    } else {
        bit(cells) - 1
    }
}

pub(crate) fn grid_adjacency(width: usize, height: usize) -> Arc<[u128]> {
    (0..width * height)
        .map(|cell| {
            let (row, column) = (cell / width, cell % width);
            let mut near = 0;
            if column > 0 {
                near |= bit(cell - 1);
            }
            if column + 1 < width {
                near |= bit(cell + 1);
            }
            if row > 0 {
                near |= bit(cell - width);
            }
            if row + 1 < height {
                near |= bit(cell + width);
            }
            near
        })
        .collect()
}

impl Board {
    pub fn grid(width: usize, height: usize) -> Result<Board, TooManyCells> {
        let cells = width.saturating_mul(height);
        if cells > MOST_CELLS {
            return Err(TooManyCells { cells });
        }
        Ok(Board::Grid { width, height })
    }

    /// The graph on `vertices` vertices with these edges (each a pair of vertices below
    /// `vertices`; a loop or a repeated edge adds nothing).
    pub fn graph(vertices: usize, edges: &[(usize, usize)]) -> Result<Board, TooManyCells> {
        if vertices > MOST_CELLS {
            return Err(TooManyCells { cells: vertices });
        }
        let mut adjacency = vec![0u128; vertices];
        for &(a, b) in edges {
            assert!(
                a < vertices && b < vertices,
                "an edge names a vertex off the graph"
            );
            if a != b {
                adjacency[a] |= bit(b);
                adjacency[b] |= bit(a);
            }
        }
        Ok(Board::Graph {
            adjacency: adjacency.into(),
        })
    }

    pub fn cells(&self) -> usize {
        match self {
            Board::Grid { width, height } => width * height,
            Board::Graph { adjacency } => adjacency.len(),
        }
    }

    /// Every cell of the board.
    pub fn all(&self) -> u128 {
        full(self.cells())
    }

    /// The cells next to `cell`, present or not.
    pub fn neighbours(&self, cell: usize) -> u128 {
        match self {
            Board::Grid { width, height } => grid_adjacency(*width, *height)[cell],
            Board::Graph { adjacency } => adjacency[cell],
        }
    }
}

// The moves of heap games, as take-and-break rules.

/// A heap game whose moves are octal-style: for each [`Take`], remove `take` tokens and leave no
/// heap, one heap, two heaps or three heaps; and for each [`TakeRange`], remove any number of tokens in a
/// range, leaving one heap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapRules {
    pub takes: Vec<Take>,
    pub ranges: Vec<TakeRange>,
}

/// Octal games taking more tokens than this are not described by their digits (the theorem
/// would need values beyond any table anyway).
const MOST_OCTAL_DIGITS: u64 = 1 << 16;

/// Runs of consecutive takes longer than this are better described as a [`TakeRange`].
pub const LONGEST_TAKE_RUN: usize = 32;

/// Remove `take` tokens from a heap of `n`. `none`: when that empties the heap (`n = take`), the
/// heap is gone; `one`: when `n > take`, one heap `n - take` is left; `two`: when
/// `n - take >= 2`, it is split into two non-empty heaps, which must differ if `unequal`;
/// `three`: when `n - take >= 3`, it is split into three non-empty heaps (a hexadecimal digit's
/// bit 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub take: u64,
    pub none: bool,
    pub one: bool,
    pub two: bool,
    pub three: bool,
    pub unequal: bool,
}

impl HeapRules {
    /// Whether every move takes at least one token or splits (so that no heap is its own option).
    pub fn is_valid(&self) -> bool {
        self.takes.iter().all(|t| t.take >= 1 || !(t.none || t.one))
            && self
                .ranges
                .iter()
                .all(|r| r.lo >= 1 && r.hi.is_none_or(|hi| hi >= r.lo))
    }

    /// Whether some move takes any number of tokens, up to the whole heap.
    pub fn takes_any(&self) -> bool {
        self.ranges.iter().any(|r| r.hi.is_none())
    }

    /// Whether some move splits a heap in two.
    pub fn splits(&self) -> bool {
        self.takes.iter().any(|t| t.two)
    }

    /// Whether some move splits a heap in three.
    pub fn splits_in_three(&self) -> bool {
        self.takes.iter().any(|t| t.three)
    }

    /// What the periodicity theorems know of these moves: when every smaller heap is an option,
    /// Nim if no move splits (in three: nothing is known), else a game that takes any amount or splits (the other options are
    /// smaller heaps too); a subtraction game when every move takes a bounded number of tokens
    /// and leaves one heap or none (an octal code of digits 0 and 3 too), an octal game when the
    /// takes are bounded and splits may leave equal heaps; otherwise nothing. Equal moves give the
    /// same structure however they are listed (one take with both flags, or two takes with one
    /// flag each).
    pub fn structure(&self) -> Structure {
        let every_smaller = TakeRange { lo: 1, hi: None };
        if self.ranges.contains(&every_smaller) && self.splits_in_three() {
            return Structure::Unknown;
        }
        if self.ranges.contains(&every_smaller) {
            // One split per take: an equal split includes the unequal one.
            let mut splits: Vec<Split> = Vec::new();
            for t in self.takes.iter().filter(|t| t.two) {
                let take = t.take as usize;
                match splits.iter_mut().find(|s| s.take == take) {
                    Some(split) => split.unequal &= t.unequal,
                    None => splits.push(Split {
                        take,
                        unequal: t.unequal,
                    }),
                }
            }
            splits.sort_by_key(|s| s.take);
            return if splits.is_empty() {
                Structure::Nim
            } else {
                Structure::TakeAnyOrSplit { splits }
            };
        }
        if self.takes.iter().any(|t| t.unequal) {
            return Structure::Unknown;
        }
        let Some(largest_range) = self.ranges.iter().try_fold(0, |m, r| Some(m.max(r.hi?))) else {
            return Structure::Unknown;
        };
        let mut digits = std::collections::BTreeMap::new();
        for t in &self.takes {
            let digit =
                t.none as u8 | (t.one as u8) << 1 | (t.two as u8) << 2 | (t.three as u8) << 3;
            if digit != 0 {
                *digits.entry(t.take).or_insert(0u8) |= digit;
            }
        }
        if digits.is_empty() && self.ranges.is_empty() {
            return Structure::Unknown;
        }
        let largest_take = digits.keys().next_back().copied().unwrap_or(0);
        let largest = largest_take.max(largest_range);
        if digits.values().all(|&d| d == 3) {
            return Structure::Subtraction {
                largest: largest as usize,
            };
        }
        if largest > MOST_OCTAL_DIGITS {
            return Structure::Unknown;
        }
        let mut code = vec![0u8; largest as usize + 1];
        for (&take, &digit) in &digits {
            code[take as usize] |= digit;
        }
        for r in &self.ranges {
            for k in r.lo..=r.hi.unwrap_or(r.lo) {
                code[k as usize] |= 3;
            }
        }
        Structure::Octal { digits: code }
    }
}

/// Take any `k` with `lo <= k <= hi` (`hi = None`: up to the whole heap), leaving one heap
/// `n - k`, or none when `k = n` (which has the value of heap 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakeRange {
    pub lo: u64,
    pub hi: Option<u64>,
}

// The moves of two-counter games, along lines.

/// The moves of a two-counter line game. Each is `(direction, from)`: subtract `k` from the
/// counters whose flag is set, for `from <= k <= ` the least of those counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRules {
    pub lines: Vec<([bool; 2], u64)>,
}

impl LineRules {
    pub fn is_valid(&self) -> bool {
        self.lines
            .iter()
            .all(|(d, from)| *from >= 1 && (d[0] || d[1]))
    }
}

/// Part `index` (from 1) of `count` of a survey: the games `g` with `g % count = index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole survey, as its one part.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `I/N`, with `1 <= I <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let wrong = || format!("`{text}` is not a part I/N, e.g. `2/8` (the second of eight)");
        let (i, n) = text.split_once('/').ok_or_else(wrong)?;
        let index: u32 = i.trim().parse().map_err(|_| wrong())?;
        let count: u32 = n.trim().parse().map_err(|_| wrong())?;
        if index < 1 || index > count {
            return Err(format!(
                "part {index} of {count} is not one: I/N has 1 <= I <= N"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `g` of the family is in this part.
    pub fn holds(&self, g: usize) -> bool {
        g % self.count as usize == (self.index - 1) as usize
    }

    /// How many of `total` games this part holds.
    pub fn games(&self, total: usize) -> usize {
        (0..total).filter(|&g| self.holds(g)).count()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What the surveys of a run compute: the whole survey, one part of it, or nothing (the parts
/// in the cache merged).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SurveyPart {
    #[default]
    Whole,
    Shard(Shard),
    Merge,
}
