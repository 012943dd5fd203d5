//! Boards as values of the language: a set of cells of a board, a grid (`grid(3, 2)`, or with
//! holes `grid(["..#", "..."])`) or a graph's vertices (`vertices(4, [[0, 1], [1, 2]])`). They
//! are the positions of games declared `on cells c`, and what such a game's rules read and
//! change (`x in c`, `neighbours(c, x)`, `c -= {x, y}`).
//!
//! Cells are integers: a grid's squares numbered row by row from 0 (`row` and `column` give
//! their place), a graph's vertices as given. A board value shows as what makes it, so that
//! what is printed can be read back in.

use std::fmt;
use std::sync::Arc;

use super::value::Value;
use crate::error::Error;
use crate::game::vocabulary::{bit, cells_of, Board, MOST_CELLS};
use crate::span::Span;

/// Some cells of a board: the board, and which of its cells are present.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardValue {
    pub board: Board,
    pub present: u128,
}

/// Why a board could not be made.
fn bad(message: impl Into<String>, span: Span, help: impl Into<String>) -> Error {
    Error::BadBoard {
        message: message.into(),
        span,
        help: help.into(),
    }
}

fn too_many(cells: u128, span: Span) -> Error {
    Error::TooManyCells {
        cells: cells.to_string(),
        span,
    }
}

impl BoardValue {
    /// Every cell of `board`.
    pub fn full(board: Board) -> BoardValue {
        let present = board.all();
        BoardValue { board, present }
    }

    /// `grid(width, height)`: every square of the grid.
    pub fn grid(width: i64, height: i64, span: Span) -> Result<BoardValue, Error> {
        if width < 0 || height < 0 {
            return Err(bad(
                format!("a grid of {width} by {height}"),
                span,
                "a grid's width and height are >= 0: `grid(4, 3)`",
            ));
        }
        let cells = width as u128 * height as u128;
        let board =
            Board::grid(width as usize, height as usize).map_err(|_| too_many(cells, span))?;
        Ok(BoardValue::full(board))
    }

    /// `grid(["..#", "..."])`: one string a row, `.` a square, `#` a hole.
    pub fn grid_of_rows(rows: &[Value], span: Span) -> Result<BoardValue, Error> {
        let mut lines = Vec::with_capacity(rows.len());
        for row in rows {
            match row {
                Value::Str(s) => lines.push(s.clone()),
                other => {
                    return Err(bad(
                        format!("a row of a grid is a string, not {}", other.type_name()),
                        span,
                        "write the rows as strings of `.` (a square) and `#` (a hole): `grid([\"..#\", \"...\"])`",
                    ))
                }
            }
        }
        let width = lines.first().map_or(0, |l| l.chars().count());
        if let Some(l) = lines.iter().find(|l| l.chars().count() != width) {
            return Err(bad(
                format!(
                    "the rows of a grid differ in length ({width} and {})",
                    l.chars().count()
                ),
                span,
                "every row of a grid has the same number of `.` and `#`",
            ));
        }
        let cells = width as u128 * lines.len() as u128;
        let board = Board::grid(width, lines.len()).map_err(|_| too_many(cells, span))?;
        let mut present = 0;
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => present |= bit(r * width + c),
                    '#' => {}
                    other => {
                        return Err(bad(
                            format!("`{other}` in a row of a grid"),
                            span,
                            "a row is made of `.` (a square) and `#` (a hole)",
                        ))
                    }
                }
            }
        }
        Ok(BoardValue { board, present })
    }

    /// `vertices(n, edges)`: the vertices `0..n` of the graph with these edges, given as pairs
    /// `[[0, 1], [1, 2]]` or as a flat list of integers taken two by two (what `read` gives of a
    /// file of edges, one a line).
    pub fn vertices(n: i64, edges: &Value, span: Span) -> Result<BoardValue, Error> {
        let Ok(vertices) = usize::try_from(n) else {
            return Err(bad(
                format!("a graph of {n} vertices"),
                span,
                "the number of vertices is >= 0",
            ));
        };
        if vertices > MOST_CELLS {
            return Err(too_many(vertices as u128, span));
        }
        let Value::List(items) = edges else {
            return Err(bad(
                format!("the edges of a graph are a list, not {}", edges.type_name()),
                span,
                "give the edges as pairs `[[0, 1], [1, 2]]` or as a flat list `[0, 1, 1, 2]`",
            ));
        };
        let mut ends = Vec::with_capacity(items.len() * 2);
        for item in items.iter() {
            match item {
                Value::Int(v) => ends.push(*v),
                Value::List(pair) => match pair.as_slice() {
                    [Value::Int(a), Value::Int(b)] => ends.extend([*a, *b]),
                    _ => {
                        return Err(bad(
                            format!("the edge {item} is not a pair of vertices"),
                            span,
                            "an edge is a pair of vertices: `[0, 1]`",
                        ))
                    }
                },
                other => return Err(bad(
                    format!("an edge is a pair of vertices, not {}", other.type_name()),
                    span,
                    "give the edges as pairs `[[0, 1], [1, 2]]` or as a flat list `[0, 1, 1, 2]`",
                )),
            }
        }
        if ends.len() % 2 != 0 {
            return Err(bad(
                format!(
                    "a flat list of {} vertices is not a list of pairs",
                    ends.len()
                ),
                span,
                "a flat list of edges has two vertices an edge: `[0, 1, 1, 2]`",
            ));
        }
        if let Some(v) = ends.iter().find(|&&v| v < 0 || v >= n) {
            return Err(bad(
                format!("an edge names the vertex {v} of a graph of {n} vertices"),
                span,
                format!("the vertices are 0 to {}", n - 1),
            ));
        }
        let pairs: Vec<(usize, usize)> = ends
            .chunks(2)
            .map(|e| (e[0] as usize, e[1] as usize))
            .collect();
        let board = Board::graph(vertices, &pairs).map_err(|_| too_many(n as u128, span))?;
        Ok(BoardValue::full(board))
    }

    /// How many cells are present.
    pub fn len(&self) -> usize {
        self.present.count_ones() as usize
    }

    /// The cell `x` of the board, if it is one.
    fn cell(&self, x: i64) -> Option<usize> {
        usize::try_from(x).ok().filter(|&c| c < self.board.cells())
    }

    pub fn contains(&self, x: i64) -> bool {
        self.cell(x).is_some_and(|c| self.present & bit(c) != 0)
    }

    /// The present cells, ascending.
    pub fn cells(&self) -> impl Iterator<Item = i64> {
        cells_of(self.present).map(|c| c as i64)
    }

    /// The cell `x`, or an error that says it is not on the board.
    pub fn on_board(&self, x: i64, span: Span) -> Result<usize, Error> {
        self.cell(x).ok_or_else(|| {
            bad(
                format!("{x} is not a cell of {self}"),
                span,
                format!(
                    "the cells of this board are 0 to {}",
                    self.board.cells() as i64 - 1
                ),
            )
        })
    }

    /// The cells next to `x` on the board, present or not.
    pub fn neighbours(&self, x: i64, span: Span) -> Result<Value, Error> {
        let c = self.on_board(x, span)?;
        let near = cells_of(self.board.neighbours(c))
            .map(|c| c as i64)
            .collect();
        Ok(Value::Set(Arc::new(near)))
    }

    /// How many of the cells next to `x` are present.
    pub fn degree(&self, x: i64, span: Span) -> Result<i64, Error> {
        let c = self.on_board(x, span)?;
        Ok((self.board.neighbours(c) & self.present).count_ones() as i64)
    }

    /// The row (`column` false) or column of the square `x` of a grid.
    pub fn place(&self, x: i64, column: bool, span: Span) -> Result<i64, Error> {
        let c = self.on_board(x, span)?;
        match self.board {
            Board::Grid { width, .. } => Ok(if column { c % width } else { c / width } as i64),
            Board::Graph { .. } => Err(bad(
                format!(
                    "the vertices of a graph have no {}",
                    if column { "column" } else { "row" }
                ),
                span,
                "`row` and `column` are for the squares of a grid",
            )),
        }
    }

    /// These cells removed (those not present stay absent).
    pub fn without(&self, cells: &[i64], span: Span) -> Result<BoardValue, Error> {
        let mut present = self.present;
        for &x in cells {
            present &= !bit(self.on_board(x, span)?);
        }
        Ok(BoardValue {
            board: self.board.clone(),
            present,
        })
    }

    /// The board as the state of a game on cells: `[0, width, height, low, high]` for a grid,
    /// `[1, n, low, high]` and two words a vertex (its neighbours) for a graph; `low` and `high`
    /// are the halves of the set of present cells.
    pub fn encode(&self) -> Vec<i64> {
        let halves = |set: u128| [set as u64 as i64, (set >> 64) as u64 as i64];
        match &self.board {
            Board::Grid { width, height } => {
                let mut state = vec![0, *width as i64, *height as i64];
                state.extend(halves(self.present));
                state
            }
            Board::Graph { adjacency } => {
                let mut state = vec![1, adjacency.len() as i64];
                state.extend(halves(self.present));
                for &row in adjacency.iter() {
                    state.extend(halves(row));
                }
                state
            }
        }
    }

    /// The board a state of [`BoardValue::encode`] holds.
    pub fn decode(state: &[i64]) -> BoardValue {
        let set = |low: i64, high: i64| u128::from(low as u64) | u128::from(high as u64) << 64;
        match state {
            [0, width, height, low, high] => BoardValue {
                board: Board::Grid {
                    width: *width as usize,
                    height: *height as usize,
                },
                present: set(*low, *high),
            },
            [1, _, low, high, rows @ ..] => BoardValue {
                board: Board::Graph {
                    adjacency: rows.chunks(2).map(|r| set(r[0], r[1])).collect(),
                },
                present: set(*low, *high),
            },
            _ => unreachable!("the state of a game on cells is a board"),
        }
    }

    /// The bytes it holds beyond itself (a graph's rows).
    pub fn bytes(&self) -> usize {
        match &self.board {
            Board::Grid { .. } => 0,
            Board::Graph { adjacency } => crate::game::budget::boxed(adjacency.len() * 16 + 16),
        }
    }
}

impl fmt::Display for BoardValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.board {
            Board::Grid { width, height } if self.present == self.board.all() => {
                write!(f, "grid({width}, {height})")
            }
            Board::Grid { width, height } => {
                f.write_str("grid([")?;
                for r in 0..*height {
                    if r > 0 {
                        f.write_str(", ")?;
                    }
                    let row: String = (0..*width)
                        .map(|c| {
                            if self.present & bit(r * width + c) != 0 {
                                '.'
                            } else {
                                '#'
                            }
                        })
                        .collect();
                    write!(f, "\"{row}\"")?;
                }
                f.write_str("])")
            }
            Board::Graph { adjacency } => {
                write!(f, "vertices({}, [", adjacency.len())?;
                let mut first = true;
                for (a, &row) in adjacency.iter().enumerate() {
                    for b in cells_of(row).filter(|&b| b > a) {
                        if !first {
                            f.write_str(", ")?;
                        }
                        first = false;
                        write!(f, "[{a}, {b}]")?;
                    }
                }
                f.write_str("])")?;
                let absent = self.board.all() & !self.present;
                if absent != 0 {
                    let cells: Vec<String> = cells_of(absent).map(|c| c.to_string()).collect();
                    write!(f, " - {{{}}}", cells.join(", "))?;
                }
                Ok(())
            }
        }
    }
}
